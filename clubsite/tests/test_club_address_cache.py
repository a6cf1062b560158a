"""The club of an address is looked up once and kept in the shared cache; any change to
a club or to its old slugs retires every kept answer at once (on every server: the
version is in the shared cache), so a renamed, moved or suspended club is seen at the
next request."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from members.clubs.addresses import VERSION_KEY
from members.clubs.services import move_club
from members.models import ClubSlugRedirect

pytestmark = pytest.mark.django_db


def _club_reads(client, path) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(path)
    reads = [q for q in captured.captured_queries if 'FROM "members_club"' in q["sql"]]
    return len(reads), answer


@pytest.fixture
def shared(settings, club, other_club):
    settings.CLUBS_SHARED_SITE = True
    return other_club


def test_the_club_of_an_address_is_read_once(shared):
    visitor = Client()
    assert _club_reads(visitor, "/south/")[0] == 1
    reads, answer = _club_reads(visitor, "/south/")
    assert answer.status_code == 200 and reads == 0
    assert _club_reads(Client(), "/south/board/")[0] == 0  # same club, another page


def test_a_renamed_club_is_seen_at_once(shared):
    visitor = Client()
    assert shared.name in visitor.get("/south/").content.decode()
    shared.name = "South Hills Club"
    shared.save()
    reads, answer = _club_reads(visitor, "/south/")
    assert reads == 1 and "South Hills Club" in answer.content.decode()


def test_a_moved_club_is_seen_at_once_and_its_old_slug_redirects(shared):
    visitor = Client()
    assert visitor.get("/south/").status_code == 200
    assert visitor.get("/south-hills/")["Location"] == "/club/south-hills/"  # no club's yet
    move_club(shared, "south-hills")
    moved = visitor.get("/south/")
    assert moved.status_code == 301 and moved["Location"] == "/south-hills/"
    assert visitor.get("/south-hills/").status_code == 200
    ClubSlugRedirect.objects.filter(old_slug="south").delete()  # the old slug let go
    assert visitor.get("/south/")["Location"] == "/club/south/"  # no club's now


def test_a_suspended_club_is_seen_at_once(shared):
    visitor = Client()
    assert visitor.get("/south/").status_code == 200
    shared.is_active = False
    shared.save()
    assert visitor.get("/south/").status_code == 403


def test_a_change_made_on_another_server_is_seen(shared):
    """Another server saved a change: it gave the addresses a new version in the shared
    cache, which no answer kept here has."""
    visitor = Client()
    assert visitor.get("/south/").status_code == 200
    type(shared).objects.filter(pk=shared.pk).update(is_active=False)  # no signal here
    assert visitor.get("/south/").status_code == 200  # the kept answer
    cache.set(VERSION_KEY, "another server's", None)
    assert visitor.get("/south/").status_code == 403


def test_guessed_first_parts_are_not_kept(shared):
    """A scanner's made-up addresses cannot fill the shared cache."""
    visitor = Client()
    visitor.get("/south/")
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM club_cache")
        before = cursor.fetchone()[0]
        for guess in ("wp-admin", "phpmyadmin", "backup-2024", "xyz"):
            assert visitor.get(f"/{guess}/").status_code != 200
        cursor.execute("SELECT COUNT(*) FROM club_cache")
        assert cursor.fetchone()[0] == before
