"""Standings and statistics: the queries behind the results pages and the league workbook.

Everything here reads the per-game statistics that `scoring.play.services` stores on each
`GameTeam` (totals, points against, canastas, red threes, going out...), so a season's
standings are ONE aggregate query over `TeamPlayer` joined to `GameTeam` and `Game`,
grouped by person — never a query per person or per game, never a loop over hands.
Only finished games count.

A team's statistics are credited to each of its players: partners change from game to
game, so people are ranked as individuals (:func:`individual`), with partnerships
(:func:`partnerships`) as a second view. The ranking itself (:func:`rank`) is plain
Python over the aggregated rows: an ordered list of measures chosen by the officers,
tie-aware positions (1, 1, 3), and a minimum number of games below which a person is
listed apart as "not yet ranked" (:func:`standings`).

The pages (``scoring.results.views``) and the workbook (``scoring.results.exports``) call the
same functions, so every total in the workbook agrees with the site.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db import connection
from django.db.models import (
    Count,
    F,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.utils import timezone
from django.utils.formats import date_format

from members.models import ClubDay, Person
from scoring.models import (
    ClubSettings,
    Game,
    GameTeam,
    Hand,
    RatingPoint,
    ResultsVersion,
    Season,
    TeamHand,
    TeamPlayer,
)

FINISHED = Game.Status.FINISHED
MEMBER = Person.Kind.MEMBER
GUEST = Person.Kind.GUEST

# ---------------------------------------------------------------------------------------
# Measures


@dataclass(frozen=True)
class Measure:
    """A number a standings row can be ranked by. ``higher_is_better`` gives the
    direction (points against: lower is better)."""

    name: str
    label: str
    higher_is_better: bool = True
    help: str = ""


MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (
        Measure("win_pct", "Win %", help="Games won out of games played."),
        Measure("differential", "Points difference", help="Points for minus points against."),
        Measure("wins", "Wins", help="Games won."),
        Measure("points_for", "Points for", help="All points scored in finished games."),
        Measure("average", "Average game score", help="Points for divided by games."),
        Measure("rating", "Rating", help="The OpenSkill rating at the end of the period."),
        Measure("games", "Games played"),
        Measure("points_against", "Points against", higher_is_better=False),
        Measure("natural_canastas", "Natural canastas"),
        Measure("red_threes", "Red threes"),
        Measure("times_out", "Times out"),
    )
}

DEFAULT_MEASURES: tuple[str, ...] = ("win_pct", "differential")
DEFAULT_MIN_GAMES = 5

# The per-game statistics stored on GameTeam that standings add up (row key → field).
TEAM_SUMS: dict[str, str] = {
    "points_for": "total",
    "points_against": "points_against",
    "hands": "hands",
    "natural_canastas": "natural_canastas",
    "mixed_canastas": "mixed_canastas",
    "red_threes": "red_threes",
    "times_out": "times_out",
    "concealed_outs": "concealed_outs",
    "perfect_cuts": "perfect_cuts",
}


def clean_measures(names: Iterable[str] | None) -> list[str]:
    """The known measures of ``names``, in order, without repeats; the default when
    none is left."""
    out: list[str] = []
    for name in names or ():
        if name in MEASURES and name not in out:
            out.append(name)
    return out or list(DEFAULT_MEASURES)


def measures_label(names: Sequence[str]) -> str:
    """ "Win %, then Points difference"."""
    return ", then ".join(MEASURES[n].label for n in clean_measures(names))


# ---------------------------------------------------------------------------------------
# Periods and seasons


@dataclass(frozen=True)
class Period:
    """A date range of the standings: a season, any from/to dates, or all games."""

    start: datetime.date | None = None
    end: datetime.date | None = None
    season: Season | None = None

    @property
    def label(self) -> str:
        if self.season is not None:
            return f"{self.season.name} ({_span(self.start, self.end)})"
        if self.start is None and self.end is None:
            return "All games"
        return _span(self.start, self.end)

    @property
    def slug(self) -> str:
        """For file names: "2025", "2025-01-01_to_2025-06-30", "all-games"."""
        if self.season is not None:
            text = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.season.name)
            return text.strip("-") or "season"
        if self.start is None and self.end is None:
            return "all-games"
        start = self.start.isoformat() if self.start else "start"
        end = self.end.isoformat() if self.end else "today"
        return f"{start}_to_{end}"

    def contains(self, day: datetime.date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


def _day(value: datetime.date) -> str:
    return date_format(value, "j M Y")


def _span(start, end) -> str:
    if start and end:
        return f"{_day(start)} – {_day(end)}"
    if start:
        return f"from {_day(start)}"
    return f"up to {_day(end)}"


ALL_GAMES = Period()


def current_season(today: datetime.date | None = None) -> Season | None:
    """The season containing today (the latest-starting one if several overlap); else
    the latest season that has started; else the first one to come; None if there are
    no seasons."""
    today = today or timezone.localdate()
    seasons = list(Season.objects.order_by("-start", "-pk"))  # a handful: one query
    return (
        next((s for s in seasons if s.start <= today <= s.end), None)
        or next((s for s in seasons if s.start <= today), None)
        or (seasons[-1] if seasons else None)
    )


def season_period(season: Season | None) -> Period:
    if season is None:
        return ALL_GAMES
    return Period(start=season.start, end=season.end, season=season)


def default_period(today: datetime.date | None = None) -> Period:
    """What the standings show when nothing is chosen: the current season, or all
    games when the club has no seasons."""
    return season_period(current_season(today))


def overlapping_seasons(start, end, exclude_pk=None) -> list[Season]:
    """Seasons sharing at least one day with start..end (overlaps are allowed; the
    season form warns about them)."""
    qs = Season.objects.filter(start__lte=end, end__gte=start)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return list(qs.order_by("start"))


# ---------------------------------------------------------------------------------------
# A fingerprint of the data


def data_stamp() -> str:
    """A short fingerprint that changes whenever anything the results pages show may
    have changed: a game started or finished, a hand entered, corrected or undone
    (django-simple-history writes a row for each), ratings rewritten, a person renamed
    or merged. One query of five small lookups. The pages cache their bodies under it."""
    q = connection.ops.quote_name
    history = Hand.history.model._meta
    sql = (
        f"SELECT (SELECT MAX({q(history.pk.column)}) FROM {q(history.db_table)}), "
        f"(SELECT MAX({q('id')}) FROM {q(RatingPoint._meta.db_table)}), "
        f"(SELECT COUNT(*) FROM {q(Game._meta.db_table)} WHERE {q('status')} = %s), "
        f"(SELECT MAX({q('id')}) FROM {q(Game._meta.db_table)}), "
        f"(SELECT MAX({q('updated_at')}) FROM {q(Person._meta.db_table)})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [FINISHED])
        row = cursor.fetchone()
    return "-".join(str(v) for v in row)


def results_stamp() -> str:
    """A fingerprint of what the standings, records and players' pages show, which
    only reads finished games: it changes when a game finishes, a finished game is
    corrected or re-opened, ratings are rewritten, seasons or ranking settings are
    edited or a person is merged (each bumps :class:`ResultsVersion`), or a person is
    renamed. Hands of games still in play leave it alone, so on a busy club day the
    cached standings stay valid between finished games. One query of two lookups."""
    q = connection.ops.quote_name
    version = ResultsVersion._meta
    sql = (
        f"SELECT (SELECT {q('number')} FROM {q(version.db_table)} WHERE {q('id')} = 1), "
        f"(SELECT MAX({q('updated_at')}) FROM {q(Person._meta.db_table)})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
    return "r-" + "-".join(str(v) for v in row)


# ---------------------------------------------------------------------------------------
# Base querysets


def finished_players(
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    *,
    include_guests: bool = True,
) -> QuerySet[TeamPlayer]:
    """Every seat taken in a finished game played from ``start`` to ``end`` (inclusive,
    either may be None), one row per person per game."""
    qs = TeamPlayer.objects.filter(game__status=FINISHED)
    if start:
        qs = qs.filter(game__day_date__gte=start)
    if end:
        qs = qs.filter(game__day_date__lte=end)
    if not include_guests:
        qs = qs.filter(person__kind=MEMBER)
    return qs


def finished_games(start=None, end=None) -> QuerySet[Game]:
    return Game.objects.finished().between(start, end)


# ---------------------------------------------------------------------------------------
# Rows


def _aggregates(prefix: str = "team__") -> dict:
    sums = {key: Sum(f"{prefix}{name}") for key, name in TEAM_SUMS.items()}
    return {
        "games": Count("pk"),
        "wins": Count("pk", filter=Q(**{f"{prefix}won": True})),
        **sums,
        "best_game": Max(f"{prefix}total"),
        "best_hand": Max(f"{prefix}best_hand"),
    }


def _finish_row(row: dict) -> dict:
    """Add the derived measures to an aggregated row (in place)."""
    for key in TEAM_SUMS:
        row[key] = row.get(key) or 0
    games = row["games"]
    row["losses"] = games - row["wins"]
    row["differential"] = row["points_for"] - row["points_against"]
    row["win_pct"] = round(100 * row["wins"] / games, 1) if games else 0.0
    row["average"] = round(row["points_for"] / games, 1) if games else 0.0
    row["canastas"] = row["natural_canastas"] + row["mixed_canastas"]
    return row


def latest_ratings(
    person_ids: Iterable[int], on_or_before: datetime.date | None = None
) -> dict[int, float]:
    """Each person's rating (ordinal) after their last rated game up to a date: one
    query (a correlated subquery per person, served by ``rating_latest_idx``)."""
    ids = list(person_ids)
    if not ids:
        return {}
    points = RatingPoint.objects.filter(person=OuterRef("pk"))
    if on_or_before:
        points = points.filter(played_on__lte=on_or_before)
    latest = points.order_by("-played_on", "-pk").values("ordinal")[:1]
    rows = (
        Person.objects.filter(pk__in=ids)
        .annotate(rating=Subquery(latest))
        .values_list("pk", "rating")
        .order_by()
    )
    return {pk: rating for pk, rating in rows if rating is not None}


_PERSON_FIELDS = ("first_name", "last_name", "kind")


def _person_row(values: dict, pid: int, prefix: str) -> dict:
    first = values.pop(f"{prefix}first_name")
    last = values.pop(f"{prefix}last_name")
    kind = values.pop(f"{prefix}kind")
    name = f"{first} {last}".strip()
    return {
        "person_id": pid,
        "name": name,
        "sort_name": f"{last} {first}".strip().lower(),
        "kind": kind,
        "is_guest": kind == GUEST,
        "display_name": f"{name} (guest)" if kind == GUEST else name,
    }


def individual(
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    *,
    include_guests: bool = True,
    players: QuerySet[TeamPlayer] | None = None,
    person_ids: Iterable[int] | None = None,
    with_ratings: bool = True,
) -> list[dict]:
    """One row per person who played a finished game in the period: games, wins,
    losses, win % (0–100), points for and against, differential, average game score,
    hands, natural and mixed canastas, red threes, times out, concealed outs, perfect
    cuts, best game, best hand and (``with_ratings``) the rating at the end of the
    period. Unranked and unsorted: see :func:`standings`.

    ``players`` replaces the base queryset (a filtered :func:`finished_players`, e.g.
    from the standings FilterSet). Two queries: the aggregate and the ratings.
    """
    qs = (
        players
        if players is not None
        else finished_players(start, end, include_guests=include_guests)
    )
    if person_ids is not None:
        qs = qs.filter(person_id__in=list(person_ids))
    person_values = [f"person__{f}" for f in _PERSON_FIELDS]
    aggregated = qs.values("person_id", *person_values).annotate(**_aggregates()).order_by()
    rows = []
    for values in aggregated:
        pid = values.pop("person_id")
        row = _person_row(values, pid, "person__")
        row.update(values)
        rows.append(_finish_row(row))
    if with_ratings:
        ratings = latest_ratings([r["person_id"] for r in rows], end)
        for row in rows:
            row["rating"] = _round(ratings.get(row["person_id"]))
    return rows


def partnerships(
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    *,
    include_guests: bool = True,
    players: QuerySet[TeamPlayer] | None = None,
    person_id: int | None = None,
    with_ratings: bool = True,
) -> list[dict]:
    """One row per pair of people who played on the same side, with the same measures
    as :func:`individual` (the team's numbers, counted once per game). ONE aggregate
    query: TeamPlayer self-joined on its team, person A's id below person B's (so each
    pair appears once), grouped by the pair. With ``person_id``: that person's partners
    only (the pair is then (person, partner) in either order)."""
    qs = (
        players
        if players is not None
        else finished_players(start, end, include_guests=include_guests)
    )
    partner = "team__memberships__person"
    # One filter() call, so every condition (and the values below) uses the same join.
    pair = Q(**{f"{partner}_id__gt": F("person_id")})
    if person_id is not None:
        qs = qs.filter(person_id=person_id)
        pair |= Q(**{f"{partner}_id__lt": F("person_id")})
    if not include_guests:
        pair &= Q(**{f"{partner}__kind": MEMBER})
    qs = qs.filter(pair)
    values = {
        **{f"a_{f}": F(f"person__{f}") for f in _PERSON_FIELDS},
        "b_id": F(f"{partner}_id"),
        **{f"b_{f}": F(f"{partner}__{f}") for f in _PERSON_FIELDS},
    }
    aggregated = qs.values("person_id", **values).annotate(**_aggregates()).order_by()
    rows = []
    for item in aggregated:
        a_id = item.pop("person_id")
        b_id = item.pop("b_id")
        a = _person_row(item, a_id, "a_")
        b = _person_row(item, b_id, "b_")
        row = {
            "pair": (a_id, b_id),
            "a": a,
            "b": b,
            "name": f"{a['name']} & {b['name']}",
            "display_name": f"{a['display_name']} & {b['display_name']}",
            "sort_name": f"{a['sort_name']} & {b['sort_name']}",
            "is_guest": a["is_guest"] or b["is_guest"],
        }
        row.update(item)
        rows.append(_finish_row(row))
    if with_ratings:
        ids = {pid for r in rows for pid in r["pair"]}
        ratings = latest_ratings(ids, end)
        for row in rows:
            both = [ratings.get(pid) for pid in row["pair"]]
            known = [r for r in both if r is not None]
            row["rating"] = _round(sum(known) / len(known)) if known else None
    return rows


def _round(value):
    return None if value is None else round(value, 1)


# ---------------------------------------------------------------------------------------
# Ranking


def _measure_value(row: dict, name: str):
    """Exact value of a measure for comparing (fractions, so 1/3 equals 2/6)."""
    games = row.get("games") or 0
    if name == "win_pct":
        return Fraction(row["wins"], games) if games else Fraction(0)
    if name == "average":
        return Fraction(row["points_for"], games) if games else Fraction(0)
    return row.get(name)


def _sort_key(row: dict, measures: Sequence[str]) -> tuple:
    key = []
    for name in measures:
        value = _measure_value(row, name)
        if value is None:  # no rating yet: after everyone who has one
            key.append((1, 0))
        else:
            key.append((0, -value if MEASURES[name].higher_is_better else value))
    return tuple(key)


def rank(rows: list[dict], measures: Sequence[str] | None = None) -> list[dict]:
    """Sort ``rows`` by the ordered ``measures`` (best first) and give each row a
    tie-aware position: rows equal on every measure share it and the next position is
    skipped (1, 1, 3). Sets ``rank`` and ``tied`` on each row; returns the rows in order
    (name order among equals)."""
    names = clean_measures(measures)
    keyed = sorted(
        ((_sort_key(row, names), row) for row in rows),
        key=lambda pair: (pair[0], pair[1].get("sort_name", "")),
    )
    counts: dict[tuple, int] = {}
    for key, _row in keyed:
        counts[key] = counts.get(key, 0) + 1
    out = []
    position = 0
    previous = object()
    for i, (key, row) in enumerate(keyed, start=1):
        if key != previous:
            position = i
            previous = key
        row["rank"] = position
        row["tied"] = counts[key] > 1
        out.append(row)
    return out


@dataclass
class Standings:
    """Ranked rows, the rows listed apart (fewer games than the minimum), and how."""

    ranked: list[dict]
    unranked: list[dict]
    measures: list[str]
    min_games: int
    period: Period = field(default_factory=Period)

    @property
    def rows(self) -> list[dict]:
        """Ranked rows first, then the rows not yet ranked (rank None)."""
        return self.ranked + self.unranked

    @property
    def measures_label(self) -> str:
        return measures_label(self.measures)


def split_and_rank(rows: list[dict], measures: Sequence[str] | None, min_games: int):
    """(ranked, unranked): rows with at least ``min_games`` games ranked by
    ``measures``; the others, most games first, with rank None."""
    ranked = [r for r in rows if r["games"] >= min_games]
    unranked = [r for r in rows if r["games"] < min_games]
    unranked.sort(key=lambda r: (-r["games"], r.get("sort_name", "")))
    for row in unranked:
        row["rank"] = None
        row["tied"] = False
    return rank(ranked, measures), unranked


def ranking_settings(club: ClubSettings | None = None) -> tuple[list[str], int]:
    club = club or ClubSettings.load()
    return clean_measures(club.ranking_measures), int(club.min_games_to_rank)


def _ranked_standings(
    aggregate, period, include_guests, players, measures, min_games, club
) -> Standings:
    """Rank the rows of ``aggregate`` (individual or partnerships) for ``period`` by the
    given measures and minimum, or by the club's where they are not given."""
    if measures is None or min_games is None:
        club_measures, club_min = ranking_settings(club)
        measures = club_measures if measures is None else measures
        min_games = club_min if min_games is None else min_games
    rows = aggregate(period.start, period.end, include_guests=include_guests, players=players)
    ranked, unranked = split_and_rank(rows, measures, min_games)
    return Standings(ranked, unranked, clean_measures(measures), min_games, period)


def standings(
    period: Period = ALL_GAMES,
    *,
    include_guests: bool = True,
    players: QuerySet[TeamPlayer] | None = None,
    measures: Sequence[str] | None = None,
    min_games: int | None = None,
    club: ClubSettings | None = None,
) -> Standings:
    """The individual standings of a period, ranked as the club chose (or as given)."""
    return _ranked_standings(individual, period, include_guests, players, measures, min_games, club)


def partnership_standings(
    period: Period = ALL_GAMES,
    *,
    include_guests: bool = True,
    players: QuerySet[TeamPlayer] | None = None,
    measures: Sequence[str] | None = None,
    min_games: int | None = None,
    club: ClubSettings | None = None,
) -> Standings:
    """The standings of pairs who played together, ranked like the individual ones."""
    return _ranked_standings(
        partnerships, period, include_guests, players, measures, min_games, club
    )


# ---------------------------------------------------------------------------------------
# Day results


def days_with_results(start=None, end=None) -> QuerySet[ClubDay]:
    """Club days with their finished-game count, players and top score (subqueries, so
    a page of days costs one query whatever the history)."""
    games = Game.objects.filter(day=OuterRef("pk"), status=FINISHED).order_by()
    game_count = games.values("day").annotate(n=Count("pk")).values("n")
    players = (
        TeamPlayer.objects.filter(game__day=OuterRef("pk"), game__status=FINISHED)
        .order_by()
        .values("game__day")
        .annotate(n=Count("person", distinct=True))
        .values("n")
    )
    top = (
        GameTeam.objects.filter(game__day=OuterRef("pk"), game__status=FINISHED)
        .order_by("-total")
        .values("total")[:1]
    )
    qs = ClubDay.objects.all()
    if start:
        qs = qs.filter(date__gte=start)
    if end:
        qs = qs.filter(date__lte=end)
    return qs.annotate(
        game_count=Subquery(game_count),
        player_count=Subquery(players),
        top_score=Subquery(top),
    ).order_by("-date", "-pk")


def _team_prefetch() -> Prefetch:
    return Prefetch(
        "memberships",
        queryset=TeamPlayer.objects.select_related("person").order_by("seat", "pk"),
    )


def team_names(team: GameTeam, guests: bool = True) -> str:
    """ "Ann Able & Cat Cole" from a prefetched team."""
    people = [m.person for m in team.memberships.all()]
    return " & ".join(p.display_name if guests else p.full_name for p in people)


def day_games(day: ClubDay) -> list[dict]:
    """Every game of a day, one row each: table, game number, the winning team and
    the other team(s) with their scores, hands, status. Three queries."""
    games = (
        Game.objects.filter(day=day)
        .select_related("table", "table__round")
        .prefetch_related(
            Prefetch("teams", queryset=GameTeam.objects.prefetch_related(_team_prefetch()))
        )
        .order_by("table__round__number", "table__number", "number")
    )
    rows = []
    for game in games:
        teams = sorted(game.teams.all(), key=lambda t: t.index)
        winner = next((t for t in teams if t.pk == game.winner_id), None)
        first = winner or max(teams, key=lambda t: t.total, default=None)
        others = [t for t in teams if t is not first]
        rows.append(
            {
                "game": game,
                "game_id": game.pk,
                "round": game.table.round.number,
                "table": game.table.number,
                "number": game.number,
                "finished": game.is_finished,
                "status": "Finished" if game.is_finished else "Playing",
                "first_team": team_names(first) if first else "",
                "first_people": _people(first),
                "first_score": first.total if first else None,
                "other_teams": " / ".join(team_names(t) for t in others),
                "other_people": [p for t in others for p in _people(t)],
                "other_scores": " / ".join(f"{t.total:,}" for t in others),
                "other_score": max((t.total for t in others), default=None),
                "margin": (first.total - max(t.total for t in others))
                if first and others
                else None,
                "hands": game.hand_count,
            }
        )
    return rows


def _people(team: GameTeam | None) -> list[Person]:
    return [m.person for m in team.memberships.all()] if team else []


def top_scores(day_or_games, n: int = 6) -> list[dict]:
    """The ``n`` highest game scores (a team's final total) of a day's finished games,
    tie-aware: everyone equal to the n-th score is included too. Two queries plus the
    players."""
    teams = GameTeam.objects.filter(game__status=FINISHED)
    if isinstance(day_or_games, ClubDay):
        teams = teams.filter(game__day=day_or_games)
    else:
        teams = teams.filter(game__in=day_or_games)
    cut = list(teams.order_by("-total").values_list("total", flat=True)[n - 1 : n])
    if cut:
        teams = teams.filter(total__gte=cut[0])
    chosen = (
        teams.select_related("game", "game__table")
        .prefetch_related(_team_prefetch())
        .order_by("-total", "game__table__number", "game__number", "index")
    )
    rows = []
    for team in chosen:
        rows.append(
            {
                "team": team,
                "game_id": team.game_id,
                "players": team_names(team),
                "people": _people(team),
                "score": team.total,
                "table": team.game.table.number,
                "game_number": team.game.number,
                "won": team.won,
            }
        )
    _positions(rows, "score")
    return rows


def _positions(rows: list[dict], key: str) -> None:
    """Tie-aware positions for rows already sorted best first."""
    previous = object()
    position = 0
    for i, row in enumerate(rows, start=1):
        if row[key] != previous:
            position = i
            previous = row[key]
        row["rank"] = position


# ---------------------------------------------------------------------------------------
# A player's page


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
        .select_related("team", "game", "game__table", "game__day")
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
    qs = RatingPoint.objects.filter(person=person)
    if period.start:
        qs = qs.filter(played_on__gte=period.start)
    if period.end:
        qs = qs.filter(played_on__lte=period.end)
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
        theirs.values("person_id", *[f"person__{f}" for f in _PERSON_FIELDS])
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
        row = _person_row(values, pid, "person__")
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


def personal_bests(person: Person) -> dict:
    """Best game, best hand, most canastas in a game, most red threes in a hand, the
    longest winning streak and the best rating, each with the game it happened in.
    A fixed handful of queries."""
    mine = finished_players().filter(person=person)
    best_game = (
        mine.select_related("game", "game__table")
        .order_by("-team__total", "game__day_date")
        .first()
    )
    canastas = (
        mine.annotate(c=F("team__natural_canastas") + F("team__mixed_canastas"))
        .select_related("game", "game__table")
        .order_by("-c", "game__day_date")
        .first()
    )
    hands = TeamHand.objects.filter(
        game__status=FINISHED, team__memberships__person=person
    ).select_related("game", "game__table", "hand")
    best_hand = hands.order_by("-hand_score", "game__day_date").first()
    most_red = hands.order_by("-red_threes", "game__day_date").first()
    best_rating = (
        RatingPoint.objects.filter(person=person)
        .select_related("game")
        .order_by("-ordinal", "played_on")
        .first()
    )
    streaks = winning_streaks(person_id=person.pk, limit=1)
    return {
        "best_game": best_game and {"value": best_game.team.total, "game": best_game.game},
        "most_canastas": canastas and canastas.c and {"value": canastas.c, "game": canastas.game},
        "best_hand": best_hand
        and {"value": best_hand.hand_score, "game": best_hand.game, "hand": best_hand.hand.number},
        "most_red_threes": most_red
        and most_red.red_threes
        and {"value": most_red.red_threes, "game": most_red.game, "hand": most_red.hand.number},
        "best_rating": best_rating
        and {"value": round(best_rating.ordinal, 1), "game": best_rating.game},
        "streak": streaks[0] if streaks else None,
    }


# ---------------------------------------------------------------------------------------
# Club records


RECORD_LIMIT = 10


def _with_players(qs):
    return qs.prefetch_related(_team_prefetch())


def highest_hands(limit: int = RECORD_LIMIT) -> list[TeamHand]:
    qs = (
        TeamHand.objects.filter(game__status=FINISHED)
        .select_related("hand", "game", "game__table", "team")
        .prefetch_related(Prefetch("team__memberships", queryset=_team_prefetch().queryset))
        .order_by("-hand_score", "game__day_date", "pk")
    )
    return list(qs[:limit])


def highest_games(limit: int = RECORD_LIMIT) -> list[GameTeam]:
    qs = _with_players(
        GameTeam.objects.filter(game__status=FINISHED)
        .select_related("game", "game__table")
        .order_by("-total", "game__day_date", "pk")
    )
    return list(qs[:limit])


def most_canastas(limit: int = RECORD_LIMIT) -> list[GameTeam]:
    qs = _with_players(
        GameTeam.objects.filter(game__status=FINISHED)
        .annotate(canastas=F("natural_canastas") + F("mixed_canastas"))
        .filter(canastas__gt=0)
        .select_related("game", "game__table")
        .order_by("-canastas", "-natural_canastas", "game__day_date", "pk")
    )
    return list(qs[:limit])


def four_red_threes() -> QuerySet[TeamHand]:
    """Every hand where a team held four (or more) red threes, newest first."""
    return (
        TeamHand.objects.filter(game__status=FINISHED, red_threes__gte=4)
        .select_related("hand", "game", "game__table", "team")
        .prefetch_related(Prefetch("team__memberships", queryset=_team_prefetch().queryset))
        .order_by("-game__day_date", "-pk")
    )


def winning_streaks(
    *, person_id: int | None = None, limit: int = RECORD_LIMIT, include_guests: bool = True
) -> list[dict]:
    """The longest runs of consecutive wins, per person (each person's best run),
    longest first. One query ordered by person and date, then one pass in Python."""
    qs = finished_players(include_guests=include_guests)
    if person_id is not None:
        qs = qs.filter(person_id=person_id)
    rows = qs.order_by(
        "person_id", "game__day_date", F("game__finished_at").asc(nulls_last=True), "game_id"
    ).values_list("person_id", "team__won", "game__day_date")
    best: dict[int, tuple[int, datetime.date, datetime.date]] = {}
    current_person = None
    run = 0
    run_start = None
    for pid, won, day in rows.iterator(chunk_size=5000):
        if pid != current_person:
            current_person, run, run_start = pid, 0, None
        if won:
            run += 1
            if run == 1:
                run_start = day
            if run > best.get(pid, (0,))[0]:
                best[pid] = (run, run_start, day)
        else:
            run = 0
    if not best:
        return []
    ordered = sorted(best.items(), key=lambda item: (-item[1][0], item[1][2]))[:limit]
    people = Person.objects.only("pk", "first_name", "last_name", "kind").in_bulk(
        [pid for pid, _ in ordered]
    )
    out = []
    for pid, (length, first, last) in ordered:
        out.append(
            {
                "person": people.get(pid),
                "person_id": pid,
                "length": length,
                "start": first,
                "end": last,
            }
        )
    _positions(out, "length")
    return out


def most_games_in_a_season(limit: int = RECORD_LIMIT) -> list[dict]:
    """The most finished games one person played in one season. One query: the
    seasons joined to the games by date range (overlapping seasons each count)."""
    q = connection.ops.quote_name
    tp, g, s = TeamPlayer._meta, Game._meta, Season._meta
    sql = (
        f"SELECT s.{q('id')}, tp.{q('person_id')}, COUNT(*) AS n "
        f"FROM {q(tp.db_table)} tp "
        f"JOIN {q(g.db_table)} g ON g.{q('id')} = tp.{q('game_id')} "
        f"JOIN {q(s.db_table)} s ON g.{q('day_date')} BETWEEN s.{q('start')} AND s.{q('end')} "
        f"WHERE g.{q('status')} = %s "
        f"GROUP BY s.{q('id')}, tp.{q('person_id')} "
        f"ORDER BY n DESC, s.{q('id')}, tp.{q('person_id')} "
        f"LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [FINISHED, limit])
        found = cursor.fetchall()
    if not found:
        return []
    seasons = Season.objects.in_bulk({sid for sid, _, _ in found})
    people = Person.objects.in_bulk({pid for _, pid, _ in found})
    rows = [
        {"season": seasons.get(sid), "person": people.get(pid), "person_id": pid, "games": n}
        for sid, pid, n in found
    ]
    _positions(rows, "games")
    return rows
