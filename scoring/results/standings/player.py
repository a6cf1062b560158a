"""A player's page: their games, the two charts' series, their opponents and
partners, and their personal bests.

Every function reads finished games only and costs a fixed handful of queries however
long the person's history; the totals and the bests are read from the stored
all-games row (:class:`~scoring.models.PersonTotal`, kept by the play services).
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from members.models import Person
from scoring.models import PersonTotal, RatingPoint, TeamPlayer
from scoring.results.standings.individual import PERSON_FIELDS, partnerships, person_row
from scoring.results.standings.individual import _finish_row as finish_row
from scoring.results.standings.periods import ALL_GAMES, FINISHED, Period, finished_players


def player_games(person: Person) -> QuerySet[TeamPlayer]:
    """A person's finished games, newest first, with what a history table shows (the
    other players prefetched: a constant number of queries for any page of it)."""
    others = Prefetch(
        "game__players",
        queryset=TeamPlayer.objects.select_related("person").order_by("team__index", "seat"),
    )
    return (
        finished_players()
        .filter(person=person)
        .select_related("team", "game", "game__table")
        .prefetch_related(others)
        .annotate(
            rating_after=Subquery(
                RatingPoint.objects.filter(person_id=person.pk, game_id=OuterRef("game_id"))
                .order_by()
                .values("ordinal")[:1]
            )
        )
        .order_by("-game__day_date", "-game__finished_at", "-game_id")
    )


#: What a row of the games table shows, read as values (see :func:`games_page`).
GAME_ROW = (
    "pk",
    "person_id",
    "team_id",
    "game_id",
    "game__day_id",
    "game__day_date",
    "game__table__number",
    "game__number",
    "game__status",
    "team__won",
    "team__total",
    "team__points_against",
    "team__hands",
    "rating_after",
)


class _Players(list):
    """A game's players, as ``game.players.all()`` gives them."""

    def all(self):
        return self


def games_page(page: QuerySet[TeamPlayer]) -> list[SimpleNamespace]:
    """The rows of one page of :func:`player_games` (a sliced queryset) as light
    records with the same attributes a table reads from the TeamPlayer (``game``,
    ``game.players.all()``, ``team``, ``rating_after``): two queries of values, no
    model rows but the players' names."""
    rows = list(page.values_list(*GAME_ROW))
    players: dict[int, _Players] = {}
    seats = (
        TeamPlayer.objects.filter(game_id__in=[row[3] for row in rows])
        .order_by("game_id", "team__index", "seat")
        .values_list("game_id", "team_id", "person_id", *[f"person__{f}" for f in PERSON_FIELDS])
    )
    for game_id, team_id, pid, first, last, kind in seats if rows else ():
        person = Person(pk=pid, first_name=first, last_name=last, kind=kind)
        seat = SimpleNamespace(team_id=team_id, person_id=pid, person=person)
        players.setdefault(game_id, _Players()).append(seat)
    return [_game_row(values, players) for values in rows]


def _game_row(values, players) -> SimpleNamespace:
    pk, person_id, team_id, game_id, day_id, day_date, table, number, status, *rest = values
    won, total, against, hands, rating_after = rest
    game = SimpleNamespace(
        pk=game_id,
        day_id=day_id,
        day_date=day_date,
        table=SimpleNamespace(number=table),
        number=number,
        is_finished=status == FINISHED,
        players=players.get(game_id, _Players()),
    )
    team = SimpleNamespace(pk=team_id, won=won, total=total, points_against=against, hands=hands)
    return SimpleNamespace(
        pk=pk,
        person_id=person_id,
        team_id=team_id,
        game_id=game_id,
        game=game,
        team=team,
        rating_after=rating_after,
    )


def score_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, int]]:
    """(date, game score) of each finished game, oldest first: the game-scores chart."""
    qs = finished_players(period.start, period.end).filter(person=person)
    return list(
        qs.order_by("game__day_date", "game__finished_at", "game_id").values_list(
            "game__day_date", "team__total"
        )
    )


def rating_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, float]]:
    """(date, rating) after each rated game, oldest first: the rating chart."""
    qs = RatingPoint.objects.filter(person=person).filter(period.limits("played_on"))
    return list(qs.order_by("played_on", "pk").values_list("played_on", "ordinal"))


def opponents(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who played against ``person``: games against them, ``person``'s record
    (wins, losses) and points for and against in those games. One aggregate query: the
    other sides of the person's games (a semi-join on the person's own rows, served by
    ``teamplayer_person_game_idx``), with the person's own result per game as a
    correlated subquery."""
    mine = finished_players(period.start, period.end).filter(person=person)
    own = TeamPlayer.objects.filter(person=person, game_id=OuterRef("game_id"))
    theirs = (
        TeamPlayer.objects.filter(game_id__in=mine.values("game_id"))
        .exclude(team_id__in=mine.values("team_id"))
        .annotate(
            my_won=Subquery(own.values("team__won")[:1]),
            my_total=Subquery(own.values("team__total")[:1]),
        )
    )
    aggregated = (
        theirs.values("person_id", *[f"person__{f}" for f in PERSON_FIELDS])
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(my_won=True)),
            points_for=Sum("my_total"),
            points_against=Sum("team__total"),
        )
        .order_by()
    )
    rows = []
    for values in aggregated:
        pid = values.pop("person_id")
        row = person_row(values, pid, "person__")
        row.update(values)
        row["losses"] = row["games"] - row["wins"]
        row["win_pct"] = round(100 * row["wins"] / row["games"], 1) if row["games"] else 0.0
        row["differential"] = (row["points_for"] or 0) - (row["points_against"] or 0)
        rows.append(row)
    rows.sort(key=lambda r: (-r["games"], r["sort_name"]))
    return rows


def partners(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who partnered ``person``, with their record together."""
    rows = partnerships(period.start, period.end, person_id=person.pk, with_ratings=False)
    for row in rows:
        row["partner"] = row["b"]
    rows.sort(key=lambda r: (-r["games"], r["partner"]["sort_name"]))
    return rows


def stored_record(person: Person) -> PersonTotal | None:
    """``person``'s stored all-games row (totals, bests, streak) with the games of
    their bests: one query, whatever the length of their history."""
    return PersonTotal.objects.filter(person_id=person.pk).select_related(*BEST_GAMES).first()


BEST_GAMES = ("best_game_in", "best_hand_in", "most_canastas_in", "most_red_threes_in")


def rating_on(ratings: list[tuple[datetime.date, float]], day: datetime.date | None):
    """The rating (rounded as the standings round it) after the last rated game up to
    ``day`` (None: the latest), from :func:`rating_series`."""
    found = None
    for played_on, ordinal in ratings:
        if day is not None and played_on > day:
            break
        found = ordinal
    return None if found is None else round(found, 1)


def totals_row(stats: dict, rating) -> dict:
    """A row of :func:`~scoring.results.standings.individual.individual` from stored
    statistics (``Stats.stats()``) and the rating."""
    row = finish_row(dict(stats))
    row["rating"] = rating
    return row


def bests_of(record: PersonTotal | None, ratings: list[tuple[datetime.date, float]]) -> dict:
    """Best game, best hand, most canastas in a game, most red threes in a hand, the
    longest winning streak (all from the stored row) and the best rating (the first
    time the highest was reached, from :func:`rating_series`), each with the game or
    day it happened in."""
    best_rating = None
    for played_on, ordinal in ratings:
        if best_rating is None or ordinal > best_rating[1]:
            best_rating = (played_on, ordinal)
    bests = dict.fromkeys(("best_game", "best_hand", "most_canastas", "most_red_threes"))
    bests["streak"] = None
    if best_rating:
        bests["best_rating"] = {
            "value": round(best_rating[1], 1),
            "game": {"day_date": best_rating[0]},
        }
    else:
        bests["best_rating"] = None
    if record is None:
        return bests
    r = record
    bests["best_game"] = r.best_game_in and {"value": r.best_game, "game": r.best_game_in}
    if r.best_hand_in:
        bests["best_hand"] = {
            "value": r.best_hand,
            "game": r.best_hand_in,
            "hand": r.best_hand_number,
        }
    if r.most_canastas and r.most_canastas_in:
        bests["most_canastas"] = {"value": r.most_canastas, "game": r.most_canastas_in}
    if r.most_red_threes and r.most_red_threes_in:
        bests["most_red_threes"] = {
            "value": r.most_red_threes,
            "game": r.most_red_threes_in,
            "hand": r.most_red_threes_number,
        }
    if r.streak:
        bests["streak"] = {"length": r.streak, "start": r.streak_start, "end": r.streak_end}
    return bests


def personal_bests(person: Person) -> dict:
    """:func:`bests_of` ``person``: two queries (the stored row, the ratings)."""
    return bests_of(stored_record(person), rating_series(person))
