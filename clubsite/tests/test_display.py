"""The "Larger" and "High contrast" switches (clubsite/display.py): a tap posts the
state it wants, the phone keeps it in a cookie, and every page is drawn with the
switches' classes on <html> from the server (no flash, no JavaScript needed).
The sizes and colours themselves are measured in Chromium
(clubsite/tests/test_journey_display.py)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from clubsite import display
from clubsite.tests import test_personas as personas
from clubsite.tests.test_languages import page, table_url

world_keys = personas.world_keys
world = personas.world
persona_client = personas.persona_client


def tap(client, **switches):
    return client.post(reverse("choose_display"), {**switches, "next": "/"})


def test_a_switch_is_remembered_and_drawn_from_the_server(world):
    keeper = persona_client(world, "keeper")
    assert '<html lang="en">' in page(keeper, table_url(world))
    response = keeper.post(reverse("choose_display"), {"larger": "1", "next": table_url(world)})
    assert response.status_code == 302
    assert response["Location"] == table_url(world)
    cookie = keeper.cookies[display.COOKIE_NAME]
    assert cookie.value == "larger"
    assert cookie["max-age"] == 365 * 24 * 3600
    assert cookie["httponly"]
    body = page(keeper, table_url(world))
    assert '<html lang="en" class="larger">' in body
    # The switch says it is on, and its button now turns it off.
    assert 'name="larger" value="0" aria-pressed="true"' in body
    assert 'name="contrast" value="1" aria-pressed="false"' in body

    tap(keeper, contrast="1")
    assert '<html lang="en" class="larger contrast">' in page(keeper, table_url(world))
    tap(keeper, larger="0")
    assert '<html lang="en" class="contrast">' in page(keeper, table_url(world))


def test_a_double_tap_counts_once(world):
    client = persona_client(world, "keeper")
    tap(client, larger="1")
    tap(client, larger="1")  # the second tap of a double tap: still on, not back off
    assert client.cookies[display.COOKIE_NAME].value == "larger"


def test_the_door_and_the_front_page_offer_the_switches(world):
    officer = persona_client(world, "officer")
    door = page(officer, reverse("members:signin", args=[world.day.pk]))
    assert 'class="display-switch"' in door
    assert 'class="display-switch"' in page(Client(), reverse("home"))


def test_the_switch_refuses_another_site_and_unknown_words(db):
    client = Client()
    client.cookies[display.COOKIE_NAME] = "larger <script> huge"
    response = client.post(
        reverse("choose_display"),
        {"larger": "1", "contrast": "yes", "next": "https://evil.example/"},
    )
    assert response["Location"] == "/"
    assert client.cookies[display.COOKIE_NAME].value == "larger"
    client.cookies[display.COOKIE_NAME] = '"><script>alert(1)</script>'
    body = page(client, reverse("home"))
    assert '<html lang="en">' in body
    assert "alert(1)" not in body


def test_spanish_and_portuguese_words(world, settings):
    from clubsite.tests.test_languages import speak

    keeper = persona_client(world, "keeper")
    speak(settings, "es")
    body = page(keeper, table_url(world))
    assert "Más grande" in body and "Alto contraste" in body and "Ayudas para leer" in body
    speak(settings, "pt-br")
    body = page(keeper, table_url(world))
    assert ">Maior<" in body and "Alto contraste" in body and "Ajudas para ler" in body
