"""A hand save's query budget (issue #14): the view reads what it locks once, writes
the hand, its history, its team rows, the teams' totals and the game. Transaction
statements (SAVEPOINT / RELEASE in tests; BEGIN / COMMIT in production) are not
queries the server waits on for data and are not counted."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.devtools.bench.pages import data_queries
from scoring.models import Hand

from .conftest import SMALL, quick_post

SAVE_BUDGET = 10


@pytest.mark.parametrize("who", ["officer_client", "seated_member_client", "link_client"])
def test_saving_a_hand_takes_at_most_ten_queries(request, who, game):
    client = request.getfixturevalue(who)
    url = reverse("scoring:hand_new", args=[game.pk])
    assert client.post(url, quick_post([SMALL, SMALL], 1)).status_code == 302
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, quick_post([SMALL, SMALL], 2))
    assert response.status_code == 302
    assert Hand.objects.filter(game=game).count() == 2
    queries = data_queries(captured.captured_queries)
    assert len(queries) <= SAVE_BUDGET, "\n".join(queries)


def test_the_saved_message_shows_the_hand_without_reading_it_again(officer_client, game):
    url = reverse("scoring:hand_new", args=[game.pk])
    response = officer_client.post(url, quick_post([SMALL, SMALL], 1), follow=True)
    text = response.content.decode()
    assert "Hand 1 saved." in text and "+80 → 80" in text
