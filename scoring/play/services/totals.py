"""The stored totals (:class:`~scoring.models.SeasonTotal` per person and season,
:class:`~scoring.models.PartnershipTotal` per pair of partners and season,
:class:`~scoring.models.PersonTotal` per person over all games): written here only.

A game that finishes, or a finished game that is corrected, re-opened or rebuilt,
changes the totals of its players (and of the partnerships among them) in every
season whose dates cover its day, and their all-games rows with their personal bests:
:func:`game_changed`, called in the same transaction when the services tell of the
change (:func:`scoring.play.services.replay.tell_ratings`, heard by
:func:`scoring.results.receivers.totals_after_game`), adds those players' finished games
of those seasons up again from the per-game statistics on ``GameTeam`` (a few hundred
rows at most: a small read that never grows with the club's history, and always right
after a correction, where adding and taking away could drift), and their all-games
rows from their games (:func:`refresh_records`: a person's own games, a few hundred
rows, and their hands in two ranked queries).
Editing a season's dates recomputes that season (:func:`refresh_season`); a merge of
two people, their rows; ``manage.py rebuild_totals`` everything (:func:`rebuild_all`).

Writers take turns: a game's writer locks its players' person rows, and rewrites only
their rows and their pairs' (:func:`one_writer_per_person`), alongside other games but
never alongside the others (:func:`alongside_other_games`); the others, rewriting
rows of people they cannot name beforehand or changing a season's dates, have the
totals to themselves while they run (:func:`only_writer`). On SQLite one writer runs
at a time anyway.

Every function takes an optional ``apps`` (a migration's app registry), so the
migration that adds the tables fills them with the same code.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.apps import apps as global_apps
from django.db import connection, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from scoring.models.totals import STAT_FIELDS, TEAM_SUMS, team_aggregates

FINISHED = "finished"
PARTNER = "team__memberships__person"


def _models(apps=None):
    registry = apps or global_apps
    return (
        registry.get_model("scoring", "Season"),
        registry.get_model("scoring", "TeamPlayer"),
        registry.get_model("scoring", "SeasonTotal"),
        registry.get_model("scoring", "PartnershipTotal"),
    )


def game_changed(game, people: list[int] | None = None) -> None:
    """Recompute the stored totals of ``game``'s players (``people``, when the caller
    has them) and of the partnerships among them in every season covering its day:
    call inside the transaction that changed it.

    Only rows of these people are rewritten, and they are locked first: a pair row is
    rewritten only when both partners are players of this game (the only pairs a game
    can change). A pair of one of them with someone at another table is left alone:
    that table's game, ending at the same moment, may be rewriting it, and before,
    both deleted it and the second insert failed (``partnership_total_once``)."""
    Season, TeamPlayer, _, _ = _models()
    if people is None:
        people = list(
            TeamPlayer.objects.filter(game_id=game.pk).values_list("person_id", flat=True)
        )
    with transaction.atomic(savepoint=False):
        one_writer_per_person(people)
        alongside_other_games()
        for season in Season.objects.filter(start__lte=game.day_date, end__gte=game.day_date):
            refresh(season, people, pairs_among_them=True)
        refresh_records(people)


def one_writer_per_person(person_ids: Iterable[int]) -> None:
    """Call first in a transaction that rewrites these people's rows: another one
    rewriting any of them waits until this one ends (PostgreSQL: their person rows
    locked, in id order so two writers never wait for each other; SQLite lets one
    writer in at a time anyway). Without it, a correction of an old game and a game
    finishing at the same moment, both with the same player, each deleted the rows
    they saw and the second insert failed, or left a total short of one game."""
    if not connection.features.has_select_for_update:  # SQLite: one writer anyway
        return
    Person = global_apps.get_model("members", "Person")
    rows = Person.objects.select_for_update(no_key=True).filter(pk__in=sorted(set(person_ids)))
    list(rows.order_by("pk").values_list("pk", flat=True))


def refresh_people(person_ids: Iterable[int], apps=None) -> None:
    """Recompute these people's totals in every season (after a merge moved games):
    their partnerships with anyone are rewritten, so no other writer runs meanwhile."""
    Season, _, _, _ = _models(apps)
    ids = list(person_ids)
    with transaction.atomic():
        only_writer(apps)
        for season in Season.objects.all():
            refresh(season, ids, apps=apps)
        refresh_records(ids, apps=apps)


def refresh_season(season, apps=None) -> None:
    """Recompute one season's totals for everyone (its dates changed, or a rebuild)."""
    with transaction.atomic():
        only_writer(apps)
        refresh(season, None, apps=apps)


def rebuild_all(apps=None) -> int:
    """Recompute every season's totals and everyone's all-games row; returns the
    number of seasons."""
    Season, _, _, _ = _models(apps)
    with transaction.atomic():
        only_writer(apps)
        seasons = list(Season.objects.all())
        for season in seasons:
            refresh(season, None, apps=apps)
        if _has_records(apps):  # not yet in the migration that added the season totals
            refresh_records(None, apps=apps)
    return len(seasons)


#: The stored totals' models, in the order :func:`game_changed` writes them.
_TOTALS = ("SeasonTotal", "PartnershipTotal", "PersonTotal")


def only_writer(apps=None) -> None:
    """Call first in a transaction that rewrites the rows of people it cannot name
    beforehand (everyone's, or everyone who partnered someone): every other writer of
    the totals waits until it ends, and it waits for those writing now. Reading goes
    on meanwhile (PostgreSQL: the totals tables locked in EXCLUSIVE mode, which lets
    only reads through; SQLite lets one writer in at a time anyway). Locking the
    person rows of those who had played was not enough: a newcomer's first game
    ending meanwhile was added up by the rewrite while that newcomer's next game
    wrote the same row, and the second insert failed."""
    _lock_totals("EXCLUSIVE", apps)


def alongside_other_games() -> None:
    """Call in a game's rewrite of its players' rows, after :func:`one_writer_per_person`
    and before reading which seasons cover its day: it waits for a writer that has the
    totals to itself (:func:`only_writer`: a season's dates edited, a rebuild), and such
    a writer waits for it, while games ending at once go on together (PostgreSQL: the
    totals tables locked in ROW EXCLUSIVE mode, the lock their writes take anyway, now
    taken before the read). Before, a game read a season's old dates while an edit of
    them was not yet committed, and the edit added up the season without that game,
    not yet committed either: the season's rows were those of neither dates."""
    _lock_totals("ROW EXCLUSIVE")


def _lock_totals(mode: str, apps=None) -> None:
    if connection.vendor != "postgresql":
        return
    registry = apps or global_apps
    tables = []
    for name in _TOTALS:
        try:
            model = registry.get_model("scoring", name)
        except LookupError:  # not yet in the migration that added the season totals
            continue
        tables.append(connection.ops.quote_name(model._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {', '.join(tables)} IN {mode} MODE")


def _has_records(apps) -> bool:
    try:
        (apps or global_apps).get_model("scoring", "PersonTotal")
    except LookupError:
        return False
    return True


def refresh(
    season, person_ids: list[int] | None, apps=None, *, pairs_among_them: bool = False
) -> None:
    """Replace ``season``'s stored rows of these people (None: everyone) with their
    finished games added up: six queries (two aggregates, two deletes, two inserts).
    Their partnerships' rows are those with any of them, or with ``pairs_among_them``
    only those where both partners are among them."""
    with transaction.atomic():
        _refresh(season, person_ids, apps, pairs_among_them)


def _refresh(season, person_ids, apps, pairs_among_them=False) -> None:
    _, TeamPlayer, SeasonTotal, PartnershipTotal = _models(apps)
    seats = TeamPlayer.objects.filter(
        game__status=FINISHED, game__day_date__gte=season.start, game__day_date__lte=season.end
    )
    aggregates = team_aggregates()
    people = seats if person_ids is None else seats.filter(person_id__in=person_ids)
    rows = people.values("person_id").annotate(**aggregates).order_by()
    stale = SeasonTotal.objects.filter(season=season)
    if person_ids is not None:
        stale = stale.filter(person_id__in=person_ids)
    stale.delete()
    SeasonTotal.objects.bulk_create(
        SeasonTotal(season=season, **_stats(row), person_id=row["person_id"]) for row in rows
    )
    _refresh_pairs(season, seats, person_ids, aggregates, PartnershipTotal, pairs_among_them)


def _refresh_pairs(
    season, seats, person_ids, aggregates, PartnershipTotal, pairs_among_them
) -> None:
    """The partnerships' rows: the seats self-joined on their team, the lower id
    first, so each pair is counted once per game (teams of one have no pair)."""
    pair = Q(**{f"{PARTNER}_id__gt": F("person_id")})
    if person_ids is not None:
        mine, partners = Q(person_id__in=person_ids), Q(**{f"{PARTNER}_id__in": person_ids})
        pair &= (mine & partners) if pairs_among_them else (mine | partners)
    rows = (
        seats.filter(pair)
        .values("person_id", partner_id=F(f"{PARTNER}_id"))
        .annotate(**aggregates)
        .order_by()
    )
    stale = PartnershipTotal.objects.filter(season=season)
    if person_ids is not None:
        mine, partners = Q(person_id__in=person_ids), Q(partner_id__in=person_ids)
        stale = stale.filter((mine & partners) if pairs_among_them else (mine | partners))
    stale.delete()
    PartnershipTotal.objects.bulk_create(
        PartnershipTotal(
            season=season, person_id=row["person_id"], partner_id=row["partner_id"], **_stats(row)
        )
        for row in rows
    )


def _stats(row: dict) -> dict:
    """The stored fields of an aggregated row (sums of nothing are 0; bests stay None)."""
    return {
        name: row[name] if name in ("best_game", "best_hand") else row[name] or 0
        for name in STAT_FIELDS
    }


# ---------------------------------------------------------------------------------------
# Each person's all-games row: totals, personal bests, longest winning streak

#: The per-game values read for :func:`refresh_records`, after person and game.
_SEAT_VALUES = ("game__day_date", "team__won", "team__natural_canastas", "team__mixed_canastas")


def refresh_records(person_ids: list[int] | None, apps=None) -> None:
    """Replace the :class:`~scoring.models.PersonTotal` rows of these people (None:
    everyone) with their finished games added up: their games in the order played
    (one query; the totals, best game, most canastas and the streak are worked out in
    Python), the best hand and the most red threes in a hand (one ranked query each),
    then a delete and an insert. The new rows' new ids are what tells a person's page
    it must be drawn again (:func:`scoring.results.cache.person_stamp_columns`): an
    update in place would need a version column there instead."""
    registry = apps or global_apps
    TeamPlayer = registry.get_model("scoring", "TeamPlayer")
    PersonTotal = registry.get_model("scoring", "PersonTotal")
    seats = TeamPlayer.objects.filter(game__status=FINISHED)
    if person_ids is not None:
        seats = seats.filter(person_id__in=person_ids)
    sums = [f"team__{name}" for name in TEAM_SUMS.values()]
    rows = seats.order_by(
        "person_id", "game__day_date", F("game__finished_at").asc(nulls_last=True), "game_id"
    ).values_list("person_id", "game_id", *_SEAT_VALUES, "team__best_hand", *sums)
    records: dict[int, dict] = {}
    for pid, game_id, day, won, natural, mixed, best_hand, *values in rows.iterator(2000):
        record = records.get(pid) or records.setdefault(pid, _new_record())
        _add_game(record, game_id, day, won, natural + mixed, best_hand, values)
    for key, number in (("hand_score", "best_hand"), ("red_threes", "most_red_threes")):
        for pid, value, game_id, hand in _best_hands(seats, key):
            if pid in records and value:
                records[pid].update({f"{number}_in_id": game_id, f"{number}_number": hand})
                if key == "red_threes":
                    records[pid]["most_red_threes"] = value
    with transaction.atomic():
        stale = PersonTotal.objects.all()
        if person_ids is not None:
            stale = stale.filter(person_id__in=person_ids)
        stale.delete()
        PersonTotal.objects.bulk_create(
            PersonTotal(person_id=pid, **_finished(record)) for pid, record in records.items()
        )


def _new_record() -> dict:
    return {
        **dict.fromkeys(("games", "wins", *TEAM_SUMS), 0),
        "best_game": None,
        "best_hand": None,
        "most_canastas": 0,
        "streak": 0,
        "run": 0,
    }


def _add_game(record, game_id, day, won, canastas, best_hand, values) -> None:
    """Count one finished game (games arrive in the order they were played, so a
    best is replaced only by a strictly better one: the first to reach it stays)."""
    record["games"] += 1
    record["wins"] += bool(won)
    for key, value in zip(TEAM_SUMS, values, strict=True):
        record[key] += value or 0
    total = values[0]
    if record["best_game"] is None or total > record["best_game"]:
        record["best_game"], record["best_game_in_id"] = total, game_id
    if best_hand is not None and (record["best_hand"] is None or best_hand > record["best_hand"]):
        record["best_hand"] = best_hand
    if canastas > record["most_canastas"]:
        record["most_canastas"], record["most_canastas_in_id"] = canastas, game_id
    if not won:
        record["run"] = 0
        return
    record["run"] += 1
    if record["run"] == 1:
        record["run_start"] = day
    if record["run"] > record["streak"]:
        record["streak"] = record["run"]
        record["streak_start"], record["streak_end"] = record["run_start"], day


def _finished(record: dict) -> dict:
    record.pop("run")
    record.pop("run_start", None)
    return record


def _best_hands(seats, key: str):
    """(person, value, game, hand number) of each person's hand with the highest
    ``key`` (the first played among equals): one query ranking their hands."""
    hands = "team__team_hands"
    order = [
        F(f"{hands}__{key}").desc(nulls_last=True),
        F("game__day_date").asc(),
        F("game__finished_at").asc(nulls_last=True),
        F("game_id").asc(),
        F(f"{hands}__hand__number").asc(),
    ]
    ranked = (
        seats.order_by()
        .annotate(place=Window(RowNumber(), partition_by=[F("person_id")], order_by=order))
        .filter(place=1)
    )
    return ranked.values_list("person_id", f"{hands}__{key}", "game_id", f"{hands}__hand__number")
