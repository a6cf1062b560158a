"""Another club's table link, room code or board code opened at this club's address
leads to that club's own address (issue 31, item 6): its host name when it has one,
else ``/<slug>/`` at the site's own address, also when this club is on a host of its
own (where ``/<slug>/`` would be this club's path)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from members.clubs.scope import in_club
from members.tests.factories import ClubDayFactory, TableFactory

pytestmark = pytest.mark.django_db

SITE = "https://clubs.example.org"


@pytest.fixture(autouse=True)
def _shared(settings):
    settings.CLUBS_SHARED_SITE = True
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["clubs.example.org", "north.example", "south.example", "testserver"]


@pytest.fixture
def south(other_club):
    """Club B with a table and a board of today."""
    with in_club(other_club):
        day = ClubDayFactory(date=timezone.localdate())
        other_club.table = TableFactory(round__day=day)
        other_club.day = day
    return other_club


def _entries(client, south, **extra):
    """The four ways in with club B's secrets, at the client's address."""
    table, day = south.table, south.day
    return {
        "table link": client.get(f"/t/{table.token}/", **extra),
        "room code": client.post("/room/", {"room_code": table.room_code}, **extra),
        "board link": client.get(f"/board/code/{day.board_code}/", **extra),
        "board code": client.post("/board/", {"board_code": day.board_code}, **extra),
    }


def _wanted(south, base):
    return {
        "table link": f"{base}/t/{south.table.token}/",
        "room code": f"{base}/t/{south.table.token}/",
        "board link": f"{base}/board/code/{south.day.board_code}/",
        "board code": f"{base}/board/code/{south.day.board_code}/",
    }


def test_at_a_club_on_its_own_host_another_clubs_secrets_lead_to_the_sites_address(club, south):
    club.host = "north.example"
    club.save()
    answers = _entries(Client(), south, HTTP_HOST="north.example")
    assert {k: r["Location"] for k, r in answers.items()} == _wanted(south, f"{SITE}/south")
    # There the table link lets the phone in at club B.
    opened = Client().get(f"/south/t/{south.table.token}/", HTTP_HOST="clubs.example.org")
    assert opened["Location"] == f"/south/tables/{south.table.pk}/"


def test_another_clubs_secrets_lead_to_its_own_host(club, south):
    south.host = "south.example"
    south.save()
    answers = {
        "table link": Client().get(f"/{club.slug}/t/{south.table.token}/"),
        "room code": Client().post(f"/{club.slug}/room/", {"room_code": south.table.room_code}),
        "board link": Client().get(f"/{club.slug}/board/code/{south.day.board_code}/"),
        "board code": Client().post(f"/{club.slug}/board/", {"board_code": south.day.board_code}),
    }
    assert {k: r["Location"] for k, r in answers.items()} == _wanted(south, "http://south.example")
    opened = Client().get(f"/t/{south.table.token}/", HTTP_HOST="south.example")
    assert opened["Location"] == f"/tables/{south.table.pk}/"


def test_between_clubs_at_the_sites_address_the_path_leads_there(club, south):
    """The way that already worked stays: both clubs under /<slug>/ of the site."""
    answer = Client().get(f"/{club.slug}/t/{south.table.token}/")
    assert answer["Location"] == f"/south/t/{south.table.token}/"
