"""With the other team's OK on: starting a game asks who keeps the score (else nobody
could confirm), and an officer settles all of a table's open hands in one tap, each
still recorded with who and when; a double tap counts once."""

import pytest
from django.urls import reverse

from scoring.models import Game, HandConfirmation
from scoring.play.services.confirmations import dispute_hand
from scoring.play.services.hands import correct_hand, record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.samples import BIG, SMALL

Status = HandConfirmation.Status


@pytest.fixture
def confirming(day, club_rules):
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.fixture
def open_hands(confirming, game, players):
    """Hands 1 and 2 wait for team 2's OK; hand 3 is disputed by Dan."""
    hands = [record_hand(game, [BIG, SMALL], number=n) for n in (1, 2, 3)]
    dispute_hand(hands[2], players[3], reason="Four red threes", expected_version=1)
    return hands


def settle_all(client, game, hands):
    data = {f"version-{h.number}": str(h.version) for h in hands}
    return client.post(reverse("scoring:game_settle_all", args=[game.pk]), data)


def states(game):
    return list(
        HandConfirmation.objects.filter(game=game)
        .order_by("hand__number")
        .values_list("status", flat=True)
    )


def test_an_officer_settles_all_of_a_tables_hands_in_one_tap(
    officer_client, officer_user, game, open_hands
):
    table_url = reverse("scoring:table", args=[game.table_id])
    page = officer_client.get(table_url).content.decode()
    assert "Settle all 3 hands as they stand" in page
    response = settle_all(officer_client, game, open_hands)
    assert response.status_code == 302 and response["Location"] == table_url
    assert states(game) == [Status.SETTLED] * 3
    for confirmation in HandConfirmation.objects.filter(game=game):
        assert confirmation.officer == officer_user and confirmation.updated_at is not None
        assert confirmation.history.first().history_user == officer_user
    # The disputed hand keeps who disputed it and why.
    disputed = HandConfirmation.objects.get(game=game, hand__number=3)
    assert disputed.reason == "Four red threes" and disputed.person.first_name == "Dan"
    page = officer_client.get(table_url).content.decode()
    assert "Hands 1, 2, 3 were settled as they stand; they are final." in page
    assert "Settle all" not in page

    # A double tap: nothing more recorded, nothing more said.
    records = HandConfirmation.history.count()
    settle_all(officer_client, game, open_hands)
    assert HandConfirmation.history.count() == records
    assert "settled as they stand" not in officer_client.get(table_url).content.decode()


def test_a_hand_corrected_since_the_page_settles_none_of_them(officer_client, game, open_hands):
    drawn = [(h.number, h.version) for h in open_hands]
    correct_hand(open_hands[1], [SMALL, BIG], expected_version=1)
    data = {f"version-{n}": str(v) for n, v in drawn}
    response = officer_client.post(reverse("scoring:game_settle_all", args=[game.pk]), data)
    assert response.status_code == 302
    assert states(game) == [Status.WAITING, Status.WAITING, Status.DISPUTED]
    page = officer_client.get(response["Location"]).content.decode()
    assert "Hand 2 was corrected after this page was drawn. Nothing was recorded" in page


def test_the_tables_link_cannot_settle_all(link_client, game, open_hands):
    assert settle_all(link_client, game, open_hands).status_code == 403
    assert states(game) == [Status.WAITING, Status.WAITING, Status.DISPUTED]


def test_starting_a_game_asks_the_keeper_when_the_ok_is_on(link_client, table, players, confirming):
    ann, bob, cat, dan = players
    url = reverse("scoring:game_start", args=[table.pk])
    form = link_client.get(url).content.decode()
    assert "Nobody in particular" not in form
    assert "choose who keeps the score" in form
    teams = {
        "team0_player0": ann.pk,
        "team0_player1": cat.pk,
        "team1_player0": bob.pk,
        "team1_player1": dan.pk,
    }
    response = link_client.post(url, teams)
    assert response.status_code == 200
    assert not Game.objects.exists()
    assert "Choose who keeps the score: today the other team confirms what they enter." in (
        response.content.decode()
    )
    response = link_client.post(url, {**teams, "score_keeper": bob.pk})
    assert response.status_code == 302
    assert Game.objects.get().score_keeper == bob


def test_without_the_ok_the_keeper_may_stay_unnamed(link_client, table, players, club_rules):
    ann, bob, cat, dan = players
    url = reverse("scoring:game_start", args=[table.pk])
    assert "Nobody in particular" in link_client.get(url).content.decode()
    teams = {
        "team0_player0": ann.pk,
        "team0_player1": cat.pk,
        "team1_player0": bob.pk,
        "team1_player1": dan.pk,
    }
    assert link_client.post(url, teams).status_code == 302
