"""Two phones on one hand: each phone scoring through the table's link is asked its
name once ("Whose phone is this?"), and its changes say "Betty's phone (Table 1 link)"
in conflicts and the history; while the phone that must choose has the choice open,
its bar says what to do (not "type the hand")."""

from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.play.access import PHONE_NAME_COOKIE
from scoring.tests.play.test_submissions import _conflict, keyed, new_url
from scoring.tests.samples import BIG, SMALL


def test_the_bar_says_to_choose_while_a_conflict_is_open(officer_client, game):
    _device, page = _conflict(game, officer_client)
    html = page.content.decode()
    bar = html[html.index('id="hand-bar"') :]
    assert "This hand was saved already: choose above which numbers to keep." in bar
    assert "Type the hand" not in bar
    # The standing note (outside the preview, which the typed numbers' preview replaces).
    note = bar[bar.index('class="bar-note"') :]
    assert note.startswith(
        'class="bar-note"><a href="#conflict">Choose above</a>: keep the saved hand, or replace'
    )
    assert 'value="save"' not in bar


def test_the_bar_says_to_keep_the_saved_hand_when_both_phones_typed_the_same(officer_client, game):
    device_b = Client()
    device_b.get(reverse("scoring:table_link", args=[game.table.token]))
    officer_client.post(new_url(game), keyed([BIG, SMALL], 1, key="a" * 22))
    page = device_b.post(new_url(game), keyed([BIG, SMALL], 1, key="b" * 22))
    html = page.content.decode()
    assert "What you typed is the same as the saved hand: nothing to do." in html
    assert "Replace it with mine" not in html
    bar = html[html.index('id="hand-bar"') :]
    assert 'Yours is the same as the saved hand: <a href="#conflict">keep it, above</a>.' in bar
    assert "replace it with yours" not in bar


# -- "Whose phone is this?" ---------------------------------------------------------------


def name_phone(client, game, name):
    return client.post(reverse("scoring:phone_name", args=[game.table_id]), {"name": name})


def test_a_table_phone_is_asked_its_name_once(link_client, game, players):
    table_url = reverse("scoring:table", args=[game.table_id])
    page = link_client.get(table_url).content.decode()
    assert "Whose phone is this?" in page
    assert 'name="name" id="phone-name" maxlength="30" autocomplete="given-name" value="Ann"' in (
        page
    )  # the keeper's name, to start with
    response = name_phone(link_client, game, "  Betty\x00  B. ")
    assert response.status_code == 302 and response["Location"] == table_url
    assert link_client.cookies[PHONE_NAME_COOKIE].value == "Betty B."
    page = link_client.get(table_url).content.decode()
    assert "This is Betty B.&#x27;s phone: its changes say so." in page
    assert "Whose phone is this?" not in page  # asked once


def test_an_empty_name_is_refused_in_plain_words(link_client, game):
    response = name_phone(link_client, game, "   ")
    assert PHONE_NAME_COOKIE not in link_client.cookies
    page = link_client.get(response["Location"]).content.decode()
    assert "Type a name for this phone, for example Betty." in page


def test_the_other_phone_is_told_which_phone_saved_first(link_client, game, officer_user):
    name_phone(link_client, game, "Betty")
    link_client.post(new_url(game), keyed([BIG, SMALL], 1, key="a" * 22))
    hand = Hand.objects.get(game=game, number=1)
    assert hand.entered_via == "Betty (Table 1 link)"
    other = Client()
    other.get(reverse("scoring:table_link", args=[game.table.token]))
    name_phone(other, game, "Carl")
    page = other.post(new_url(game), keyed([SMALL, SMALL], 1, key="b" * 22)).content.decode()
    assert "Hand 1 was already entered by Betty&#x27;s phone (Table 1 link) at" in page
    # The game's history says it too (an officer's page).
    officer = Client()
    officer.force_login(officer_user)
    page = officer.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Betty&#x27;s phone (Table 1 link)" in page


def test_a_phone_without_a_name_is_the_tables_link(link_client, game):
    link_client.post(new_url(game), keyed([BIG, SMALL], 1, key="a" * 22))
    assert Hand.objects.get(game=game, number=1).entered_via == "Table 1 link"
