"""A hand one phone replaced with its own (two phones entered it): the history keeps the
fact in English, and every page says it in its reader's language, with who did it (a
named phone, a table link, a person); a long name never makes the record too long to
save (on PostgreSQL a too-long value is an error)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from members.models import Table
from scoring.models import Hand, HandConfirmation
from scoring.models.games import REASON_MAX, replaced_reason, replaced_words, via_words
from scoring.play.access import PHONE_NAME_MAX
from scoring.play.services.hands import last_editor, record_hand, replace_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.play.test_submissions import keyed, new_url, replace_url
from scoring.tests.samples import BIG, SMALL

STORED = "replaced by Betty (Table 3 link) (two phones entered hand 4)"

WORDS = {
    "en": {
        "who": "Betty's phone (Table 3 link)",
        "link": "a table link",
        "fact": "Replaced what another phone saved first (two phones entered hand 4).",
    },
    "es": {
        "who": "el teléfono de Betty (enlace de la mesa 3)",
        "link": "un enlace de mesa",
        "fact": "Reemplazó lo que otro teléfono había guardado primero "
        "(dos teléfonos anotaron la mano 4).",
    },
    "pt-br": {
        "who": "celular de Betty (link da mesa 3)",
        "link": "um link de mesa",
        "fact": "Substituiu o que outro celular tinha salvado primeiro "
        "(dois celulares anotaram a mão 4).",
    },
}


@pytest.fixture
def confirming(day, club_rules):
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.mark.parametrize("language", ["en", "es", "pt-br"])
def test_the_stored_reason_in_the_readers_words(language):
    with translation.override(language):
        assert via_words(STORED) == WORDS[language]["who"]
        assert replaced_words(STORED) == WORDS[language]["fact"]
        unnamed = via_words("replaced by a table link (two phones entered hand 4)")
        assert unnamed == WORDS[language]["link"]
    assert replaced_words("Betty (Table 3 link)") == ""  # not a replacing


def test_the_reason_as_stored():
    assert replaced_reason("Betty (Table 3 link)", 4) == STORED
    assert replaced_reason("", 2) == "replaced by a table link (two phones entered hand 2)"


def test_a_long_name_is_shortened_to_fit_keeping_the_table_link():
    reason = replaced_reason(f"{'N' * 80} (Table 3 link)", 4)
    assert len(reason) == REASON_MAX
    # 100 = len("replaced by ") 12 + 44 + "…" 1 + " (Table 3 link)" 15 + 28 for the rest
    assert via_words(reason) == f"{'N' * 44}…'s phone (Table 3 link)"
    person = replaced_reason("Olive " + "O" * 200, 12)
    assert len(person) == REASON_MAX
    assert person.endswith("… (two phones entered hand 12)")
    assert via_words(person).startswith("Olive OOO")


def replaced_by_a_phone(game, officer_client, phone_name) -> Hand:
    """The officer saves hand 1; a table phone named ``phone_name`` typed other numbers
    and replaces it (through the pages, as a phone does)."""
    phone = Client()
    phone.get(reverse("scoring:table_link", args=[game.table.token]))
    phone.post(reverse("scoring:phone_name", args=[game.table_id]), {"name": phone_name})
    officer_client.post(new_url(game), keyed([BIG, SMALL], 1, key="a" * 22))
    phone.post(new_url(game), keyed([SMALL, SMALL], 1, key="b" * 22))
    data = keyed([SMALL, SMALL], 1, key="b" * 22)
    data.update(replace_number="1", replace_version="1")
    done = phone.post(replace_url(game), data)
    assert done.status_code == 302
    hand = Hand.objects.get(game=game, number=1)
    assert hand.version == 2 and hand.inputs[0] == SMALL
    return hand


def history_page(client, game, language) -> str:
    client.cookies["club_language"] = language
    response = client.get(reverse("scoring:game", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Language"] == language
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "corrected", "who", "fact", "sent_back"),
    [
        (
            "es",
            "Mano 1 corregida",
            "por el teléfono de Betty (enlace de la mesa 1)",
            "Reemplazó lo que otro teléfono había guardado primero "
            "(dos teléfonos anotaron la mano 1).",
            "Mano 1 devuelta",
        ),
        (
            "pt-br",
            "Mão 1 corrigida",
            "por celular de Betty (link da mesa 1)",
            "Substituiu o que outro celular tinha salvado primeiro "
            "(dois celulares anotaram a mão 1).",
            "Mão 1 devolvida",
        ),
    ],
)
def test_the_history_page_says_it_in_the_readers_words(
    confirming, game, officer_client, language, corrected, who, fact, sent_back
):
    replaced_by_a_phone(game, officer_client, "Betty")
    html = history_page(officer_client, game, language)
    history = html[html.index('id="history-title"') :]
    assert f"<strong>{corrected}</strong> {who}" in history
    assert f"<li>{fact}</li>" in history
    # The hand sent back to the other team by the replacing: said of the phone too.
    assert f"<strong>{sent_back}" in history
    assert history.count(f"</strong> {who}") == 2
    for english in ("replaced by", "two phones", "Table 1 link", "phone"):
        assert english not in history


def test_the_longest_phone_name_replacing_a_hand_saves(confirming, game, officer_client):
    """A phone's name is cut to its longest (30 letters); with the largest table number
    the record still fits, whole, and reads as the phone's."""
    Table.objects.filter(pk=game.table_id).update(number=32767)  # the largest there is
    game.table.refresh_from_db()
    name = "W" * PHONE_NAME_MAX
    hand = replaced_by_a_phone(game, officer_client, name + "XYZ")
    last = hand.history.order_by("-history_date").first()
    assert last.history_change_reason == (
        f"replaced by {name} (Table 32767 link) (two phones entered hand 1)"
    )
    confirmation = HandConfirmation.objects.get(hand=hand)
    assert confirmation.via == last.history_change_reason
    html = history_page(officer_client, game, "es")
    assert f"</strong> por el teléfono de {name} (enlace de la mesa 32767)" in html
    assert "(dos teléfonos anotaron la mano 1).</li>" in html


def test_a_signed_in_person_with_a_very_long_name_replacing_a_hand_saves(
    confirming, game, officer_client, django_user_model
):
    """A person's full name can be 301 letters: shortened in the record; the history says
    their name (not the record's) and that the hand was replaced."""
    long_name = django_user_model.objects.create_user(
        "long", first_name="L" * 150, last_name="M" * 150
    )
    hand = record_hand(game, [BIG, SMALL], number=1)
    replace_hand(hand, [SMALL, BIG], key="k" * 32, expected_version=1, user=long_name)
    last = Hand.objects.get(pk=hand.pk).history.order_by("-history_date").first()
    assert last.history_user == long_name
    reason = last.history_change_reason
    assert len(reason) == REASON_MAX
    assert reason.startswith("replaced by LLL") and reason.endswith("… (two phones entered hand 1)")
    assert HandConfirmation.objects.get(hand=hand).via == reason
    html = history_page(officer_client, game, "pt-br")
    history = html[html.index('id="history-title"') :]
    assert f"<strong>Mão 1 corrigida</strong> por {'L' * 150} {'M' * 150}" in history
    assert "(dois celulares anotaram a mão 1).</li>" in history


@pytest.mark.parametrize(
    ("language", "who"),
    [("es", "el teléfono de Betty (enlace de la mesa 1)"), ("pt-br", "celular de Betty")],
)
def test_a_phone_told_the_hand_changed_is_told_who_in_its_words(
    game, officer_client, language, who
):
    hand = replaced_by_a_phone(game, officer_client, "Betty")
    with translation.override(language):
        assert last_editor(hand).startswith(who)
