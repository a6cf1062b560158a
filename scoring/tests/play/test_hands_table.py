"""The hands table (``scoring/_hands.html``): dealers, every confirmation state, names
that need escaping, and the Correct links only for those who may edit."""

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from scoring.play.services.confirmations import confirm_hand, dispute_hand, settle_hand
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.play.views.display import game_context

from .conftest import BIG, SMALL


@pytest.fixture
def states_game(day, club_rules, game, players, officer_user):
    """Five hands: confirmed, disputed, settled, waiting, and one with no dealer; a
    player whose first name needs escaping."""
    ann, bob, cat, dan = players
    bob.first_name = 'B<o>b & "Co"'
    bob.save()
    set_day_rules(day, club_rules, confirm_hands=True)
    hands = [record_hand(game, [SMALL, SMALL], number=n) for n in range(1, 6)]
    confirm_hand(hands[0], bob, expected_version=1)
    dispute_hand(hands[1], dan, expected_version=1, reason="Four red threes")
    settle_hand(hands[2], officer=officer_user, expected_version=1)
    hands[4].dealer = None
    hands[4].save()
    game.refresh_from_db()
    return game


def _drawn(rf, game, can_edit: bool) -> str:
    access = SimpleNamespace(can_edit=can_edit, is_officer=False)
    ctx = game_context(rf.get("/"), game, access)
    return render_to_string("scoring/_hands.html", ctx)


@pytest.mark.parametrize("can_edit", [True, False])
def test_the_rows_show_dealers_states_and_links(rf, states_game, can_edit):
    drawn = _drawn(rf, states_game, can_edit)
    for words in (
        '<span class="hand-state state-confirmed">OK by B&lt;o&gt;b &amp; &quot;Co&quot;</span>',
        '<span class="hand-state state-disputed">Disputed by Dan</span>',
        '<span class="hand-state state-settled">Settled by',
        '<span class="hand-state state-waiting">Waiting for OK</span>',
        '<span class="dealer">Ann dealt</span>',
    ):
        assert words in drawn, words
    assert drawn.count('<tbody id="hand-') == 5
    assert drawn.count(" dealt</span>") == 4  # the fifth hand has no dealer
    edit = reverse("scoring:hand_edit", args=[states_game.pk, 3])
    assert (
        f'<a href="{edit}">Correct<span class="sr-only"> hand 3</span></a>' in drawn
    ) is can_edit


def test_each_cell_shows_the_total_and_the_hands_score(rf, game):
    record_hand(game, [BIG, SMALL], number=1)
    drawn = _drawn(rf, game, False)
    assert '<td><span class="total">1,400</span><span class="score">+1,400</span></td>' in drawn
    assert '<td><span class="total">80</span><span class="score">+80</span></td>' in drawn


def test_the_table_page_shows_the_rows(officer_client, states_game):
    page = officer_client.get(reverse("scoring:table", args=[states_game.table_id]))
    assert b'<tbody id="hand-5">' in page.content and b"OK by B&lt;o&gt;b" in page.content


def test_a_confirmer_whose_record_is_gone_leaves_the_row_drawn(rf, states_game, players):
    """HandConfirmation.person is SET_NULL: a deleted confirmer must not break the page."""
    from scoring.models import HandConfirmation

    HandConfirmation.objects.filter(status="confirmed").update(person=None)
    drawn = _drawn(rf, states_game, False)
    assert '<span class="hand-state state-confirmed">OK by </span>' in drawn
