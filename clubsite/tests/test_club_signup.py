"""Self-service "Start a club" (``CLUB_SIGNUP``): off, its pages are 404 and nothing
links to them; on, a form, a signed, time-limited link by e-mail, and on confirming
one club with the person as its officer, who sets a password. A double tap makes one
club and sends one mail."""

from __future__ import annotations

import re
import time
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from members.clubs import signup
from members.clubs.services import create_club
from members.models import Club, ClubRole

START = "/accounts/start-club/"
PASSWORD = "a-long-pass-42"
FORM = {
    "club_name": "North Hills Canasta",
    "slug": "north-hills",
    "your_name": "Nora Nash",
    "email": "nora@example.org",
    "language_code": "en",
    "time_zone": "America/Chicago",
}


pytestmark = pytest.mark.django_db


@pytest.fixture
def shared(settings, db):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CLUBS_SHARED_SITE = True
    settings.CLUB_SIGNUP = True
    return settings


def confirm_path(mail) -> str:
    found = re.search(r"http://testserver(/accounts/start-club/\S+/)", mail.body)
    assert found, mail.body
    return found.group(1)


def test_off_the_pages_are_404_and_not_linked(settings, client):
    settings.CLUBS_SHARED_SITE = True
    settings.CLUB_SIGNUP = False
    assert "Start a club" not in client.get("/").content.decode()
    assert client.get(START).status_code == 404
    assert client.post(START, FORM).status_code == 404
    token = signup.make_token(FORM)
    assert client.post(f"{START}{token}/").status_code == 404
    assert not Club.objects.filter(slug="north-hills").exists()


def test_on_the_list_of_clubs_offers_it(shared, client):
    page = client.get("/").content.decode()
    assert "Start a club" in page and f'href="{START}"' in page


def test_the_whole_way_from_the_form_to_the_officers_password(shared, client, mailoutbox):
    sent = client.post(START, FORM)
    assert sent.status_code == 302
    assert "nora@example.org" in client.get(sent["Location"]).content.decode()
    [mail] = mailoutbox
    assert (
        mail.to == ["nora@example.org"] and mail.subject == "Confirm your new club on Canasta clubs"
    )
    assert "North Hills Canasta" in mail.body
    path = confirm_path(mail)

    page = client.get(path)  # a mail program checking the link makes nothing
    assert page.status_code == 200 and "Make the club" in page.content.decode()
    assert not Club.objects.filter(slug="north-hills").exists()

    made = client.post(path)
    assert made.status_code == 302
    assert made["Location"].startswith("http://testserver/north-hills/accounts/reset/")
    club = Club.objects.get(slug="north-hills")
    assert club.name == "North Hills Canasta"
    role = ClubRole.objects.with_scopes_disabled().select_related("user").get(club=club)
    assert role.user.email == "nora@example.org" and role.user.first_name == "Nora"

    form_url = client.get(made["Location"])["Location"]
    done = client.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/north-hills/"
    assert client.get("/north-hills/settings/").status_code == 200
    assert client.get(made["Location"], follow=True).content.decode().count("new_password1") == 0


def test_a_double_tap_makes_one_club_and_sends_one_mail(shared, client, mailoutbox):
    client.post(START, FORM)
    client.post(START, FORM)
    assert len(mailoutbox) == 1
    path = confirm_path(mailoutbox[0])
    first, second = client.post(path), client.post(path)
    assert first.status_code == second.status_code == 302
    assert second["Location"].startswith("http://testserver/north-hills/accounts/reset/")
    assert Club.objects.filter(slug="north-hills").count() == 1
    assert get_user_model().objects.filter(email="nora@example.org").count() == 1


def test_a_slug_taken_before_confirming_is_told(shared, client, mailoutbox):
    client.post(START, FORM)
    create_club("north-hills", "Someone Else")
    response = client.post(confirm_path(mailoutbox[0]))
    assert response.status_code == 409
    assert "Another club has the address /north-hills/" in response.content.decode()
    assert not ClubRole.objects.with_scopes_disabled().filter(club__slug="north-hills").exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"slug": "admin"}, "an address the site uses itself"),
        ({"slug": "north hills"}, "small letters"),
        ({"email": "nora"}, "valid email"),
        ({"club_name": ""}, "required"),
        # Longer than a login's e-mail can hold (a 500 at "Make the club" otherwise).
        ({"email": "n" * 250 + "@example.org"}, "at most 254 characters"),
    ],
)
def test_the_form_refuses_plainly(shared, client, mailoutbox, changes, message):
    page = client.post(START, {**FORM, **changes})
    assert page.status_code == 200 and message in page.content.decode()
    assert mailoutbox == []


def test_the_slug_of_a_club_is_refused_on_the_form(shared, client, other_club):
    page = client.post(START, {**FORM, "slug": "south"})
    assert "Another club has the address /south/" in page.content.decode()


def test_a_changed_or_ended_link_makes_nothing(shared, client):
    token = signup.make_token(FORM)
    changed = client.post(f"{START}{token[:-2]}xx/")
    assert changed.status_code == 400 and "not whole" in changed.content.decode()
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 49 * 3600):
        old = signup.make_token(FORM)
    ended = client.post(f"{START}{old}/")
    assert ended.status_code == 400 and "has ended" in ended.content.decode()
    assert not Club.objects.filter(slug="north-hills").exists()


def test_many_sign_ups_from_one_address_are_slowed(shared, client, mailoutbox, monkeypatch):
    monkeypatch.setattr(signup, "PER_ADDRESS_PER_HOUR", 2)
    for n in range(3):
        response = Client().post(
            START, {**FORM, "slug": f"club-{n}", "email": f"nora{n}@example.org"}
        )
    assert len(mailoutbox) == 2
    assert "try again in an hour" in response.content.decode()


def _from(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def test_one_recipient_gets_one_mail_whoever_asks_from_wherever(shared, mailoutbox):
    """Issue 31: from 20 client addresses, 100 sign-ups for one e-mail address sent it
    100 mails. Now it gets one in RECIPIENT_MINUTES, whatever the club and the client."""
    answers = [
        _from(f"198.51.100.{n % 20}").post(START, {**FORM, "slug": f"club-{n}"}) for n in range(100)
    ]
    assert len(mailoutbox) == 1
    assert answers[0].status_code == 302
    refused = answers[-1]
    assert refused.status_code == 200
    assert "less than 10 minutes ago" in refused.content.decode()
    # Another address is mailed as before.
    assert _from("192.0.2.1").post(START, {**FORM, "email": "olga@example.org"}).status_code == 302
    assert len(mailoutbox) == 2


def test_one_recipient_gets_a_few_mails_a_day(shared, mailoutbox, monkeypatch):
    monkeypatch.setattr(signup, "RECIPIENT_MINUTES", 0)  # the minutes' limit aside
    answers = [_from(f"203.0.113.{n}").post(START, {**FORM, "slug": f"club-{n}"}) for n in range(5)]
    assert len(mailoutbox) == signup.PER_RECIPIENT_PER_DAY == 3
    assert "try again tomorrow" in answers[-1].content.decode()


def test_the_limits_keys_never_hold_an_address(shared, mailoutbox, monkeypatch):
    """The shared cache (Redis) holds counters, not who was mailed nor who asked."""
    written = []
    real_add = signup.cache.add
    monkeypatch.setattr(
        signup.cache, "add", lambda key, *a, **k: written.append(key) or real_add(key, *a, **k)
    )
    _from("198.51.100.77").post(START, FORM)
    assert len(mailoutbox) == 1 and len(written) >= 3
    assert not [k for k in written if "nora" in k or "example.org" in k or "198.51" in k]


def test_someone_with_a_login_keeps_their_password(shared, client, mailoutbox, django_user_model):
    nora = django_user_model.objects.create_user("nora", "nora@example.org", PASSWORD)
    client.post(START, FORM)
    made = client.post(confirm_path(mailoutbox[0]))
    assert made["Location"] == "http://testserver/north-hills/accounts/login/"
    nora.refresh_from_db()
    assert nora.check_password(PASSWORD)
    assert ClubRole.objects.with_scopes_disabled().filter(club__slug="north-hills", user=nora)


def test_the_mails_subject_holds_nothing_the_sender_typed(shared, client, mailoutbox):
    """A stranger's words never reach a subject line (the mail is to someone who may not
    have asked); the body names the club as typed, unescaped."""
    client.post(START, {**FORM, "club_name": "O'Brien's & Co", "your_name": "Win a prize"})
    [mail] = mailoutbox
    assert mail.subject == "Confirm your new club on Canasta clubs"
    assert "O'Brien's & Co" in mail.body


def test_without_the_shared_cache_no_mail_goes_and_the_form_says_so(shared, client, mailoutbox):
    """The limits live in the shared cache: while it is away (a fail-soft Redis answers
    as an empty cache that keeps nothing) no mail goes, and the form says so instead of
    "sent"."""
    with mock.patch.object(signup.cache, "add", return_value=False):
        page = client.post(START, FORM)
    assert page.status_code == 200
    assert "could not be sent just now" in page.content.decode()
    assert mailoutbox == []


def _options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"', select.group(0))


def _selected(page: str, name: str) -> str:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)"[^>]*selected', select).group(1)


@pytest.mark.parametrize(
    ("browser", "language", "zone", "first"),
    [
        ("es-UY,es;q=0.9", "es", "America/Montevideo", "America/Montevideo"),
        ("pt-BR,pt;q=0.9,en;q=0.5", "pt-br", "America/Sao_Paulo", "America/Noronha"),
        ("en-US,en;q=0.9", "en", "America/New_York", "America/New_York"),
    ],
)
def test_the_form_asks_the_language_and_time_zone_the_browser_says(
    shared, browser, language, zone, first
):
    page = Client(HTTP_ACCEPT_LANGUAGE=browser).get(START).content.decode()
    assert _selected(page, "language_code") == language
    assert _selected(page, "time_zone") == zone  # the page's script may choose the browser's
    zones = _options(page, "time_zone")
    assert zones[0] == first  # the language's countries first, then every other
    assert "Asia/Tokyo" in zones and "UTC" in zones
    # Canonical names only: no deprecated alias of the same place.
    assert not {"US/Eastern", "America/Buenos_Aires", "Brazil/East", "GB"} & set(zones)
    assert "data-browser-time-zone" in page and "js/timezone.js" in page


def test_the_club_is_made_in_the_language_time_zone_and_paper_chosen(shared, client, mailoutbox):
    client.post(START, {**FORM, "language_code": "pt-br", "time_zone": "America/Recife"})
    client.post(confirm_path(mailoutbox[0]))
    club = Club.objects.get(slug="north-hills")
    assert (club.language_code, club.time_zone, club.paper) == ("pt-br", "America/Recife", "A4")


def test_an_english_club_prints_on_letter_unless_the_site_says(shared, client, mailoutbox):
    client.post(START, FORM)
    client.post(confirm_path(mailoutbox[0]))
    club = Club.objects.get(slug="north-hills")
    assert (club.language_code, club.time_zone, club.paper) == ("en", "America/Chicago", "Letter")
    shared.CLUB_PAPER = "A4"
    assert create_club("south-hills", "South", language_code="en").paper == "A4"


def test_the_form_refuses_a_time_zone_not_on_its_list(shared, client, mailoutbox):
    page = client.post(START, {**FORM, "time_zone": "US/Eastern"}).content.decode()
    assert "Select a valid choice" in page and mailoutbox == []


def test_a_link_sent_before_the_form_asked_still_makes_the_club(shared, client, settings):
    old = {k: FORM[k] for k in ("club_name", "slug", "your_name", "email")}
    made = client.post(f"{START}{signup.make_token(old)}/")
    assert made.status_code == 302
    club = Club.objects.get(slug="north-hills")
    assert club.time_zone == settings.TIME_ZONE and club.language_code == settings.CLUB_LANGUAGE


@pytest.mark.parametrize(
    ("browser", "lang", "words"),
    [
        ("es-AR,es;q=0.9", "es", "Crear un club"),
        ("pt-BR,pt;q=0.9", "pt-br", "Criar um clube"),
        ("en-US,en;q=0.9", "en", "Start a club"),
    ],
)
def test_the_pages_speak_the_browsers_language_before_there_is_a_club(
    shared, mailoutbox, browser, lang, words
):
    """A Spanish browser was offered Spanish in the form on an English page: the pages
    of "Start a club" are drawn in the language the browser asks for (the phone's switch
    first), and the link's page in the language chosen on the form."""
    client = Client(HTTP_ACCEPT_LANGUAGE=browser)
    response = client.get(START)
    page = response.content.decode()
    assert f'<html lang="{lang}"' in page and f"<h1>{words}</h1>" in page
    assert response["Content-Language"] == lang and "Accept-Language" in response["Vary"]
    client.cookies["club_language"] = "en"  # the switch, tapped on this phone
    assert "<h1>Start a club</h1>" in client.get(START).content.decode()
    shared.CLUB_LANGUAGE = "es"  # a browser that says no language: the site's
    assert "<h1>Crear un club</h1>" in Client().get(START).content.decode()
    Client().post(START, {**FORM, "language_code": "pt-br"})
    page = Client().get(confirm_path(mailoutbox[0])).content.decode()
    assert '<html lang="pt-br"' in page and "Criar um clube" in page


def test_the_browsers_old_name_of_its_time_zone_is_found_in_the_list():
    """Chromium says "America/Cordoba" and "Asia/Calcutta" (old names the list, of
    canonical names only, lacks): the form tells the page's script which zone each old
    name is."""
    from members.clubs import zones

    aliases = zones.aliases()
    assert aliases["America/Cordoba"] == "America/Argentina/Cordoba"
    assert aliases["America/Buenos_Aires"] == "America/Argentina/Buenos_Aires"
    assert aliases["Asia/Calcutta"] == "Asia/Kolkata"
    assert set(aliases.values()) <= zones.canonical_zones()
    form = signup.SignupForm(language="es")
    attribute = form.fields["time_zone"].widget.attrs["data-aliases"]
    assert '"America/Cordoba":"America/Argentina/Cordoba"' in attribute
