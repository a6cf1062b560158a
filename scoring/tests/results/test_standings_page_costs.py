"""What keeps the standings page cheap, and what must not change with it: a cached page
is the settings row (with the stamp and the viewer's questions) and one cache read; the
parts around the cached body follow the viewer; the season's stored rows carry the same
ratings as a recompute."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import ClubSettings, HandConfirmation, RatingPoint, ResultsVersion, Season
from scoring.results.cache import page_state
from scoring.results.standings.individual import (
    individual,
    partnerships,
    season_individual,
    season_partnerships,
)
from scoring.tests.results.conftest import DAY1, DAY2

pytestmark = pytest.mark.django_db

STANDINGS = reverse("scoring:standings")


def _season():
    return Season.objects.create(name="2025", start=DAY1, end=datetime.date(2025, 12, 31))


def test_a_cached_standings_page_costs_one_row_and_one_cache_read(officer_client, small_club):
    _season()
    officer_client.get(STANDINGS)  # draws and keeps the page
    with CaptureQueriesContext(connection) as cached:
        response = officer_client.get(STANDINGS)
    assert response.status_code == 200 and "result" not in response.context
    # the club the address is for, the session, the user, the officer flag (Django
    # reads each in its own query), the settings row with the stamp, the cache read:
    # the period, the seasons and the viewer's person are not read again.
    assert len(cached) == 6, [q["sql"] for q in cached]
    ResultsVersion.bump()  # a game finished: the page is drawn again
    with CaptureQueriesContext(connection) as drawn:
        again = officer_client.get(STANDINGS)
    assert "result" in again.context
    assert again.content.count(b'name="season"') == 1
    # drawn: the five above, the seasons once (the choices; the period is found among
    # them), the season's stored rows, and the database cache's write (five statements).
    assert len(drawn) <= 13, [q["sql"] for q in drawn]


@pytest.mark.parametrize("chosen", ["", "current", "2025", "2024", "all", "99"])
def test_the_period_is_chosen_from_the_seasons_read_for_the_choices(db, chosen):
    """The form resolves the period among the seasons the choices read: one query of
    seasons, and the period the lookups would give."""
    from scoring.results import standings
    from scoring.results.filters import StandingsFilter

    seasons = {
        "2025": _season(),
        "2024": Season.objects.create(
            name="2024", start=datetime.date(2024, 1, 1), end=datetime.date(2024, 12, 31)
        ),
    }
    value = str(seasons[chosen].pk) if chosen in seasons else chosen
    with CaptureQueriesContext(connection) as read:
        filterset = StandingsFilter.for_request({"season": value} if value else {})
        valid = filterset.is_valid()
        period = filterset.period
    assert sum("scoring_season" in q["sql"] for q in read) == 1, [q["sql"] for q in read]
    if chosen == "99":  # not a choice
        assert not valid and period is None
    elif chosen in seasons:
        assert period == standings.season_period(seasons[chosen])
    elif chosen == "all":
        assert period == standings.ALL_GAMES
    else:
        assert period == standings.default_period()


def test_the_parts_around_a_cached_body_follow_the_viewer(small_club, member_person):
    url = STANDINGS + "?season=all"
    officer = Client()
    officer.force_login(get_user_model().objects.create_superuser("boss", password="x-123456"))
    member = Client()
    member.force_login(member_person.user)
    nobody = Client()
    nobody.force_login(get_user_model().objects.create_user("plain", password="x-123456"))
    first = officer.get(url).content.decode()
    assert "Ranking settings" in first and "Find my row" not in first
    member_page = member.get(url)
    assert "result" not in member_page.context  # the same cached parts
    assert "Find my row" in member_page.content.decode()
    assert "Ranking settings" not in member_page.content.decode()
    assert "Find my row" not in nobody.get(url).content.decode()


def test_the_note_on_unconfirmed_hands_is_looked_for_only_when_one_waits(
    officer_client, small_club, officer_user
):
    assert page_state(officer_user).open_hands is False
    with CaptureQueriesContext(connection) as none_open:
        officer_client.get(STANDINGS + "?season=all")
    note = [
        q for q in none_open if "handconfirmation" in q["sql"] and "_open_hands" not in q["sql"]
    ]
    assert not note


def test_page_state_is_one_query(officer_user, member_person):
    page_state(officer_user)  # the first one makes the settings row
    with CaptureQueriesContext(connection) as captured:
        state = page_state(officer_user)
    assert len(captured) == 1
    assert state.club == ClubSettings.objects.get()  # the club's one row, whatever its id
    assert state.has_person is False and state.open_hands is False
    assert page_state(member_person.user).has_person is True
    before = state.stamp
    ResultsVersion.bump()
    assert page_state(officer_user).stamp != before
    assert HandConfirmation.objects.count() == 0


def pair(row):
    return row["pair"]


def test_season_rows_and_their_ratings_agree_with_a_recompute(small_club):
    season = _season()
    assert RatingPoint.objects.exists()  # the games were rated as they finished
    end = datetime.date(2025, 3, 10)  # the first day only, for the ratings up to then
    cut = Season.objects.create(name="early", start=DAY1, end=end)
    for s in (season, cut):
        for guests in (True, False):
            stored = sorted(
                season_individual(s, include_guests=guests), key=lambda r: r["person_id"]
            )
            counted = sorted(
                individual(s.start, s.end, include_guests=guests), key=lambda r: r["person_id"]
            )
            assert stored == counted
            assert any(r["rating"] is not None for r in stored)
            pairs = season_partnerships(s, include_guests=guests)
            recount = partnerships(s.start, s.end, include_guests=guests)
            assert sorted(pairs, key=lambda r: r["pair"]) == sorted(
                recount, key=lambda r: r["pair"]
            )
    assert end < DAY2


def test_the_officers_links_under_the_standings(small_club, member_person):
    officer = Client()
    officer.force_login(get_user_model().objects.create_superuser("boss", password="x-123456"))
    page = officer.get(STANDINGS + "?season=all&sort=games").content.decode()
    workbook = reverse("scoring:league_workbook") + "?season=all"
    assert f'href="{workbook}"' in page
    assert f'href="{reverse("scoring:standings_settings")}"' in page
    assert f'href="{reverse("scoring:seasons")}"' in page
    member = Client()
    member.force_login(member_person.user)
    assert reverse("scoring:standings_settings") not in member.get(STANDINGS).content.decode()
