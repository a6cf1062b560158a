"""The officer's "game details and history" of a hand that is gone: every path that
deletes or replaces a hand with a confirmation history (the other team's OK on), through
the play services. The page once answered 500 for good after "correct, then undo"."""

import pytest
from django.urls import reverse

from members.permissions import make_officer
from scoring.models import Hand, HandConfirmation
from scoring.play.history import hand_history
from scoring.play.services.confirmations import confirm_hand, dispute_hand, settle_hand
from scoring.play.services.hands import (
    correct_hand,
    count_failed_meld,
    record_hand,
    replace_hand,
    undo_last_hand,
)
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.samples import BIG, SMALL


@pytest.fixture
def confirming(day, club_rules):
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.fixture
def officer(django_user_model):
    user = django_user_model.objects.create_user("olive", first_name="Olive", last_name="Officer")
    make_officer(user)
    return user


def story(game) -> list[tuple[int | None, str]]:
    """(hand number, what happened), oldest first."""
    return [(e.number, e.action) for e in reversed(hand_history(game, ["Team 1", "Team 2"]))]


def page(officer_client, game) -> str:
    response = officer_client.get(reverse("scoring:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_corrected_then_undone(confirming, game, officer_client):
    hand = record_hand(game, [BIG, SMALL], number=1)
    correct_hand(hand, [SMALL, BIG], expected_version=1)  # sent back to the other team
    undo_last_hand(game, expected_hand_count=1)
    assert not HandConfirmation.objects.exists()
    assert story(game) == [(1, "entered"), (1, "changed"), (1, "waiting"), (1, "undone")]
    html = page(officer_client, game)
    assert "Hand 1 undone" in html
    assert "Hand 1 sent back to the other team to confirm" in html


def test_replaced_by_a_second_phone_then_undone(confirming, game, officer_client):
    hand = record_hand(game, [BIG, SMALL], number=1)
    replace_hand(hand, [SMALL, BIG], key="k" * 32, expected_version=1, via="Table 1 link")
    undo_last_hand(game, expected_hand_count=1)
    assert story(game) == [(1, "entered"), (1, "changed"), (1, "waiting"), (1, "undone")]
    assert "Hand 1 undone" in page(officer_client, game)


@pytest.mark.parametrize("answer", ["confirmed", "disputed", "settled"])
def test_answered_by_the_other_team_then_undone(
    confirming, game, players, officer, officer_client, answer
):
    hand = record_hand(game, [BIG, SMALL], number=1)
    if answer == "confirmed":
        confirm_hand(hand, players[1], expected_version=1)
    else:
        dispute_hand(hand, players[1], reason="Count again", expected_version=1)
    if answer == "settled":
        settle_hand(hand, officer=officer, expected_version=1)
    undo_last_hand(game, expected_hand_count=1)
    steps = story(game)
    assert steps[0] == (1, "entered") and steps[-1] == (1, "undone")
    assert (1, answer) in steps
    assert "Hand 1 undone" in page(officer_client, game)


def test_corrected_by_an_officer_then_undone(confirming, game, officer, officer_client):
    hand = record_hand(game, [BIG, SMALL], number=1)
    correct_hand(hand, [SMALL, BIG], expected_version=1, user=officer)  # settles it
    undo_last_hand(game, expected_hand_count=1, user=officer)
    assert story(game) == [(1, "entered"), (1, "changed"), (1, "settled"), (1, "undone")]
    assert "Hand 1 undone" in page(officer_client, game)


def test_a_hand_with_failed_melds_undone_and_played_again(confirming, game, officer_client):
    count_failed_meld(game, 1, hand=1)
    first = record_hand(game, [BIG, SMALL], number=1)
    correct_hand(first, [SMALL, BIG], expected_version=1)
    undo_last_hand(game, expected_hand_count=1)
    again = record_hand(game, [SMALL, SMALL], number=1)
    correct_hand(again, [BIG, SMALL], expected_version=1)
    assert Hand.objects.get(game=game).pk == again.pk != first.pk
    # Each record keeps its own hand's number, the gone one's and the new one's.
    assert story(game) == [
        (1, "entered"),
        (1, "changed"),
        (1, "waiting"),
        (1, "undone"),
        (1, "entered"),
        (1, "changed"),
        (1, "waiting"),
    ]
    assert "Hand 1 undone" in page(officer_client, game)


def test_a_later_hand_undone_keeps_its_own_number(confirming, game, officer_client):
    record_hand(game, [BIG, SMALL], number=1)
    second = record_hand(game, [SMALL, BIG], number=2)
    correct_hand(second, [SMALL, SMALL], expected_version=1)
    undo_last_hand(game, expected_hand_count=2)
    assert story(game)[-2:] == [(2, "waiting"), (2, "undone")]
    assert "Hand 2 undone" in page(officer_client, game)
