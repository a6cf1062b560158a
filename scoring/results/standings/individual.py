"""Individual and partnership standings: one aggregate query per table, then ranking.

A team's statistics (stored per game on ``GameTeam`` by the play services) are credited
to each of its players, so a period's standings are ONE aggregate query over
``TeamPlayer`` grouped by person (:func:`individual`) or by pair of partners
(:func:`partnerships`), never a query per person or a loop over hands. The rows are then
ranked (:mod:`.ranking`) by the club's measures, with people under the minimum number of
games listed apart (:func:`standings`).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import F, OuterRef, Q, QuerySet, Subquery

from members.models import Person
from scoring.models import ClubSettings, PartnershipTotal, RatingPoint, SeasonTotal, TeamPlayer
from scoring.models.totals import STAT_FIELDS, team_aggregates
from scoring.results import ratings as rating_scale
from scoring.results.standings.measures import TEAM_SUMS, clean_measures, measures_label
from scoring.results.standings.periods import ALL_GAMES, MEMBER, Period, finished_players
from scoring.results.standings.ranking import split_and_rank

GUEST = Person.Kind.GUEST

# ---------------------------------------------------------------------------------------
# Rows


def _finish_row(row: dict) -> dict:
    """Add the derived measures to an aggregated row (in place): losses, difference,
    win %, average, canastas."""
    for key in TEAM_SUMS:
        if not row.get(key):  # None (no games to add up) or 0
            row[key] = 0
    games, wins, points_for = row["games"], row["wins"], row["points_for"]
    row["losses"] = games - wins
    row["differential"] = points_for - row["points_against"]
    row["win_pct"] = round(100 * wins / games, 1) if games else 0.0
    row["average"] = round(points_for / games, 1) if games else 0.0
    row["canastas"] = row["natural_canastas"] + row["mixed_canastas"]
    return row


def _latest_rating(person: str, on_or_before: datetime.date | None = None) -> Subquery:
    """The rating (ordinal) after the last rated game, up to a date, of the person the
    outer query's ``person`` column names: a correlated subquery served by
    ``rating_latest_idx``."""
    points = RatingPoint.objects.filter(person=OuterRef(person))
    if on_or_before:
        points = points.filter(played_on__lte=on_or_before)
    return Subquery(points.order_by("-played_on", "-pk").values("ordinal")[:1])


def latest_ratings(
    person_ids: Iterable[int], on_or_before: datetime.date | None = None
) -> dict[int, float]:
    """Each person's rating (ordinal) after their last rated game up to a date: one
    query (a correlated subquery per person, served by ``rating_latest_idx``)."""
    ids = list(person_ids)
    if not ids:
        return {}
    rows = (
        Person.objects.filter(pk__in=ids)
        .annotate(rating=_latest_rating("pk", on_or_before))
        .values_list("pk", "rating")
        .order_by()
    )
    return {pk: rating for pk, rating in rows if rating is not None}


PERSON_FIELDS = ("first_name", "last_name", "kind")


def _person(pid: int, first: str, last: str, kind: str) -> dict:
    name = f"{first} {last}".strip()
    guest = kind == GUEST
    return {
        "person_id": pid,
        "name": name,
        "sort_name": f"{last} {first}".strip().lower(),
        "kind": kind,
        "is_guest": guest,
        "display_name": f"{name} (guest)" if guest else name,
    }


def person_row(values: dict, pid: int, prefix: str) -> dict:
    first = values.pop(f"{prefix}first_name")
    last = values.pop(f"{prefix}last_name")
    kind = values.pop(f"{prefix}kind")
    return _person(pid, first, last, kind)


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
    person_values = [f"person__{f}" for f in PERSON_FIELDS]
    aggregated = qs.values("person_id", *person_values).annotate(**team_aggregates()).order_by()
    return _person_rows(aggregated, end if with_ratings else False)


def _person_rows(aggregated, ratings_until) -> list[dict]:
    """Rows of :func:`individual` from aggregated values (``ratings_until``: the day of
    the ratings, None for the latest, False for none)."""
    rows = []
    for values in aggregated:
        pid = values.pop("person_id")
        row = person_row(values, pid, "person__")
        row.update(values)
        rows.append(_finish_row(row))
    if ratings_until is not False:
        ratings = latest_ratings([r["person_id"] for r in rows], ratings_until)
        for row in rows:
            row["rating"] = _round(ratings.get(row["person_id"]))
    return rows


def season_individual(season, *, include_guests: bool = True) -> list[dict]:
    """The rows of :func:`individual` for a season, read from the stored season totals
    (:class:`~scoring.models.SeasonTotal`, kept by the play services): ONE small query
    of a row per person, whatever the length of the club's history, each with its rating
    at the end of the season (a correlated subquery, as :func:`latest_ratings`)."""
    qs = SeasonTotal.objects.filter(season=season, games__gt=0)
    if not include_guests:
        qs = qs.filter(person__kind=MEMBER)
    person_values = [f"person__{f}" for f in PERSON_FIELDS]
    found = (
        qs.annotate(rating=_latest_rating("person_id", season.end))
        .values_list("person_id", *person_values, *STAT_FIELDS, "rating")
        .order_by()
    )
    rows = []
    for pid, first, last, kind, *stats, rating in found:
        row = _person(pid, first, last, kind)
        row.update(zip(STAT_FIELDS, stats, strict=True))
        row["rating"] = _round(rating)
        rows.append(_finish_row(row))
    return rows


def season_partnerships(season, *, include_guests: bool = True) -> list[dict]:
    """The rows of :func:`partnerships` for a season, read from the stored totals
    (:class:`~scoring.models.PartnershipTotal`): ONE small query, with both partners'
    ratings at the end of the season."""
    qs = PartnershipTotal.objects.filter(season=season, games__gt=0)
    if not include_guests:
        qs = qs.filter(person__kind=MEMBER, partner__kind=MEMBER)
    a_values = [f"person__{f}" for f in PERSON_FIELDS]
    b_values = [f"partner__{f}" for f in PERSON_FIELDS]
    found = (
        qs.annotate(
            a_rating=_latest_rating("person_id", season.end),
            b_rating=_latest_rating("partner_id", season.end),
        )
        .values_list(
            "person_id", *a_values, "partner_id", *b_values, *STAT_FIELDS, "a_rating", "b_rating"
        )
        .order_by()
    )
    rows = []
    for a_id, a1, a2, a3, b_id, b1, b2, b3, *stats, a_rating, b_rating in found:
        row = _pair(_person(a_id, a1, a2, a3), _person(b_id, b1, b2, b3))
        row.update(zip(STAT_FIELDS, stats, strict=True))
        known = [r for r in (a_rating, b_rating) if r is not None]
        _finish_row(row)["rating"] = _round(sum(known) / len(known)) if known else None
        rows.append(row)
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
        **{f"a_{f}": F(f"person__{f}") for f in PERSON_FIELDS},
        "b_id": F(f"{partner}_id"),
        **{f"b_{f}": F(f"{partner}__{f}") for f in PERSON_FIELDS},
    }
    aggregated = qs.values("person_id", **values).annotate(**team_aggregates()).order_by()
    return _pair_rows(aggregated, end if with_ratings else False)


def _pair(a: dict, b: dict) -> dict:
    return {
        "pair": (a["person_id"], b["person_id"]),
        "a": a,
        "b": b,
        "name": f"{a['name']} & {b['name']}",
        "display_name": f"{a['display_name']} & {b['display_name']}",
        "sort_name": f"{a['sort_name']} & {b['sort_name']}",
        "is_guest": a["is_guest"] or b["is_guest"],
    }


def _pair_rows(aggregated, ratings_until) -> list[dict]:
    """Rows of :func:`partnerships` from aggregated values (``ratings_until`` as in
    :func:`_person_rows`)."""
    rows = []
    for item in aggregated:
        a_id = item.pop("person_id")
        b_id = item.pop("b_id")
        row = _pair(person_row(item, a_id, "a_"), person_row(item, b_id, "b_"))
        row.update(item)
        rows.append(_finish_row(row))
    if ratings_until is not False:
        ids = {pid for r in rows for pid in r["pair"]}
        ratings = latest_ratings(ids, ratings_until)
        for row in rows:
            both = [ratings.get(pid) for pid in row["pair"]]
            known = [r for r in both if r is not None]
            row["rating"] = _round(sum(known) / len(known)) if known else None
    return rows


def _round(value):
    return rating_scale.as_shown(value)


# ---------------------------------------------------------------------------------------
# Ranked standings


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
    if period.season is not None:
        # A season's standings read the stored totals (the same numbers as the seats
        # of the season's finished games, which ``players`` holds, added up).
        stored = season_individual if aggregate is individual else season_partnerships
        rows = stored(period.season, include_guests=include_guests)
    else:
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
