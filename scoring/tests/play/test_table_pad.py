"""The score pad of the table page: a Save with nothing typed, a hand where nobody
scored, the rare items behind "More", and where the server's refusals are said."""

import re

from django.urls import reverse

from scoring.models import Hand, TeamHand
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL, quick


def new_url(game):
    return reverse("scoring:hand_new", args=[game.pk])


def _pad(html: str) -> str:
    """The pad's columns (the boxes), without what is said above them."""
    return html[html.index('<div class="pad ') : html.index('<details class="more-items"')]


def test_a_save_with_nothing_typed_is_refused(link_client, game):
    response = link_client.post(new_url(game), {"number": "1", "action": "save"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Type the hand first" in html
    # The plain question for the one real hand with nothing in it.
    assert "Save a hand where nobody scored?" in html
    assert re.search(r'<input type="checkbox" name="nobody_scored"[^>]*id="id_nobody_scored"', html)
    assert not Hand.objects.exists()
    game.refresh_from_db()
    assert game.hand_count == 0


def test_zeros_typed_are_nothing_typed(link_client, game):
    data = {"number": "1", "action": "save", "t0-melded_points": "0", "t1-hand_points": "00"}
    data |= {"t0-went_out": "none", "t1-red_threes": "0", "t0-pen_discard_unused": "0"}
    response = link_client.post(new_url(game), data)
    assert "Type the hand first" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_hand_where_nobody_scored_is_saved_when_the_keeper_says_so(link_client, game):
    data = {"number": "1", "action": "save", "nobody_scored": "on"}
    response = link_client.post(new_url(game), data, follow=True)
    assert "Hand 1 saved. Team 1 +0 → 0; Team 2 +0 → 0." in response.content.decode()
    hand = Hand.objects.get(game=game)
    assert [r.hand_score for r in TeamHand.objects.filter(hand=hand)] == [0, 0]


def test_anything_typed_is_a_hand(link_client, game):
    """One red three, one penalty or going out is something: no question asked."""
    data = quick_post([quick(red=1), quick()], 1)
    assert link_client.post(new_url(game), data).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_nothing_typed_is_told_in_the_live_preview_as_type_the_hand(link_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    answer = link_client.post(url, {"number": "1"}, HTTP_HX_REQUEST="true")
    assert "Type the hand: each side's score shows here" in answer.content.decode()


def test_a_refusal_is_said_above_the_pad_with_its_box_marked(link_client, game):
    data = quick_post([quick(melded=1185), SMALL], 1)
    html = link_client.post(new_url(game), data).content.decode()
    above = html[html.index('id="hand-errors"') : html.index('<div class="pad ')]
    assert "The hand was not saved." in above
    assert re.search(r'<a href="#id_t0-melded_points">[^<]*1,180', above)
    pad = _pad(html)
    assert "errorlist" not in pad and "1,180" not in pad  # no message in a narrow column
    cell = re.search(
        r'<div class="cell quick-cell field-error">\s*<label[^>]*>[^<]*</label>'
        r'<input[^>]*name="t0-melded_points"[^>]*>',
        pad,
    )
    assert cell and 'aria-invalid="true"' in cell.group(0)
    # The bar by Save points at it (it no longer says "Type the hand").
    bar = html[html.index('id="hand-bar"') :]
    assert "The hand was not saved" in bar and "Type the hand" not in bar
    assert not Hand.objects.exists()


def test_a_refused_went_out_marks_the_went_out_group(link_client, game):
    data = quick_post([quick(melded=300, natural=1, out="out"), SMALL], 1)
    html = link_client.post(new_url(game), data).content.decode()
    assert re.search(r'<a href="#id_t0-went_out">Team 1 went out', html)
    assert 'class="segmented went-out field-error" id="id_t0-went_out"' in _pad(html)


def test_the_rare_items_are_behind_more_and_open_when_one_is_set(link_client, game):
    page = link_client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    more = page[page.index('<details class="more-items"') :]
    assert page.count('<details class="more-items">') == 1  # closed
    for name in ("t0-pen_discard_unused", "t1-pen_other_note", "t0-mode"):
        assert f'name="{name}"' in more and f'name="{name}"' not in _pad(page)
    assert 'value="concealed"' in more and 'value="concealed"' not in _pad(page)
    assert 'value="out"' in _pad(page)
    # A refused hand that went out concealed shows "More" open.
    data = quick_post([quick(melded=300, natural=1, out="concealed"), SMALL], 1)
    html = link_client.post(new_url(game), data).content.decode()
    assert '<details class="more-items" open>' in html


def _saved_first_hand(link_client, game):
    assert link_client.post(new_url(game), quick_post([BIG, SMALL], 1)).status_code == 302
    return Hand.objects.get(game=game, number=1)


def test_a_correction_with_nothing_typed_is_refused_and_the_hand_kept(link_client, game):
    hand = _saved_first_hand(link_client, game)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    data = {"number": "1", "version": str(hand.version), "action": "save", "t0-hand_points": "0"}
    response = link_client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "The correction was not saved." in html
    assert "Every box is empty or 0: type the hand as it was played, or tap Cancel" in html
    assert "Save a hand where nobody scored?" in html
    hand.refresh_from_db()
    assert hand.version == 1 and hand.inputs[0] == BIG
    assert sorted(r.hand_score for r in TeamHand.objects.filter(hand=hand)) != [0, 0]
    # The keeper who says nobody scored is believed, as on the table page.
    response = link_client.post(url, data | {"nobody_scored": "on"})
    assert response.status_code == 302
    assert [r.hand_score for r in TeamHand.objects.filter(hand=hand)] == [0, 0]


def test_a_correction_preview_with_nothing_typed_is_not_a_refusal(link_client, game):
    hand = _saved_first_hand(link_client, game)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    data = {"number": "1", "version": str(hand.version), "action": "preview"}
    html = link_client.post(url, data).content.decode()
    assert "correction was not saved" not in html and "Every box is empty" not in html
