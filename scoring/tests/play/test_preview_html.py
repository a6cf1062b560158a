"""The preview panel drawn in Python (scoring.play.views.preview.draw_preview, issue
#14) is the HTML the template _preview.html drew, byte for byte, in every branch: the
form's errors, a refused hand, a scored hand (gains, losses, thousands, the game's
end), the boxes to fix, and nothing typed yet."""

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse

from scoring.play.views.preview import draw_preview

from .conftest import BIG, SMALL, quick_post

# The template the panel was drawn with before (kept here as the reference).
TEMPLATE = Template((Path(__file__).parent / "preview_template.html").read_text())


def _row(label, score, before, lines):
    return {
        "label": label,
        "names": "Ann Able & Cat <Cole>",
        "lines": lines,
        "hand_score": score,
        "before": before,
        "after": before + score,
        "minimum_next": 90,
    }


ROWS = [
    _row("Team 1", 1480, 3500, [("Natural canastas", 1000), ("Red threes", 0), ("Went out", 100)]),
    _row("Team <2>", -120, -35, [("Cards left in hand", -120), ("Penalty 'x'", -500)]),
    _row("Team 3", 0, 0, []),
]

CASES = [
    (None, None),
    ({}, []),
    ({"form_errors": True}, None),
    ({"form_errors": True}, [("", "Enter a score"), ("Team 1, Melded <points>", "Too many")]),
    ({"refused": True, "errors": [SimpleNamespace(message="Team 1 can't go out & <win>")]}, []),
    ({"rows": ROWS, "game_over": False, "winner": None, "number": 7}, []),
    ({"rows": ROWS[:2], "game_over": True, "winner": ROWS[0], "number": 12}, None),
    ({"rows": [], "number": 1}, None),
]


@pytest.mark.parametrize("preview, form_errors", CASES)
def test_the_panel_is_the_templates_html(preview, form_errors):
    expected = TEMPLATE.render(Context({"preview": preview, "form_errors": form_errors}))
    assert draw_preview(preview, form_errors) == expected


def test_the_live_preview_answers_with_the_panel(officer_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    answer = officer_client.post(url, quick_post([BIG, SMALL], 1), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert b"Preview of hand 1 (not saved yet)" in answer.content
    assert b'<tr class="sum"><td>Hand score</td>' in answer.content
