"""A player's page: their games, the two charts' series, their opponents and
partners, and their personal bests.

Every function reads finished games only and costs a fixed handful of queries however
long the person's history; the totals and the bests are read from the stored
all-games row (:class:`~scoring.models.PersonTotal`, kept by the play services).
"""

from __future__ import annotations

import datetime

from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from members.models import Person
from scoring.models import PersonTotal, RatingPoint, SeasonTotal, TeamPlayer
from scoring.models.totals import STAT_FIELDS
from scoring.results import ratings as rating_scale
from scoring.results.standings.individual import PERSON_FIELDS, partnerships, person_row
from scoring.results.standings.individual import _finish_row as finish_row
from scoring.results.standings.periods import ALL_GAMES, Period, date_range, finished_players

NEWEST = ("-game__day_date", "-game__finished_at", "-game_id")


def finished_games_of(person: Person) -> QuerySet[TeamPlayer]:
    """A person's finished games, newest first: what the page's games table sorts and
    pages."""
    return finished_players().filter(person=person).order_by(*NEWEST)


def with_rating_after(seats: QuerySet[TeamPlayer]) -> QuerySet[TeamPlayer]:
    """``seats`` with ``rating_after``, the person's rating after each game."""
    return seats.annotate(
        rating_after=Subquery(
            RatingPoint.objects.filter(person_id=OuterRef("person_id"), game_id=OuterRef("game_id"))
            .order_by()
            .values("ordinal")[:1]
        )
    )


def games_of_person(person: Person) -> QuerySet[TeamPlayer]:
    """A person's finished games, newest first, with the rating after each."""
    return with_rating_after(finished_games_of(person))


def player_games(person: Person) -> QuerySet[TeamPlayer]:
    """:func:`games_of_person` with what a history table shows (the other players
    prefetched: a constant number of queries for any page of it, or for the CSV)."""
    others = Prefetch(
        "game__players",
        queryset=TeamPlayer.objects.select_related("person").order_by("team__index", "seat"),
    )
    return (
        games_of_person(person)
        .select_related("team", "game", "game__table")
        .prefetch_related(others)
    )


def score_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, int]]:
    """(date, game score) of each finished game, oldest first: the game-scores chart."""
    seats = finished_players(period.start, period.end).filter(person=person)
    return list(
        seats.order_by("game__day_date", "game__finished_at", "game_id").values_list(
            "game__day_date", "team__total"
        )
    )


def rating_series(person: Person, period: Period = ALL_GAMES) -> list[tuple[datetime.date, float]]:
    """(date, rating) after each rated game, oldest first: the rating chart."""
    points = RatingPoint.objects.filter(person=person).filter(
        date_range("played_on", period.start, period.end)
    )
    return list(points.order_by("played_on", "pk").values_list("played_on", "ordinal"))


def opponents(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who played against ``person``: games against them, ``person``'s record
    (wins, losses) and points for and against in those games. One aggregate query: the
    person's seats joined to the other sides' seats of the same games."""
    other = "game__players"
    # One filter() call, so both conditions (and the values below) use the same join.
    seats = finished_players(period.start, period.end).filter(
        Q(person=person),
        Q(**{f"{other}__team_id__lt": F("team_id")}) | Q(**{f"{other}__team_id__gt": F("team_id")}),
    )
    aggregated = (
        seats.values(
            other_id=F(f"{other}__person_id"),
            **{f"other_{f}": F(f"{other}__person__{f}") for f in PERSON_FIELDS},
        )
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(team__won=True)),
            points_for=Sum("team__total"),
            points_against=Sum(f"{other}__team__total"),
        )
        .order_by()
    )
    rows = []
    for values in aggregated:
        pid = values.pop("other_id")
        row = person_row(values, pid, "other_")
        row.update(values)
        row["losses"] = row["games"] - row["wins"]
        row["win_pct"] = round(100 * row["wins"] / row["games"], 1) if row["games"] else 0.0
        row["differential"] = (row["points_for"] or 0) - (row["points_against"] or 0)
        rows.append(row)
    rows.sort(key=lambda r: (-r["games"], r["sort_name"]))
    return rows


def partners(person: Person, period: Period = ALL_GAMES) -> list[dict]:
    """Everyone who partnered ``person``, with their record together (the rows of
    :func:`~scoring.results.standings.individual.partnerships` of ``person``): one
    aggregate query, the person's seats joined to their partners' seats."""
    rows = partnerships(period.start, period.end, person_id=person.pk, with_ratings=False)
    for row in rows:
        row["partner"] = row["b"]
    rows.sort(key=lambda r: (-r["games"], r["partner"]["sort_name"]))
    return rows


def stored_record(person: Person, season=None) -> PersonTotal | None:
    """``person``'s stored all-games row (:class:`~scoring.models.PersonTotal`: totals,
    bests, streak) with the game of each best, and as ``season_stats`` their stored
    totals of ``season`` (:class:`~scoring.models.SeasonTotal`, :data:`STAT_FIELDS`;
    None: no finished game in the season, or no season): two small reads, whatever the
    length of their history."""
    record = PersonTotal.objects.filter(person=person).select_related(*BEST_GAMES).first()
    if record is None:
        return None
    record.season_stats = None
    if season is not None:
        record.season_stats = (
            SeasonTotal.objects.filter(person=person, season=season, games__gt=0)
            .values(*STAT_FIELDS)
            .first()
        )
    return record


BEST_GAMES = ("best_game_in", "best_hand_in", "most_canastas_in", "most_red_threes_in")


def rating_on(ratings: list[tuple[datetime.date, float]], day: datetime.date | None):
    """The rating (rounded as every page shows it) after the last rated game up to
    ``day`` (None: the latest), from :func:`rating_series`."""
    found = None
    for played_on, ordinal in ratings:
        if day is not None and played_on > day:
            break
        found = ordinal
    return rating_scale.as_shown(found)


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
            "value": rating_scale.as_shown(best_rating[1]),
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
