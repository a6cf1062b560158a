"""Journey: standings and the league workbook, on a phone, in a real browser.

Finished games are built through the services (as the club would play them). A member
logs in, opens the season standings, sorts them by a column, hides the guests and
opens their own page with its SVG charts. An officer downloads the league workbook;
it opens with openpyxl and has its five sheets.
"""

import datetime

import openpyxl
import pytest
from playwright.sync_api import expect

from members import draw as seating
from members import services as members_services
from members.models import Person
from scoring.models import ClubSettings, Game, Season
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN = {
    "melded_points": 400,
    "natural_canastas": 2,
    "mixed_canastas": 1,
    "red_threes": 1,
    "went_out": "out",
    "hand_points": 0,
}
LOSE = {
    "melded_points": 200,
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "red_threes": 0,
    "went_out": "none",
    "hand_points": 50,
}
SHEETS = ["Summary", "Standings", "Games", "Hands", "Attendance", "Members"]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def member(first, last, number):
    return Person.objects.create(
        kind=Person.Kind.MEMBER, membership_number=number, first_name=first, last_name=last
    )


def play_day(date, people, games):
    """A club day with ``people`` signed in and seated at one table, and ``games``
    (winners, losers) each won in three hands (5,700 to 450)."""
    day = members_services.open_day(date, "Thursday")
    for person in people:
        members_services.sign_in(day, person, card_shown=True, brought_by=people[0])
    table = members_services.draw_round(day, seating.THREES, seed=1).round.tables.get()
    for winners, losers in games:
        game = start_game(table, [winners, losers], check_seating=False)
        for number in (1, 2, 3):
            record_hand(game, [dict(WIN), dict(LOSE)], number=number)
    members_services.close_day(day)
    return day


@pytest.fixture
def season_games(member_person):
    """Four finished games in the 2025 season: Mary won three, Cat none; Gus is a guest."""
    ClubSettings.objects.update_or_create(defaults={"min_games_to_rank": 2})
    Season.objects.create(name="Season 2025", start="2025-01-01", end="2025-12-31")
    mary = member_person
    ann, bob, cat = (
        member("Ann", "Able", "101"),
        member("Bob", "Baker", "102"),
        member("Cat", "Cole", "103"),
    )
    gus = Person.objects.create(
        kind=Person.Kind.GUEST, first_name="Gus", last_name="Guest", brought_by=mary
    )
    play_day(
        datetime.date(2025, 3, 6),
        [mary, ann, bob, cat],
        [([mary, ann], [bob, cat]), ([mary, bob], [ann, cat])],
    )
    play_day(
        datetime.date(2025, 3, 13),
        [mary, ann, bob, gus],
        [([mary, gus], [ann, bob]), ([ann, bob], [mary, gus])],
    )
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 4
    return {"mary": mary, "gus": gus}


def names_in(table):
    """The player names of the standings table, top to bottom."""
    return [name.strip() for name in table.locator("tbody tr td:nth-child(2)").all_inner_texts()]


def test_standings_player_page_and_workbook(journey, officer_user, season_games, tmp_path):
    page = journey.page

    # A member sees the season standings.
    journey.login("member", "member-pass-123")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Standings").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Standings")
    expect(page.locator(".lead")).to_have_text("Season 2025 (1 Jan 2025 – 31 Dec 2025)")
    standings = page.locator("table.standings").first
    expect(standings.locator("tbody tr")).to_have_count(5)
    assert names_in(standings)[0] == "Mary Member"  # 3 of 4 won: first on win %
    expect(standings.locator("tr", has_text="Gus Guest")).to_contain_text("guest")
    journey.step("season standings")

    # Sorted by games won, fewest first.
    standings.get_by_role("link", name="Won").click()
    expect(standings.locator("th", has_text="Won")).to_have_attribute("aria-sort", "ascending")
    assert "sort=wins" in page.url
    won = [int(v) for v in standings.locator("tbody tr td:nth-child(4)").all_inner_texts()]
    assert won == sorted(won) and won[0] == 0
    assert names_in(standings)[0] == "Cat Cole"
    journey.step("sorted by games won")

    # Guests hidden.
    page.get_by_label("Guests").select_option(label="Hide guests")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".lead")).to_have_text(
        "Season 2025 (1 Jan 2025 – 31 Dec 2025) · guests hidden"
    )
    expect(standings.locator("tbody tr")).to_have_count(4)
    expect(standings.get_by_text("Gus Guest")).to_have_count(0)
    journey.step("guests hidden")

    # Their own page, with its two SVG charts.
    standings.get_by_role("link", name="Mary Member").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Mary Member")
    expect(page.get_by_text("This is your page")).to_be_visible()
    charts = page.locator("figure.chart-box svg[role=img]")
    expect(charts).to_have_count(2)
    expect(charts.first.locator("title")).to_have_text("Game scores of Mary Member")
    expect(charts.nth(1).locator("title")).to_have_text("Rating of Mary Member after each game")
    journey.step("own player page")

    # An officer downloads the league workbook of the season.
    page.get_by_role("button", name="Log out").click()
    journey.login("officer", "officer-pass-123")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Standings").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Standings")
    journey.step("officer standings")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the league workbook (.xlsx)").click()
    download = download_info.value
    assert download.suggested_filename.startswith("league-")
    assert download.suggested_filename.endswith(".xlsx")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    workbook = openpyxl.load_workbook(path, read_only=True)
    assert workbook.sheetnames == SHEETS
    standings_sheet = workbook["Standings"]
    cells = [str(c) for row in standings_sheet.iter_rows(values_only=True) for c in row]
    assert any("Mary Member" in c for c in cells)
    workbook.close()
