"""What the table page and the live preview read (issue #14): the teams and their
players in one query, each hand's dealer and confirmation people taken from them, the
preview's totals before the hand from the teams it read; and that nothing shown changes
for it (dealers, each hand's state, who confirmed, disputed or settled it)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.devtools.bench.queries import data_queries
from scoring.play import services
from scoring.play.services.confirmations import confirm_hand, dispute_hand, settle_hand
from scoring.play.views import display

from .conftest import BIG, SMALL, quick_post


def _reads(captured, table: str) -> int:
    return sum(f'FROM "{table}"' in q for q in data_queries(captured.captured_queries))


@pytest.fixture
def confirmed_game(day, club_rules, game, players, officer_user):
    """Four hands waiting for the other team's OK: one confirmed by Bob, one disputed by
    Dan, one settled by the officer, the last still waiting."""
    ann, bob, cat, dan = players
    services.set_day_rules(day, club_rules, confirm_hands=True)
    hands = [services.record_hand(game, [SMALL, SMALL], number=n) for n in range(1, 5)]
    confirm_hand(hands[0], bob, expected_version=1)
    dispute_hand(hands[1], dan, expected_version=1, reason="Four red threes")
    settle_hand(hands[2], officer=officer_user, expected_version=1)
    return game


def test_the_table_page_reads_the_players_once_and_each_table_once(officer_client, game):
    services.record_hand(game, [BIG, SMALL], number=1)
    url = reverse("scoring:table", args=[game.table_id])
    officer_client.get(url)
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.get(url).content.decode()
    assert "Hand 2" in page and "Ann dealt" in page
    for table in ("scoring_teamplayer", "scoring_hand", "scoring_teamhand", "scoring_game"):
        assert _reads(captured, table) == 1, table
    assert _reads(captured, "scoring_gameteam") == 0  # joined to the players
    assert _reads(captured, "members_person") == 0  # joined to the players
    assert _reads(captured, "club_cache") == 0  # the empty boxes are kept in memory
    assert len(data_queries(captured.captured_queries)) <= 10


def test_hands_states_and_names_are_drawn_from_the_players_read_once(
    officer_client, confirmed_game, players
):
    url = reverse("scoring:table", args=[confirmed_game.table_id])
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.get(url).content.decode()
    for words in (
        "Ann dealt",
        "Bob dealt",
        "OK by Bob",
        "Disputed by Dan",
        "Settled by Olive Officer",
        "Waiting for OK",
        "Disputed by Dan Dunn: “Four red threes”",
        "Bob Baker: it is right",
    ):
        assert words in page, words
    assert _reads(captured, "members_person") == 0
    officers = [q for q in data_queries(captured.captured_queries) if '"auth_user"."id" IN' in q]
    assert len(officers) == 1  # the officer who settled, once for every hand


def test_the_game_page_still_names_who_entered_each_hand(officer_client, confirmed_game):
    page = officer_client.get(reverse("scoring:game", args=[confirmed_game.pk])).content
    assert b"entered by" in page and b"Settled by Olive Officer" in page


def test_the_preview_reads_the_teams_once(officer_client, game):
    services.record_hand(game, [BIG, SMALL], number=1)
    url = reverse("scoring:hand_preview", args=[game.pk])
    data = quick_post([SMALL, BIG], 2, action="preview")
    with CaptureQueriesContext(connection) as captured:
        page = officer_client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    assert "Total 1,400 → 1,480" in page and "Total 80 → 1,480" in page
    assert _reads(captured, "scoring_teamplayer") == 1
    assert _reads(captured, "scoring_gameteam") == 0


def test_empty_boxes_are_kept_for_a_bounded_number_of_line_ups(monkeypatch, officer_client, game):
    url = reverse("scoring:table", args=[game.table_id])
    display._entry_boxes.clear()
    monkeypatch.setattr(display, "ENTRY_BOXES_KEPT", 1)
    officer_client.get(url)
    assert len(display._entry_boxes) == 1
    display._entry_boxes.clear()
    display._entry_boxes[("another line-up",)] = "<p>boxes</p>"  # the only one kept
    officer_client.get(url)  # this game's drawn again: the oldest (the other) is dropped
    assert list(display._entry_boxes) != [("another line-up",)]
    assert len(display._entry_boxes) == 1


# -- the hand form's own reading loop ------------------------------------------------------

POSTS = [
    {},  # nothing typed
    {"t0-melded_points": "1,250", "t0-natural_canastas": " 2 ", "t0-went_out": "out"},
    {"t0-red_threes": "lots", "t0-hand_points": "99999999", "t0-perfect_cut": "on"},
    {"t0-mode": "detailed", "t0-meld_k_naturals": "5", "t0-card_joker": "1", "t0-went_out": "x"},
    {"t0-pen_discard_unused": "51", "t0-pen_other_note": "late" * 60, "t0-mode": "bad"},
    {"t0-hand_points": "", "t0-pen_other_points": "0", "t0-pen_other_note": "  why  "},
]


@pytest.mark.parametrize("data", POSTS)
def test_the_forms_reading_loop_gives_what_djangos_gives(data):
    """``TeamEntryForm._clean_fields`` (no bound field per box) and the empty box's
    short cut leave the same values and errors as Django's own loop."""
    import copy
    import functools

    from django import forms
    from django.http import QueryDict

    from scoring.engine.rules.presets import CLASSIC
    from scoring.play.forms import TeamEntryForm

    posted = QueryDict(mutable=True)
    posted.update(data)
    ours = TeamEntryForm(posted, rules=CLASSIC, prefix="t0")
    theirs = TeamEntryForm(posted, rules=CLASSIC, prefix="t0")
    theirs._clean_fields = lambda: forms.Form._clean_fields(theirs)
    theirs.fields = copy.deepcopy(theirs.fields)  # the shared fields stay untouched
    for field in theirs.fields.values():  # Django's clean, without the empty box's short cut
        field.clean = functools.partial(forms.Field.clean, field)
    assert ours.is_valid() == theirs.is_valid()
    assert ours.cleaned_data == theirs.cleaned_data
    assert ours.errors == theirs.errors
