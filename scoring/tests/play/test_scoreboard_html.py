"""The scoreboard (``scoring/_scoreboard.html``): a game going on or over, with and
without the failed-meld buttons, winners, negative totals, thousands, failed melds
(none, one, several) and names that need escaping."""

from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

RULES = SimpleNamespace(failed_meld_increase=15)


def _team(label, total, failed, winner=False):
    return {
        "label": label,
        "names": "Ann & <Bob>",
        "total": total,
        "minimum": 90 + 15 * failed,
        "base_minimum": 90,
        "failed": failed,
        "is_winner": winner,
    }


BOARD = [_team("Team 1", 5120, 0, winner=True), _team("Team <2>", -35, 1), _team("T3", 0, 3)]


def _drawn(board, *, finished=False, editable=False) -> str:
    game = SimpleNamespace(pk=1, is_finished=finished)
    context = {"board": board, "game": game, "rules": RULES, "editable": editable}
    return render_to_string("scoring/_scoreboard.html", context)


def test_each_team_shows_its_names_total_and_minimum():
    drawn = _drawn(BOARD)
    assert '<section id="scoreboard" class="scoreboard teams-3" aria-label="Scores">' in drawn
    assert '<div class="team-card winner">' in drawn and '<p class="won">Winner</p>' in drawn
    assert '<h2>Team &lt;2&gt; <span class="names">Ann &amp; &lt;Bob&gt;</span></h2>' in drawn
    assert '<span aria-label="Team 1 total 5120">5,120</span>' in drawn
    assert '<p class="total negative"><span class="caption">Total</span>' in drawn
    assert '<span class="caption">Needs to meld</span><strong>105</strong>' in drawn
    assert '<p class="raised">1 failed meld: 90 → 105</p>' in drawn
    assert '<p class="raised">3 failed melds: 90 → 135</p>' in drawn


@pytest.mark.parametrize("editable", [False, True])
def test_the_failed_meld_buttons_only_on_the_hand_form(editable):
    drawn = _drawn(BOARD, editable=editable)
    failed = (
        'value="failed-1" formaction="/games/1/failed-melds/1/" formnovalidate class="failed">'
        '<span>+15, failed <span class="sr-only">initial </span>meld</span></button>'
    )
    assert (failed in drawn) is editable
    # "Take back" only for a team with a failed meld counted.
    assert ('formaction="/games/1/failed-melds/1/back/"' in drawn) is editable
    assert 'value="unfailed-0"' not in drawn


@pytest.mark.parametrize("editable", [False, True])
def test_a_finished_game_shows_totals_only(editable):
    drawn = _drawn(BOARD, finished=True, editable=editable)
    assert "Needs to meld" not in drawn and "failed" not in drawn
    assert "5,120" in drawn and '<p class="won">Winner</p>' in drawn


def test_no_teams_draws_an_empty_board():
    assert 'class="scoreboard teams-0"' in _drawn([])


def test_the_table_page_shows_the_scoreboard(officer_client, game):
    page = officer_client.get(reverse("scoring:table", args=[game.table_id])).content
    assert b'<section id="scoreboard" class="scoreboard teams-2"' in page
    failed = reverse("scoring:failed_meld", args=[game.pk, 1])
    assert f'formaction="{failed}" formnovalidate class="failed">'.encode() in page
