"""The scoreboard drawn in Python (scoring.play.views.scoreboard, issue #14) is the
HTML the template _scoreboard.html drew, byte for byte: a game going on or over, with
and without the failed-meld buttons, winners, negative totals, thousands, failed
melds (none, one, several) and names that need escaping."""

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse

from scoring.play.views.scoreboard import draw_scoreboard

# The template the scoreboard was drawn with before (kept here as the reference).
TEMPLATE = Template((Path(__file__).parent / "scoreboard_template.html").read_text())
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


@pytest.mark.parametrize("finished", [False, True])
@pytest.mark.parametrize("editable", [None, False, True])
@pytest.mark.parametrize("board", [BOARD, BOARD[1:2], []])
def test_the_scoreboard_is_the_templates_html(finished, editable, board):
    game = SimpleNamespace(is_finished=finished)
    context = {"board": board, "game": game, "rules": RULES, "editable": editable}
    expected = TEMPLATE.render(Context(context))
    assert draw_scoreboard(board, finished, editable, RULES) == expected


def test_the_table_page_shows_the_scoreboard(officer_client, game):
    page = officer_client.get(reverse("scoring:table", args=[game.table_id])).content
    assert b'<section id="scoreboard" class="scoreboard teams-2"' in page
    assert b'value="failed-1" formnovalidate class="failed">' in page
