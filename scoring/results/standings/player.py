"""A player's page: their games, the two charts' series, their opponents and
partners, and their personal bests.

Every function reads finished games only and costs a fixed handful of queries however
long the person's history.
"""

from __future__ import annotations

import datetime

from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from members.models import Person
from scoring.models import RatingPoint, TeamHand, TeamPlayer
from scoring.results.standings.individual import PERSON_FIELDS, partnerships, person_row
from scoring.results.standings.periods import ALL_GAMES, FINISHED, Period, finished_players
from scoring.results.standings.records import winning_streaks


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
