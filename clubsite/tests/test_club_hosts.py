"""A club's host name is never one of the site's own (issue 31, item 1): the host the
shared site is served on (``SITE_URL``'s, ``SITE_HOSTS``), the machine's own names and
addresses, nor another club's; case and a final dot make no difference. Each way a club
gets a host asks the one rule (``members.clubs.addresses.host_problem``): the
``create_club`` service and command, ``import_club`` and the admin's club form."""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client

from clubsite.tests.test_club_operator import change_data
from members.clubs.importer import import_club
from members.clubs.portable import export_club
from members.clubs.services import create_club
from members.models import Club

pytestmark = pytest.mark.django_db

SITE = "clubs.example.org"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = f"https://{SITE}"
    settings.SITE_HOSTS = ["www.clubs.example.org"]
    settings.ALLOWED_HOSTS = [SITE, "www.clubs.example.org", "north.example", "testserver"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.parametrize(
    "host",
    [SITE, "Clubs.Example.ORG.", " www.clubs.example.org ", "localhost", "127.0.0.1", "[::1]"],
)
def test_create_club_refuses_an_address_of_the_site_itself(host):
    with pytest.raises(ValidationError) as refused:
        create_club("north", "North Club", host=host)
    (message,) = refused.value.message_dict["host"]
    assert "an address of the site itself" in message
    assert not Club.objects.filter(slug="north").exists()


def test_create_club_refuses_another_clubs_host_whatever_its_case_and_final_dot():
    create_club("north", "North Club", host="north.example")
    with pytest.raises(ValidationError) as refused:
        create_club("south", "South Club", host="NORTH.example.")
    assert refused.value.message_dict["host"] == [
        "Another club has the host name north.example already."
    ]


def test_create_club_refuses_what_is_not_a_host_name():
    with pytest.raises(ValidationError) as refused:
        create_club("north", "North Club", host="https://north.example/")
    assert "is not a host name" in refused.value.message_dict["host"][0]


def test_a_host_of_its_own_is_kept_folded_and_serves_the_club():
    club = create_club("north", "North Club", host="North.Example.")
    assert club.host == "north.example"
    page = Client().get("/", HTTP_HOST="north.example")
    assert page.status_code == 200 and page.context["request"].club == club


def test_the_create_club_command_refuses_the_sites_host_in_plain_words():
    with pytest.raises(CommandError) as refused:
        call_command(
            "create_club",
            "north",
            "--name",
            "North Club",
            "--officer-username",
            "nora",
            "--officer-password",
            "nora-pass-123",
            "--host",
            SITE.upper(),
            stdout=io.StringIO(),
        )
    assert str(refused.value).startswith(f"The host name: {SITE} is an address of the site")
    assert not Club.objects.filter(slug="north").exists()


def test_import_club_never_gives_the_copy_the_sites_host(club, tmp_path):
    path = tmp_path / "club.json"
    export_club(club, path)
    document = json.loads(path.read_text())
    document["club"]["host"] = f"{SITE}."
    path.write_text(json.dumps(document))
    done = import_club(path, slug="copy")
    copy = Club.objects.get(slug="copy")
    assert copy.host is None
    assert any("an address of the site itself" in note for note in done.notes)
    front = Client().get("/", HTTP_HOST=SITE)
    assert front.context["request"].club is None  # the site's own front page still


def test_the_admin_refuses_the_sites_host_for_a_club(admin_client, other_club):
    response = admin_client.post(
        f"/admin/members/club/{other_club.pk}/change/", change_data(other_club, host=SITE)
    )
    assert response.status_code == 200
    assert "an address of the site itself" in response.content.decode()
    other_club.refresh_from_db()
    assert other_club.host is None


def test_the_admin_refuses_another_clubs_host_and_keeps_a_clubs_own(admin_client, other_club):
    north = create_club("north", "North Club", host="north.example")
    response = admin_client.post(
        f"/admin/members/club/{other_club.pk}/change/",
        change_data(other_club, host="North.Example."),
    )
    assert "Another club has the host name north.example already." in response.content.decode()
    response = admin_client.post(
        f"/admin/members/club/{north.pk}/change/", change_data(north, name="North Club 2")
    )
    assert response.status_code == 302
    north.refresh_from_db()
    assert north.name == "North Club 2" and north.host == "north.example"


def test_a_club_given_the_sites_host_before_the_rule_does_not_take_the_site(other_club):
    """A host saved before the rule existed (or by hand) still never makes the site's own
    address a club's."""
    Club.objects.filter(pk=other_club.pk).update(host=SITE)
    front = Client().get("/", HTTP_HOST=SITE)
    assert front.status_code == 200
    assert front.context["request"].club is None
