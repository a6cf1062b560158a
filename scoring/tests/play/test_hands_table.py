"""The hands table's rows drawn in Python (scoring.play.views.hands_table, issue #14)
are the HTML the template's loop drew, byte for byte: dealers, every confirmation
state, names that need escaping, with and without the Correct links."""

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse

from scoring.play.services.confirmations import confirm_hand, dispute_hand, settle_hand
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.play.views.display import game_context
from scoring.play.views.hands_table import draw_hand_rows

from .conftest import SMALL

# The loop _hands.html had before the rows were drawn in Python.
LOOP = Template((Path(__file__).parent / "hand_rows_loop.html").read_text())


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


@pytest.mark.parametrize("can_edit", [True, False])
def test_the_rows_are_the_loops_html(rf, states_game, can_edit):
    access = SimpleNamespace(can_edit=can_edit, is_officer=False)
    ctx = game_context(rf.get("/"), states_game, access)
    drawn = draw_hand_rows(ctx["hand_rows"], can_edit)
    assert drawn == LOOP.render(Context({"hand_rows": ctx["hand_rows"], "access": access}))
    for words in ("OK by B&lt;o&gt;b &amp; &quot;Co&quot;", "Disputed by Dan", "Settled by",
                  "Waiting for OK", "Ann dealt"):  # fmt: skip
        assert words in drawn, words
    assert ("Correct<span" in drawn) is can_edit


def test_the_table_page_shows_the_drawn_rows(officer_client, states_game):
    page = officer_client.get(reverse("scoring:table", args=[states_game.table_id]))
    assert b'<tr id="hand-5">' in page.content and b"OK by B&lt;o&gt;b" in page.content


def test_a_table_page_whose_empty_boxes_are_kept_makes_no_team_form(officer_client, game):
    url = reverse("scoring:table", args=[game.table_id])
    first = officer_client.get(url)
    again = officer_client.get(url)
    assert again.content.count(b'name="t1-melded_points"') == 1
    assert "teams" not in again.context["entry"].__dict__  # the forms were never made
    assert first.context["entry"].team_shape == again.context["entry"].team_shape


def test_a_confirmer_whose_record_is_gone_leaves_the_row_drawn(rf, states_game, players):
    """HandConfirmation.person is SET_NULL: a deleted confirmer must not break the page."""
    from scoring.models import HandConfirmation

    HandConfirmation.objects.filter(status="confirmed").update(person=None)
    access = SimpleNamespace(can_edit=False, is_officer=False)
    ctx = game_context(rf.get("/"), states_game, access)
    drawn = draw_hand_rows(ctx["hand_rows"], False)
    assert drawn == LOOP.render(Context({"hand_rows": ctx["hand_rows"], "access": access}))
    assert '<span class="hand-state state-confirmed">OK by </span>' in drawn
