"""Journey: a member reads the standings, finds their row, reads a new member's page
and a day still in play, on a phone (390 px) and on a desktop (1,280 px), in a real
browser: nothing is clipped (no cell or heading narrower than its text, no table
wider than its box in the main columns), and a new member's rating is positive with the
sentence that explains it.
"""

import datetime

import pytest
from playwright.sync_api import expect

from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.models import ClubSettings
from scoring.results import ratings
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Every cell, heading and table box of the page's main part whose content is wider
# than the box that shows it (1 px of rounding allowed). Only the table of every
# standings column (not "cards") may scroll sideways in its box.
CLIPPED = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => !e.classList.contains("sr-only") && e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.tagName}.${e.className} “${e.innerText.slice(0, 30)}” `
            + `${e.scrollWidth} > ${e.clientWidth}`)"""
CELLS = "main th, main td, main h1, main h2, main .table-container.cards"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(member_person):
    """Mary (logged in) and long-named partners over two days, a new member who lost
    her only game, and a game still in play on the second day."""
    ClubSettings.objects.update_or_create(defaults={"min_games_to_rank": 2})
    mary = member_person
    meg = MemberFactory(first_name="Margaret", last_name="Fitzwilliam-Henderson", name_only=True)
    bob = MemberFactory(first_name="Bartholomew", last_name="Baker", name_only=True)
    cat = MemberFactory(first_name="Catherine", last_name="Coleridge", name_only=True)
    nora = MemberFactory(first_name="Nora", last_name="Newcomer", name_only=True)
    gus = GuestFactory(first_name="Gus", last_name="Guest", brought_by=mary)
    day1 = ClubDayFactory(date=datetime.date(2025, 3, 6), signed_in=[mary, meg, bob, cat])
    t1 = TableFactory(round__day=day1, seated=[mary, meg, bob, cat])
    for winners, losers in (([mary, meg], [bob, cat]), ([bob, meg], [mary, cat])) * 2:
        games.win(t1, winners, losers)
    day2 = ClubDayFactory(date=datetime.date(2025, 3, 13), signed_in=[mary, meg, nora, gus])
    t2 = TableFactory(round__day=day2, seated=[mary, meg, nora, gus])
    games.win(t2, [mary, meg], [nora, gus])
    games.play(t2, [[mary, nora], [meg, gus]], [[LOSE, WIN]])  # in play: Meg & Gus lead
    return {"mary": mary, "nora": nora, "day2": day2}


def assert_nothing_clipped(page, where: str):
    clipped = page.evaluate(CLIPPED, CELLS)
    assert not clipped, f"{where} at {page.viewport_size['width']} px: {clipped}"
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"{where}: the page is {wide} px wider than the screen"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390px", "1280px"])
def test_a_member_reads_standings_and_pages_without_anything_clipped(journey, club, size):
    page = journey.page
    page.set_viewport_size(size)
    journey.login("member", "member-pass-123")

    # The standings: the main columns, Rating among them, all in view.
    journey.goto("/standings/?season=all")
    standings = page.locator("table.standings").first
    expect(standings.locator("thead")).to_contain_text("Rating")
    expect(page.get_by_text("More columns: Lost, Points for")).to_be_visible()
    expect(page.get_by_role("heading", name="Not ranked yet: fewer than 2 games")).to_be_visible()
    assert_nothing_clipped(page, "standings")
    journey.step("standings, main columns")

    # One tap to Mary's own row.
    page.get_by_role("link", name="Find my row").click()
    assert page.url.endswith(f"#p-{club['mary'].pk}")
    expect(page.locator(f"tr#p-{club['mary'].pk}")).to_be_in_viewport()

    # Every column: the table scrolls in its box, no cell is cut.
    page.get_by_role("link", name="All columns").click()
    expect(standings.locator("thead")).to_contain_text("Perfect cuts")
    assert not page.evaluate(CLIPPED, "main th, main td")
    journey.step("standings, all columns")

    # Nora's page: new, lost her only game, rating below 1,000 but positive, explained.
    journey.goto(f"/players/{club['nora'].pk}/")
    rating = page.locator(".totals div", has_text="Rating").locator("dd").first.inner_text()
    assert 0 < int(rating.replace(",", "")) < ratings.NEW_PLAYER_RATING
    expect(page.get_by_text(ratings.SENTENCE)).to_be_visible()
    chart = page.locator("figure.chart-box svg[role=img]").nth(1)
    expect(chart.locator("desc")).to_contain_text("Start at 1,000")
    assert_nothing_clipped(page, "a new member's page")
    journey.step("a new member's page")

    # Mary's own page: partners and opponents without "Differe…".
    journey.goto(f"/players/{club['mary'].pk}/")
    expect(page.get_by_role("heading", name="Partners")).to_be_visible()
    assert_nothing_clipped(page, "own page")
    journey.step("own page")

    # The second day, a game still in play: its team ahead is "Leading", not winners.
    journey.goto(f"/results/{club['day2'].pk}/")
    expect(page.locator("td", has_text="Leading").first).to_contain_text("Gus Guest")
    assert_nothing_clipped(page, "day results")
    journey.step("a day in play")

    # The partnerships, the club days and the records read the same way.
    for path, what in (
        ("/standings/partnerships/?season=all", "partnerships"),
        ("/results/?season=all", "club days"),
        ("/records/", "records"),
    ):
        journey.goto(path)
        assert_nothing_clipped(page, what)
        journey.step(what)
