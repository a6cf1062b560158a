"""Journeys: what the service worker keeps for a device without a network (issue 22).

Only the table page as a table-link holder sees it is kept, for that grant; a page
drawn for a logged-in officer never is, and an officer's tablet that logged out shows
no officer page offline. A link phone gets its table page offline after a reload until
its grant ends (here: the day closes), and then no longer.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from members.models import ClubDay
from members.services.days import close_day
from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import RuleSet
from scoring.play.services.games import start_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = "table-pages-v2"  # static/js/sw.js
KEPT = f"caches.open('{PAGES}').then(c => c.keys()).then(k => k.map(r => r.url))"
NOT_KEPT = "this table page is not kept on this phone"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game(db):
    day = ClubDayFactory(date=timezone.localdate(), title="Thursday")
    people = [
        MemberFactory(first_name=first, last_name=last, membership_number=str(101 + i))
        for i, (first, last) in enumerate(
            [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]
        )
    ]
    table = TableFactory(round=RoundFactory(day=day, number=1), number=1, seated=people)
    for person in people:
        SignInFactory(day=day, person=person, card_shown=False)
    ann, bob, cat, dan = people
    return start_game(
        table,
        [[ann, cat], [bob, dan]],
        rule_set=RuleSet.objects.get(slug="club"),
        score_keeper=ann,
        first_dealer=ann,
        now=timezone.now(),
    )


def under_the_worker(page):
    """Reload until the service worker answers this page's navigations."""
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def kept(page) -> list[str]:
    return page.evaluate(KEPT)


def open_offline(page, url):
    """Open ``url`` without a network: the page the worker gives, or Chromium's own
    error page when there is no worker any more (both are checked the same way)."""
    try:
        page.goto(url)
    except PlaywrightError as error:  # no worker left: the browser's offline error
        assert "ERR_INTERNET_DISCONNECTED" in str(error)
    return page


def test_an_officers_tablet_shows_no_officer_page_offline_after_logout(journey, game, officer_user):
    page = journey.page
    table_url = f"{journey.base_url}/tables/{game.table_id}/"
    journey.login("officer", "officer-pass-123")
    page.goto(table_url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    under_the_worker(page)
    expect(page.get_by_role("link", name="Game details and history")).to_be_visible()
    journey.step("officer's tablet: the table page, under the service worker")
    page.wait_for_timeout(500)
    assert kept(page) == []  # drawn for a logged-in officer: never kept
    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    expect(page.get_by_role("contentinfo").get_by_role("link", name="Log in")).to_be_visible()

    page.context.set_offline(True)
    open_offline(page, table_url)
    text = page.locator("body").inner_text()
    # Chromium's own offline page, or the worker's plain words: nothing for axe to check.
    journey.step("officer's tablet offline after logout", check_accessibility=False)
    assert "Game 1" not in text and "Game details" not in text
    assert "Signed in as" not in text and "Olive" not in text and "Log out" not in text
    assert "Ann" not in text  # no players, no scores
    page.context.set_offline(False)


def test_a_link_phone_keeps_its_table_page_offline_until_the_day_closes(journey, game):
    page = journey.page
    page.goto(f"{journey.base_url}/t/{game.table.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    under_the_worker(page)
    page.wait_for_function(f"{KEPT}.then(k => k.length === 1)")
    assert kept(page)[0].endswith(f"/tables/{game.table_id}/?grant={game.table_id}-{game.day_id}")

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    assert "Signed in as" not in page.locator("body").inner_text()
    journey.step("link phone offline: its table page, after a reload")
    page.context.set_offline(False)

    close_day(ClubDay.objects.get(pk=game.day_id))
    page.reload()
    expect(page.get_by_text("This club day is closed")).to_be_visible()
    page.wait_for_function(f"{KEPT}.then(k => k.length === 0)")
    journey.step("link phone: the day closed")

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_text(NOT_KEPT)).to_be_visible()
    assert "Save hand" not in page.locator("body").inner_text()
    page.context.set_offline(False)


def test_the_installed_app_opens_the_kept_table_offline_or_says_what_to_do(journey, game):
    """The home-screen app opens /app/: the table this phone opened last. Offline it is
    the kept table page; once nothing is kept, a page saying what to do."""
    page = journey.page
    page.goto(f"{journey.base_url}/t/{game.table.token}/")
    under_the_worker(page)
    page.wait_for_function(f"{KEPT}.then(k => k.length === 1)")

    page.goto(f"{journey.base_url}/app/")
    expect(page).to_have_url(f"{journey.base_url}/tables/{game.table_id}/")
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    journey.step("installed app, online: its table")

    page.context.set_offline(True)
    page.goto(f"{journey.base_url}/app/")
    expect(page).to_have_url(f"{journey.base_url}/tables/{game.table_id}/")
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    journey.step("installed app, offline: the kept table page")
    page.context.set_offline(False)

    close_day(ClubDay.objects.get(pk=game.day_id))
    page.goto(f"{journey.base_url}/tables/{game.table_id}/")
    page.wait_for_function(f"{KEPT}.then(k => k.length === 0)")
    page.context.set_offline(True)
    page.goto(f"{journey.base_url}/app/")
    expect(page.get_by_text("no table page is kept on this phone")).to_be_visible()
    expect(page.get_by_text("type the room code on your table card")).to_be_visible()
    journey.step("installed app, offline, nothing kept: what to do")
    page.context.set_offline(False)
