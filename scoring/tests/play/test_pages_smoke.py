"""Every page renders for each persona (no 500s, the right status)."""

import pytest
from django.urls import reverse

from scoring.play.services.hands import record_hand
from scoring.tests.samples import BIG, SMALL


@pytest.fixture
def played(game):
    record_hand(game, [BIG, SMALL], number=1)
    record_hand(game, [SMALL, BIG], number=2)
    return game


def page_urls(game):
    t = game.table
    return {
        "table": reverse("scoring:table", args=[t.pk]),
        "game": reverse("scoring:game", args=[game.pk]),
        "hand_edit": reverse("scoring:hand_edit", args=[game.pk, 1]),
        "hand_undo": reverse("scoring:hand_undo", args=[game.pk]),
        "game_start": reverse("scoring:game_start", args=[t.pk]),
        "next_game": reverse("scoring:next_game", args=[game.pk]),
        "hand_new": reverse("scoring:hand_new", args=[game.pk]),
    }


# With the game in progress: the pages, or a redirect to the table page (the game has
# started already, it is not over yet, hands are entered by POST).
EXPECTED = {
    "table": 200,
    "game": 200,
    "hand_edit": 200,
    "hand_undo": 200,
    "game_start": 302,
    "next_game": 302,
    "hand_new": 302,
}


def check(response, game, name):
    assert response.status_code == EXPECTED[name], (name, response.content[:300])
    if response.status_code == 302:
        assert response["Location"] == reverse("scoring:table", args=[game.table_id]), name


OFFICER_PAGES = ["rulesets", "ruleset_new"]


@pytest.mark.parametrize(
    "name", ["table", "game", "hand_edit", "hand_undo", "game_start", "next_game", "hand_new"]
)
def test_officer_sees_every_game_page(officer_client, played, name):
    check(officer_client.get(page_urls(played)[name]), played, name)


@pytest.mark.parametrize(
    "name", ["table", "game", "hand_edit", "hand_undo", "game_start", "next_game", "hand_new"]
)
def test_outsider_gets_404_everywhere(outsider_client, played, name):
    assert outsider_client.get(page_urls(played)[name]).status_code == 404


@pytest.mark.parametrize(
    "name", ["table", "game", "hand_edit", "hand_undo", "game_start", "next_game", "hand_new"]
)
def test_member_not_at_the_table_gets_404(member_client, played, name):
    assert member_client.get(page_urls(played)[name]).status_code == 404


@pytest.mark.parametrize(
    "name", ["table", "game", "hand_edit", "hand_undo", "game_start", "next_game", "hand_new"]
)
def test_seated_member_and_link_see_pages(seated_member_client, played, name):
    check(seated_member_client.get(page_urls(played)[name]), played, name)


def test_officer_pages(officer_client, played, club_rules):
    day = played.day
    for url in [
        reverse("scoring:rulesets"),
        reverse("scoring:ruleset_new"),
        reverse("scoring:ruleset_new") + f"?from={club_rules.pk}",
        reverse("scoring:ruleset_edit", args=[club_rules.pk]),
        reverse("scoring:day_rules", args=[day.pk]),
        reverse("scoring:table_cards", args=[day.pk]),
    ]:
        response = officer_client.get(url)
        assert response.status_code == 200, url


def test_home_has_the_room_code_box(client, db):
    response = client.get("/")
    assert b'name="room_code"' in response.content
