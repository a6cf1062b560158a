"""A page costs the same number of queries on a site of three clubs as on a site of
one: every read is the club's own (its rows found through indexes that start with the
club), and the club of an address is one query whatever the number of clubs."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubsite.tests.test_personas import build_world
from members.clubs.scope import in_club
from members.clubs.services import create_club
from scoring.devtools.bench.queries import data_queries

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _pages(world) -> list[str]:
    """Club pages an officer opens on a club night (addresses inside the club)."""
    return [
        "/",
        "/days/",
        f"/days/{world.day.pk}/",
        f"/days/{world.day.pk}/door/",
        "/people/",
        f"/tables/{world.table1.pk}/",
        f"/games/{world.playing.pk}/",
        "/standings/",
        "/results/",
        f"/results/{world.last_week.pk}/",
        "/records/",
        f"/players/{world.olga.pk}/",
        "/rules/",
        "/settings/",
    ]


def _costs(client, prefix: str, pages) -> dict[str, int]:
    """Each page's queries, drawn anew (an empty cache), then once more (its cached
    body)."""
    costs = {}
    for page in pages:
        for kind in ("drawn", "cached"):
            if kind == "drawn":
                cache.clear()
            with CaptureQueriesContext(connection) as captured:
                response = client.get(prefix + page)
            assert response.status_code == 200, (prefix + page, response.status_code)
            costs[f"{kind} {page}"] = len(data_queries(captured.captured_queries))
    return costs


def _officer(world) -> Client:
    """The officer in a browser of its own (the session starts the same each run)."""
    client = Client()
    client.force_login(world.officer)
    return client


def test_page_costs_do_not_grow_with_the_number_of_clubs(club):
    world = build_world()
    pages = _pages(world)
    alone = _costs(_officer(world), "", pages)  # the only club, at /

    for slug in ("north", "south"):
        other = create_club(slug, f"{slug.title()} Club")
        with in_club(other):
            build_world(prefix=f"{slug}-")
    among_three = _costs(_officer(world), f"/{club.slug}", pages)  # at /<slug>/ now

    assert among_three == alone


def test_page_costs_do_not_grow_with_generated_clubs(club):
    """``generate_league --clubs`` fills other clubs with whole leagues: this club's pages
    cost what they cost alone."""
    from django.core.management import call_command

    world = build_world()
    pages = _pages(world)
    alone = _costs(_officer(world), "", pages)
    tiny = ["--people", "16", "--years", "1", "--days-per-year", "2", "--tables-min", "2"]
    call_command("generate_league", *tiny, "--tables-max", "3", "--quiet", "--clubs", "2")
    assert _costs(_officer(world), f"/{club.slug}", pages) == alone
