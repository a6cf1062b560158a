"""A ladder's standings: each person's points on the ladder's days (finished games,
event games like any other), who has qualified (at least the ladder's minimum of days
played), ranked by total or by average per day, tie-aware; and the fund, exact
(``Decimal``): the amount per player per day times the players of each day. Two
queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Sum

from members.models import Person
from scoring.models import Game, TeamPlayer
from scoring.tourney.models import Ladder

TENTH = Decimal("0.1")


@dataclass
class LadderRow:
    rank: int
    tied: bool
    name: str
    days: int
    total: int
    average: Decimal


def _scores(ladder: Ladder) -> dict[int, dict[int, int]]:
    """{person id: {day id: points}} over the ladder's days (one query)."""
    found = (
        TeamPlayer.objects.filter(game__day__ladders=ladder, game__status=Game.Status.FINISHED)
        .values("person_id", "game__day_id")
        .annotate(points=Sum("team__total"))
        .order_by()
    )
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    for row in found:
        scores[row["person_id"]][row["game__day_id"]] = row["points"]
    return scores


def _ranked(rows: list[LadderRow], by_average: bool) -> list[LadderRow]:
    def value(row):
        return row.average if by_average else row.total

    rows.sort(key=lambda r: (-value(r), r.name))
    counts = defaultdict(int)
    for row in rows:
        counts[value(row)] += 1
    place, previous = 0, None
    for i, row in enumerate(rows, 1):
        if value(row) != previous:
            place, previous = i, value(row)
        row.rank, row.tied = place, counts[value(row)] > 1
    return rows


def ladder_standings(ladder: Ladder) -> dict:
    scores = _scores(ladder)
    names = {p.pk: p.full_name for p in Person.objects.filter(pk__in=scores)}
    qualified, waiting = [], []
    for person, days in scores.items():
        total = sum(days.values())
        average = (Decimal(total) / len(days)).quantize(TENTH, rounding=ROUND_HALF_UP)
        row = LadderRow(0, False, names.get(person, "?"), len(days), total, average)
        (qualified if len(days) >= ladder.min_days else waiting).append(row)
    plays = sum(len(days) for days in scores.values())
    return {
        "rows": _ranked(qualified, ladder.ranked_by == Ladder.RankedBy.AVERAGE),
        "waiting": sorted(waiting, key=lambda r: (-r.days, r.name)),
        "plays": plays,
        "fund": ladder.per_player * plays,
    }
