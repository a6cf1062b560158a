"""Every results page costs the same number of SQL queries however much history there
is: a small league and one several times bigger are measured page by page."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from members.clubs.addresses import find_club_cached
from members.models import ClubDay
from scoring.models import ClubSettings, Season
from scoring.tests import games
from scoring.tests.samples import CONCEALED, LOSE

pytestmark = pytest.mark.django_db


def pages(pool):
    player = pool[0][0]
    latest = ClubDay.objects.order_by("-date").first()
    return {
        "standings": reverse("scoring:standings"),
        "standings, all games, sorted": reverse("scoring:standings") + "?season=all&sort=-average",
        "standings without guests": reverse("scoring:standings") + "?guests=hide",
        "standings CSV": reverse("scoring:standings") + "?_export=csv",
        "partnerships": reverse("scoring:partnerships"),
        "day results": reverse("scoring:day_results"),
        "one day": reverse("scoring:day_result", args=[latest.pk]),
        "records": reverse("scoring:records"),
        "player": reverse("scoring:player", args=[player.pk]),
        "player, page 2": reverse("scoring:player", args=[player.pk]) + "?page=2",
        "seasons": reverse("scoring:seasons"),
    }


def _prepare(url, cold: bool) -> None:
    if cold:
        cache.clear()  # measure the page as computed, not as cached
        # The club of the address stays kept (members.clubs.addresses): it is looked up
        # again only after a club changes, not when a results page is drawn anew.
        find_club_cached(RequestFactory().get(url))


def count_queries(client, urls, cold: bool) -> dict[str, int]:
    counts = {}
    for name, url in urls.items():
        client.get(url)  # warm up (the settings row, the session; the cache when warm)
        _prepare(url, cold)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, name
        counts[name] = len(captured)
    return counts


def assert_same_queries(client, urls, expected, cold, django_assert_max_num_queries):
    """Each page makes exactly as many queries as before (the SQL is shown on failure)."""
    for name, url in urls.items():
        client.get(url)
        _prepare(url, cold)
        with django_assert_max_num_queries(expected[name]) as captured:
            response = client.get(url)
        assert response.status_code == 200, name
        assert len(captured) == expected[name], name


def test_query_counts_do_not_grow_with_history(officer_client, django_assert_max_num_queries):
    Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    ClubSettings.objects.update_or_create(defaults={"min_games_to_rank": 3})
    pool = games.league(days=2, tables=2, games=2)  # 8 games
    cold = count_queries(officer_client, pages(pool), cold=True)
    warm = count_queries(officer_client, pages(pool), cold=False)
    # Three times the history: more days, more games a table, the same people playing on.
    games.league(days=4, games=4, start=datetime.date(2025, 4, 3), pool=pool)  # +32 games
    urls = pages(pool)
    assert_same_queries(officer_client, urls, cold, True, django_assert_max_num_queries)
    assert_same_queries(officer_client, urls, warm, False, django_assert_max_num_queries)
    # The shared cache is a database table by default: a cold page also pays for emptying
    # it here, reading the missing body, and storing the new one (count, look-up, write).
    assert max(cold.values()) <= 30 + 5, cold
    # A cached page costs the session, the settings, the period, the fingerprint and the
    # cache read.
    cached = {name: n for name, n in warm.items() if "CSV" not in name and name != "one day"}
    assert max(cached.values()) <= 9 + 1, warm


def test_a_cached_page_changes_when_a_game_finishes(member_client):
    pool = games.league(days=1, tables=1, games=1)
    url = reverse("scoring:standings") + "?season=all"
    before = member_client.get(url).context["result"]
    assert sum(r["games"] for r in before.rows) == 4
    again = member_client.get(url)
    assert "result" not in again.context  # served from the cache
    games.league(days=1, games=1, start=datetime.date(2025, 6, 5), pool=pool)
    after = member_client.get(url).context["result"]
    assert sum(r["games"] for r in after.rows) == 8


def test_a_cached_page_changes_when_a_finished_game_is_corrected(member_client):
    from django.test import TestCase

    from scoring.models import Game, Hand
    from scoring.play.services.hands import correct_hand

    games.league(days=1, tables=1, games=1)
    url = reverse("scoring:day_results")
    assert "6,600" in member_client.get(url).content.decode()
    game = Game.objects.get()
    last = Hand.objects.get(game=game, number=3)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(last, [CONCEALED, LOSE], expected_version=last.version)
    assert "7,500" in member_client.get(url).content.decode()
