"""The club records: highest hands and games, most canastas, four red threes, the
longest winning streaks and the most games in a season, tie-aware where they rank.
"""

from __future__ import annotations

import datetime

from django.db.models import F, Prefetch, QuerySet

from members.models import Person
from scoring.models import GameTeam, SeasonTotal, TeamHand
from scoring.results.standings.days import team_prefetch
from scoring.results.standings.periods import FINISHED, finished_players
from scoring.results.standings.ranking import set_positions

RECORD_LIMIT = 10


def _with_players(qs):
    return qs.prefetch_related(team_prefetch())


def highest_hands(limit: int = RECORD_LIMIT) -> list[TeamHand]:
    qs = (
        TeamHand.objects.filter(game__status=FINISHED)
        .select_related("hand", "game", "game__table", "team")
        .prefetch_related(Prefetch("team__memberships", queryset=team_prefetch().queryset))
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
        .prefetch_related(Prefetch("team__memberships", queryset=team_prefetch().queryset))
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
    set_positions(out, "length")
    return out


def most_games_in_a_season(limit: int = RECORD_LIMIT) -> list[dict]:
    """The most finished games one person played in one season (overlapping seasons
    each count), from the stored season totals kept by the play services: one query."""
    found = (
        SeasonTotal.objects.filter(games__gt=0)
        .select_related("season", "person")
        .order_by("-games", "season_id", "person_id")[:limit]
    )
    rows = [
        {"season": t.season, "person": t.person, "person_id": t.person_id, "games": t.games}
        for t in found
    ]
    set_positions(rows, "games")
    return rows
