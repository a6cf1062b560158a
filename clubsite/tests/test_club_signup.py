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

from clubsite.clubs import signup
from clubsite.clubs.services import create_club
from members.models import Club, ClubRole

START = "/accounts/start-club/"
PASSWORD = "a-long-pass-42"
FORM = {
    "club_name": "North Hills Canasta",
    "slug": "north-hills",
    "your_name": "Nora Nash",
    "email": "nora@example.org",
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
    assert mail.to == ["nora@example.org"] and "North Hills Canasta" in mail.subject
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
        response = Client().post(START, {**FORM, "slug": f"club-{n}"})
    assert len(mailoutbox) == 2
    assert "try again in an hour" in response.content.decode()


def test_someone_with_a_login_keeps_their_password(shared, client, mailoutbox, django_user_model):
    nora = django_user_model.objects.create_user("nora", "nora@example.org", PASSWORD)
    client.post(START, FORM)
    made = client.post(confirm_path(mailoutbox[0]))
    assert made["Location"] == "http://testserver/north-hills/accounts/login/"
    nora.refresh_from_db()
    assert nora.check_password(PASSWORD)
    assert ClubRole.objects.with_scopes_disabled().filter(club__slug="north-hills", user=nora)


def test_the_mails_subject_is_the_clubs_name_as_typed(shared, client, mailoutbox):
    client.post(START, {**FORM, "club_name": "O'Brien's & Co"})
    [mail] = mailoutbox
    assert mail.subject == "Confirm your new club: O'Brien's & Co"
