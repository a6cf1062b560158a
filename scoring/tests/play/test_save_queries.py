"""A hand save's query budget (issue #14): Django reads the session and its user, the
viewer's access is one query (the officer flag with the seat), the view reads what it
locks once, writes the hand, its history, its team rows, the teams' totals (a save per
team) and the game. Transaction
statements (SAVEPOINT / RELEASE in tests; BEGIN / COMMIT in production) are not
queries the server waits on for data and are not counted."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.devtools.bench.queries import data_queries
from scoring.models import Hand

from .conftest import SMALL, quick_post

#: 12, and one more since clubs: the club the address is for (members.clubs.middleware).
SAVE_BUDGET = 13


@pytest.mark.parametrize("keyed", [True, False], ids=["form key", "no key"])
@pytest.mark.parametrize("who", ["officer_client", "seated_member_client", "link_client"])
def test_saving_a_hand_takes_at_most_thirteen_queries(request, who, keyed, game):
    """As the table page sends it (with its form key, kept so a repeat counts once) and
    as a script without one."""
    client = request.getfixturevalue(who)
    url = reverse("scoring:hand_new", args=[game.pk])
    key = {"key": "k" * 22} if keyed else {}
    assert client.post(url, {**quick_post([SMALL, SMALL], 1), **key}).status_code == 302
    key = {"key": "j" * 22} if keyed else {}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, {**quick_post([SMALL, SMALL], 2), **key})
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 2
    queries = data_queries(captured.captured_queries)
    assert len(queries) <= SAVE_BUDGET, "\n".join(queries)


def test_the_saved_message_shows_the_hand_without_reading_it_again(officer_client, game):
    url = reverse("scoring:hand_new", args=[game.pk])
    response = officer_client.post(url, quick_post([SMALL, SMALL], 1), follow=True)
    text = response.content.decode()
    assert "Hand 1 saved." in text and "+80 → 80" in text


def test_a_hand_waiting_for_the_other_teams_ok_reads_no_player_again(
    seated_member_client, game, club_rules
):
    """With the other team's OK on, the save finds the side that entered the hand among
    the players it locked: the only read of the players is the locking one."""
    from scoring.models import HandConfirmation
    from scoring.play.services.rulesets import set_day_rules

    set_day_rules(game.day, club_rules, confirm_hands=True)
    url = reverse("scoring:hand_new", args=[game.pk])
    with CaptureQueriesContext(connection) as captured:
        response = seated_member_client.post(url, quick_post([SMALL, SMALL], 1))
    assert response.status_code == 302
    assert HandConfirmation.objects.get(hand__game=game).keeper_team_id is not None
    reads = [q for q in data_queries(captured.captured_queries) if q.startswith("SELECT")]
    assert sum('FROM "scoring_teamplayer"' in q for q in reads) == 1, "\n".join(reads)
