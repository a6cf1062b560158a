"""The preview panel (``scoring/_preview.html``) in every branch: the form's errors, a
refused hand, a scored hand (gains, losses, thousands, the game's end), the boxes to
fix, and nothing typed yet."""

from types import SimpleNamespace

from django.template.loader import render_to_string
from django.urls import reverse

from scoring.play.forms.hand import Problem

from .conftest import BIG, SMALL, quick_post


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
]


def _drawn(preview, form_errors=None) -> str:
    return render_to_string(
        "scoring/_preview.html", {"preview": preview, "form_errors": form_errors}
    )


def test_nothing_typed_yet():
    for preview in (None, {}):
        drawn = _drawn(preview)
        assert "Type the hand: each side's score shows here before you save." in drawn


def test_the_forms_errors_each_with_where_and_a_link_to_its_box():
    problems = [Problem("", "Enter a score"), Problem("Team 1, <x>", "Too many", "id_t0-x")]
    drawn = _drawn({"form_errors": True}, problems)
    assert "<h2>Not yet: fix these first</h2>" in drawn
    assert (
        '<li>Enter a score</li><li><a href="#id_t0-x">Team 1, &lt;x&gt;: Too many</a></li>'
    ) in drawn
    # The boxes table.js marks red.
    assert 'data-invalid="id_t0-x "' in drawn


def test_a_hand_the_server_refused_points_above_the_boxes():
    drawn = _drawn({"not_saved": True})
    assert "The hand was not saved" in drawn
    assert '<a href="#hand-errors">See what to fix, above the boxes.</a>' in drawn
    assert "Type the hand" not in drawn


def test_boxes_to_fix():
    drawn = _drawn({"form_errors": True})
    assert "Fix the boxes marked in red, then preview again." in drawn


def test_a_refused_hand():
    error = SimpleNamespace(message="Team 1 can't go out & <win>")
    drawn = _drawn({"refused": True, "errors": [error]}, [])
    assert "This hand cannot be scored yet" in drawn
    assert "<li>Team 1 can&#x27;t go out &amp; &lt;win&gt;</li>" in drawn


def test_a_scored_hand():
    drawn = _drawn({"rows": ROWS, "game_over": False, "winner": None, "number": 7})
    assert "Preview of hand 7 (not saved yet)" in drawn
    assert '<strong>+1,480</strong> <span class="after">Total 3,500 → 4,980</span>' in drawn
    negative = '<strong class="negative">-120</strong> <span class="after">Total -35 → -155</span>'
    assert negative in drawn
    assert '<tr><td>Red threes</td><td class="num">0</td></tr>' in drawn
    assert '<tr><td>Natural canastas</td><td class="num">+1,000</td></tr>' in drawn
    assert '<h3>Team &lt;2&gt;<span class="sr-only"> (Ann Able &amp; Cat &lt;Cole&gt;)' in drawn
    assert "Next hand: needs 90 to meld." in drawn
    assert "This hand ends the game" not in drawn


def test_the_hand_that_ends_the_game():
    drawn = _drawn({"rows": ROWS, "game_over": True, "winner": ROWS[0], "number": 12})
    assert "This hand ends the game: Team 1 (Ann Able &amp; Cat &lt;Cole&gt;) wins." in drawn


def test_the_live_preview_answers_with_the_panel(officer_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    answer = officer_client.post(url, quick_post([BIG, SMALL], 1), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert b"Preview of hand 1 (not saved yet)" in answer.content
    assert b'<tr class="sum"><td>Hand score</td>' in answer.content
