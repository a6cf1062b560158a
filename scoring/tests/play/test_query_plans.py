"""SQLite plans every club-scoped read of the hot pages with the right index on a club
with years of history, once the site has kept its planner informed (``PRAGMA
optimize``, run by ``clubsite.sqlite`` when a connection closes). Without statistics the
planner took the club's ``club_id`` index for every read and read the club's whole
history: the room board's fingerprint took 69 ms on a league twenty times the
benchmark's, 0.012 ms after ANALYZE."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubsite.sqlite.base import optimize
from scoring.devtools.bench.queries import data_queries
from scoring.devtools.league.generate import generate_league
from scoring.devtools.league.options import LeagueOptions
from scoring.models import Hand, Submission
from scoring.play.services.hands import record_hand

from .conftest import BIG, SMALL

#: Two years of a small club's nights.
HISTORY = LeagueOptions(
    people=24,
    years=2,
    days_per_year=12,
    tables_min=2,
    tables_max=3,
    seed=5,
    start=datetime.date(2023, 1, 1),
)
#: A plan step that finds rows through the club's own index (Django's index of the
#: ``club`` foreign key) and nothing else: every row the club has.
BY_CLUB_ALONE = re.compile(r"USING (?:COVERING )?INDEX \w+_club_id_[0-9a-f]{8} \(club_id=\?\)$")
#: A plan step that reads a whole table.
WHOLE_TABLE = re.compile(r"^SCAN (\w+)$")
#: Tables of a handful of rows a club has (its seasons, rule sets) may be read whole.
SMALL_TABLES = {"members_club", "scoring_season", "scoring_ruleset"}
#: And found by the club alone.
SMALL_BY_CLUB = ("scoring_season_club_id_",)


def _plan(sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql)
        return [str(row[-1]) for row in cursor.fetchall()]


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="PostgreSQL plans from autovacuum's statistics"
)
def test_the_hot_pages_read_a_clubs_history_through_the_right_indexes(
    officer_client, game, players, day, settings
):
    generate_league(HISTORY)
    # Each saved hand's submission (the league writes the hands without them).
    Submission.objects.bulk_create(
        Submission(
            game_id=hand.game_id,
            key=f"k{hand.pk}",
            kind=Submission.Kind.HAND,
            number=hand.number,
            hand=hand,
            created_at=timezone.now(),
        )
        for hand in Hand.objects.all()
    )
    record_hand(game, [BIG, SMALL], number=1)
    player = players[0]
    pages = [
        reverse("scoring:table", args=[game.table_id]),
        reverse("scoring:board_live", args=[day.pk]),
        reverse("scoring:standings"),
        reverse("scoring:player", args=[player.pk]),
    ]
    for page in pages:  # the connection reads each table, as a worker's would
        assert officer_client.get(page).status_code == 200, page
    optimize(connection.connection)  # what the connection runs when it closes

    bad = []
    for page in pages:
        cache.clear()  # drawn anew: every read of the page
        with CaptureQueriesContext(connection) as captured:
            assert officer_client.get(page).status_code == 200
        for sql in data_queries(captured.captured_queries):
            # Django's cache table (the shared cache in the database) is read by its
            # primary key; on a near-empty test table SQLite may scan it instead.
            if sql.startswith(("INSERT", "UPDATE", "DELETE", "PRAGMA")) or "club_cache" in sql:
                continue
            for step in _plan(sql):
                whole = WHOLE_TABLE.search(step)
                by_club = BY_CLUB_ALONE.search(step) and SMALL_BY_CLUB[0] not in step
                if by_club or (whole and whole[1] not in SMALL_TABLES):
                    bad.append(f"{page}: {step}\n    {sql[:300]}")
    assert not bad, "\n".join(bad)
