"""Writes that count once (issue 12): every hand form carries a key made when it was
drawn; a Save, a failed initial meld and its take-back sent again with the same key
(a double tap, a reload, a hand kept on the phone and sent when the connection came
back) get the first answer and write nothing more. Two phones saving different numbers
for the same hand: the second is shown both hands and may replace the saved one (a
correction, recorded with who and when)."""

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Hand, Submission
from scoring.play.services.errors import GameClosed
from scoring.play.services.games import start_game
from scoring.play.services.hands import (
    StaleEdit,
    conflict_message,
    correct_hand,
    count_failed_meld,
    failed_meld_counts,
    record_hand,
    replace_hand,
    submit_hand,
    undo_last_hand,
    valid_key,
)
from scoring.play.views.table import new_key
from scoring.templatetags.hand_words import compare_sides
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL

KEY = "k" * 22


def new_url(game):
    return reverse("scoring:hand_new", args=[game.pk])


def replace_url(game):
    return reverse("scoring:hand_replace", args=[game.pk])


def failed_url(game, side, back=False):
    return reverse(
        "scoring:failed_meld_back" if back else "scoring:failed_meld", args=[game.pk, side]
    )


def keyed(teams, number, key=KEY, **kw):
    data = quick_post(teams, number, **kw)
    data["key"] = key
    return data


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# -- the service -------------------------------------------------------------------------


def test_a_key_sent_twice_saves_one_hand(game):
    first = submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    again = submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    assert not first.repeat and again.repeat
    assert again.hand == first.hand and again.number == 1
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.hand_count == 1
    assert Submission.objects.get(game=game).kind == Submission.Kind.HAND


def test_a_repeat_answers_with_the_first_result_even_with_other_numbers(game):
    submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    again = submit_hand(game, [SMALL, BIG], key=KEY, number=1)  # a resend never rewrites
    assert again.repeat
    assert Hand.objects.get(game=game).inputs[0] == BIG


def test_a_repeat_of_an_undone_hand_says_so_and_saves_nothing(game):
    submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    undo_last_hand(game, expected_hand_count=1)
    again = submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    assert again.repeat and again.hand is None
    assert not Hand.objects.filter(game=game).exists()


def test_the_second_tap_on_the_save_that_ended_the_game_is_a_repeat(game):
    """The second tap read the game before the first ended it: the service finds the
    game over, then its key, and answers with the first save."""
    for number in (1, 2, 3):
        record_hand(game, [BIG, SMALL], number=number)
    stale = type(game).objects.get(pk=game.pk)  # as the second request read it
    first = submit_hand(game, [BIG, SMALL], key=KEY, number=4)
    game.refresh_from_db()
    assert game.is_finished
    again = submit_hand(stale, [BIG, SMALL], key=KEY, number=4)
    assert again.repeat and again.hand == first.hand
    assert Hand.objects.filter(game=game).count() == 4


def test_a_game_over_is_still_said_to_a_new_key(game):
    for number in (1, 2, 3, 4):
        record_hand(game, [BIG, SMALL], number=number)
    with pytest.raises(GameClosed):
        submit_hand(game, [BIG, SMALL], key=KEY, number=5)


def test_without_a_key_the_hand_is_simply_recorded(game):
    assert submit_hand(game, [BIG, SMALL], key="", number=1).hand.number == 1
    assert not Submission.objects.exists()


def test_keys_look_like_the_form_makes_them():
    assert valid_key(new_key()) and len(new_key()) == 22 and new_key() != new_key()
    for junk in (None, "", "short", "x" * 65, "bad key with spaces!!", 12345678901234567):
        assert not valid_key(junk)


def test_keys_belong_to_their_game(game, other_table, club_rules):
    people = list(other_table.seats.order_by("position").values_list("person", flat=True))
    from members.models import Person

    e, f, g, h = (Person.objects.get(pk=pk) for pk in people)
    other = start_game(other_table, [[e, g], [f, h]], rule_set=club_rules)
    submit_hand(game, [BIG, SMALL], key=KEY, number=1)
    assert not submit_hand(other, [BIG, SMALL], key=KEY, number=1).repeat


# -- the table page ----------------------------------------------------------------------


def test_a_double_tapped_save_says_saved_for_both_taps(link_client, game):
    first = link_client.post(new_url(game), keyed([BIG, SMALL], 1), follow=True)
    second = link_client.post(new_url(game), keyed([BIG, SMALL], 1), follow=True)
    for response in (first, second):
        assert any(m.startswith("Hand 1 saved. Team 1 +1,400") for m in messages_of(response))
        assert b"already entered" not in response.content
    assert Hand.objects.filter(game=game).count() == 1


def test_the_form_carries_a_fresh_key_and_the_games_saved_keys(link_client, game):
    page = link_client.get(reverse("scoring:table", args=[game.table_id]))
    key = page.context["form_key"]
    assert valid_key(key) and f'name="key" value="{key}"'.encode() in page.content
    link_client.post(new_url(game), keyed([BIG, SMALL], 1, key=key))
    after = link_client.get(reverse("scoring:table", args=[game.table_id]))
    assert after.context["form_key"] != key
    assert f'data-saved-keys="{key}"'.encode() in after.content


def test_a_refused_save_is_drawn_again_with_its_own_key(link_client, game):
    data = keyed([BIG, SMALL], 1)
    data["t0-red_threes"] = "lots"
    page = link_client.post(new_url(game), data)
    assert page.context["form_key"] == KEY and page.context["posted_key"] == KEY
    assert not Submission.objects.exists()


def test_the_save_that_ends_the_game_sent_again_is_told_it_was_saved(link_client, game):
    for number in (1, 2, 3):
        record_hand(game, [BIG, SMALL], number=number)
    link_client.post(new_url(game), keyed([BIG, SMALL], 4))
    game.refresh_from_db()
    assert game.is_finished
    again = link_client.post(new_url(game), keyed([BIG, SMALL], 4), follow=True)
    assert any(m.startswith("Hand 4 saved.") for m in messages_of(again))
    assert Hand.objects.filter(game=game).count() == 4


# -- two phones, one hand ----------------------------------------------------------------


def _conflict(game, officer_client):
    device_b = Client()
    device_b.get(reverse("scoring:table_link", args=[game.table.token]))
    officer_client.post(new_url(game), keyed([BIG, SMALL], 1, key="a" * 22))
    page = device_b.post(new_url(game), keyed([SMALL, SMALL], 1, key="b" * 22))
    return device_b, page


def test_the_second_phone_sees_both_hands_with_the_differences(officer_client, game):
    _device, page = _conflict(game, officer_client)
    sides = compare_sides(page.context["conflict"]["sides"])["sides"]
    differs = {r["item"] for r in sides[0]["rows"] if r["differs"]}
    assert {"Melded card points", "Red threes", "Went out", "Hand score"} <= differs
    assert not any(r["differs"] for r in sides[1]["rows"] if r["item"] != "Total after")
    html = page.content.decode()
    assert '<span class="mark">≠ </span>Melded card points' in html
    assert '<span class="mark">≠ </span>Penalties' not in html
    assert "Keep the saved hand" in html and "Replace it with mine" in html
    assert 'name="replace_version" value="1"' in html


def test_the_second_phone_replaces_the_saved_hand_once(officer_client, game):
    device, _page = _conflict(game, officer_client)
    data = keyed([SMALL, SMALL], 1, key="b" * 22)
    data.update(replace_number="1", replace_version="1")
    done = device.post(replace_url(game), data, follow=True)
    assert any(m.startswith("Hand 1 replaced with what you typed") for m in messages_of(done))
    hand = Hand.objects.get(game=game, number=1)
    assert hand.inputs[0] == SMALL and hand.version == 2
    last = hand.history.order_by("-history_date").first()
    assert "replaced by Table 1 link" in last.history_change_reason
    # Sent again (a double tap): the same answer, no second correction.
    again = device.post(replace_url(game), data, follow=True)
    assert any(m.startswith("Hand 1 replaced") for m in messages_of(again))
    assert Hand.objects.get(pk=hand.pk).version == 2


def test_two_phones_entering_the_last_hand_both_see_both_versions(officer_client, game):
    """The first phone's hand 4 ended the game; the second phone's other hand 4 is
    shown the chooser, not "the game is over", and may replace the last hand."""
    for number in (1, 2, 3):
        record_hand(game, [BIG, SMALL], number=number)
    device_b = Client()
    device_b.get(reverse("scoring:table_link", args=[game.table.token]))
    officer_client.post(new_url(game), keyed([BIG, SMALL], 4, key="a" * 22))
    game.refresh_from_db()
    assert game.is_finished
    page = device_b.post(new_url(game), keyed([SMALL, BIG], 4, key="b" * 22))
    assert page.status_code == 200
    assert page.context["conflict"]["hand"].number == 4
    html = page.content.decode()
    assert "Keep the saved hand" in html and "Replace it with mine" in html
    assert 'name="replace_number" value="4"' in html
    assert page.context["posted_key"] == "b" * 22  # the phone stops keeping its Save
    # A hand after the last is still told the game is over.
    after = device_b.post(new_url(game), keyed([BIG, SMALL], 5, key="c" * 22), follow=True)
    assert any("is over" in m for m in messages_of(after))
    data = keyed([SMALL, BIG], 4, key="b" * 22)
    data.update(replace_number="4", replace_version="1")
    done = device_b.post(replace_url(game), data, follow=True)
    assert any(m.startswith("Hand 4 replaced") for m in messages_of(done))
    assert Hand.objects.get(game=game, number=4).inputs[0] == SMALL


def test_a_page_from_before_each_button_had_its_address_saves_nothing_but_save(link_client, game):
    """A page kept from before (every button posted to the Save address with its
    ``action``): a preview or a failed meld sent there writes nothing."""
    for action in ("preview", "failed-1", "replace"):
        response = link_client.post(new_url(game), keyed([BIG, SMALL], 1, action=action))
        assert response.status_code == 302
    assert not Hand.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 0] and not Submission.objects.exists()


def test_replacing_a_hand_changed_since_it_was_shown_is_refused(officer_client, game):
    device, _page = _conflict(game, officer_client)
    hand = Hand.objects.get(game=game, number=1)
    correct_hand(hand, [SMALL, BIG], expected_version=1)
    data = keyed([SMALL, SMALL], 1, key="b" * 22)
    data.update(replace_number="1", replace_version="1")
    page = device.post(replace_url(game), data)
    assert page.status_code == 200 and b"was changed after you opened it" in page.content
    assert Hand.objects.get(pk=hand.pk).inputs == [SMALL, BIG]


def test_replace_hand_needs_a_version(game):
    hand = record_hand(game, [BIG, SMALL], number=1)
    try:
        replace_hand(hand, [SMALL, SMALL], key=KEY, expected_version=None)
    except StaleEdit:
        pass
    else:  # pragma: no cover
        raise AssertionError("a replace without a version must be refused")
    assert Hand.objects.get(pk=hand.pk).version == 1


# -- failed initial melds ----------------------------------------------------------------


def test_a_double_tapped_failed_meld_counts_once(link_client, game):
    for _ in range(2):  # a double tap, or a reload that sends the tap again
        link_client.post(failed_url(game, 1), keyed([SMALL, SMALL], 1))
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 1]


def test_the_next_tap_from_the_redrawn_form_counts(link_client, game):
    page = link_client.post(failed_url(game, 1), keyed([SMALL, SMALL], 1))
    key = page.context["form_key"]
    assert key != KEY  # the form drawn after a tap carries a new key
    link_client.post(failed_url(game, 1), keyed([SMALL, SMALL], 1, key=key))
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 2]


def test_a_take_back_counts_once_too(link_client, game):
    count_failed_meld(game, 0)
    count_failed_meld(game, 0)
    for _ in range(2):
        link_client.post(failed_url(game, 0, back=True), keyed([SMALL, SMALL], 1))
    game.refresh_from_db()
    assert failed_meld_counts(game) == [1, 0]


def test_a_tap_for_a_hand_already_saved_counts_nothing(link_client, game):
    record_hand(game, [BIG, SMALL], number=1)
    link_client.post(failed_url(game, 0), keyed([SMALL, SMALL], 1, key="c" * 22))
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 0]


def test_the_service_counts_a_key_once(game):
    assert count_failed_meld(game, 1, hand=1, key=KEY) == [0, 1]
    assert count_failed_meld(game, 1, hand=1, key=KEY) == [0, 1]
    assert count_failed_meld(game, 1, hand=2, key="d" * 22) == [0, 1]
    assert count_failed_meld(game, 1) == [0, 2]  # no key: every call counts


def test_the_conflict_message_ends_with_one_full_stop(game):
    import datetime

    from django.utils import timezone

    morning = timezone.make_aware(datetime.datetime.combine(game.day.date, datetime.time(7, 15)))
    record_hand(game, [BIG, SMALL], number=1, now=morning)
    hand = Hand.objects.get(game=game)
    message = conflict_message(hand)
    assert message.endswith("7:15 a.m.") and not message.endswith("..")
