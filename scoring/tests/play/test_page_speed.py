"""What the table page and the live preview read: the teams with their players once,
each hand's dealer and confirmation people joined to the hands, the preview's totals
before the hand from the teams it read; and that nothing shown changes for it (dealers,
each hand's state, who confirmed, disputed or settled it)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.devtools.bench.queries import data_queries
from scoring.play.services.confirmations import confirm_hand, dispute_hand, settle_hand
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules

from .conftest import BIG, SMALL, quick_post


def _reads(captured, table: str) -> int:
    return sum(f'FROM "{table}"' in q for q in data_queries(captured.captured_queries))


@pytest.fixture
def confirmed_game(day, club_rules, game, players, officer_user):
    """Four hands waiting for the other team's OK: one confirmed by Bob, one disputed by
    Dan, one settled by the officer, the last still waiting."""
    ann, bob, cat, dan = players
    set_day_rules(day, club_rules, confirm_hands=True)
    hands = [record_hand(game, [SMALL, SMALL], number=n) for n in range(1, 5)]
    confirm_hand(hands[0], bob, expected_version=1)
    dispute_hand(hands[1], dan, expected_version=1, reason="Four red threes")
    settle_hand(hands[2], officer=officer_user, expected_version=1)
    return game


def test_the_table_page_reads_the_players_once_and_each_table_once(officer_client, game):
    record_hand(game, [BIG, SMALL], number=1)
    url = reverse("scoring:table", args=[game.table_id])
    officer_client.get(url)
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.get(url).content.decode()
    assert "Hand 2" in page and "Ann dealt" in page
    for table in ("scoring_teamplayer", "scoring_hand", "scoring_teamhand", "scoring_game"):
        assert _reads(captured, table) == 1, table
    # The teams are joined to their players; the dealers are among the players.
    assert _reads(captured, "scoring_gameteam") == 0
    assert _reads(captured, "members_person") == 0
    # The shared cache is read once: the club the address is for (kept there since
    # issue 32, members.clubs.addresses), no page body.
    assert _reads(captured, "club_cache") == 1
    assert _reads(captured, "members_club") == 0
    # 10, and the club the address is for (members.clubs.middleware) since clubs; one
    # less with the teams joined to their players (issue 32).
    assert len(data_queries(captured.captured_queries)) <= 10


def test_hands_states_and_names_are_read_with_the_hands(officer_client, confirmed_game, players):
    url = reverse("scoring:table", args=[confirmed_game.table_id])
    officer_client.get(url)  # the login's first page: the menu asks once if it is a member's
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.get(url).content.decode()
    for words in (
        "Ann dealt",
        "Bob dealt",
        "OK by Bob",
        "Disputed by Dan",
        "Settled by Olive Officer",
        "Waiting for OK",
        "Disputed by Dan Dunn: “Four red threes”",
        "Bob Baker: it is right",
    ):
        assert words in page, words
    assert _reads(captured, "members_person") == 0  # joined to the players and hands
    officers = [q for q in data_queries(captured.captured_queries) if '"auth_user"."id" IN' in q]
    assert officers == []  # the officer who settled: joined to the hands


def test_the_game_page_still_names_who_entered_each_hand(officer_client, confirmed_game):
    page = officer_client.get(reverse("scoring:game", args=[confirmed_game.pk])).content
    assert b"entered by" in page and b"Settled by Olive Officer" in page


def test_the_preview_reads_the_teams_once(officer_client, game):
    record_hand(game, [BIG, SMALL], number=1)
    url = reverse("scoring:hand_preview", args=[game.pk])
    data = quick_post([SMALL, BIG], 2, action="preview")
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    assert "Total 1,400 → 1,480" in page and "Total 80 → 1,480" in page
    assert _reads(captured, "scoring_teamplayer") == 1
    assert _reads(captured, "scoring_gameteam") == 0  # joined to their players


def test_the_table_page_reads_a_games_team_hands_by_their_hands(officer_client, game):
    """The team rows of the game's hands are found through the club's index of team
    hands by hand, not by reading every team hand of the club (SQLite, without
    statistics, chose the club's high-hands index: 95 ms of CPU for a table page on a
    32,000-hand league instead of 17)."""
    record_hand(game, [BIG, SMALL], number=1)
    url = reverse("scoring:table", args=[game.table_id])
    with CaptureQueriesContext(connection) as captured:
        officer_client.get(url)
    [query] = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith('SELECT "scoring_teamhand"') and '"hand_id" IN' in q["sql"]
    ]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("EXPLAIN QUERY PLAN " + query)
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "USING INDEX teamhand_club_hand_idx" in plan, plan
        else:  # PostgreSQL plans from its statistics; the index is there to choose
            indexes = connection.introspection.get_constraints(cursor, "scoring_teamhand")
            assert indexes["teamhand_club_hand_idx"]["columns"] == ["club_id", "hand_id"]
