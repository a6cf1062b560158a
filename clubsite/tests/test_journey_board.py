"""Journey: the room board on a screen in the club room, in a real browser.

Two tables play on today's club day. The officer finds the board code on the day's
page ("Share the results"). The screen, another browser nobody is logged in on, types
the code on the board's front page and shows both tables. Hands saved at the tables
(through the play services, as the score keepers' phones would) appear on the screen
by themselves, without a reload; when a game ends its result and the top scores
appear. The officer closes the day, the screen says the board has ended, and the
officer prints the day sheet.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members.models import ClubDay
from members.tests.factories import ClubDayFactory, TableFactory
from scoring.play.services.hands import record_hand
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1280, "height": 720}
#: The board polls every 5 seconds: give each update two polls and some.
POLLS = 15_000


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def save_hand(game, hand):
    """A score keeper saves a hand at the table (the play services, as the phone does)."""
    record_hand(game, [dict(t) for t in hand], number=game.hand_count + 1)
    game.refresh_from_db()


def table_card(page, number):
    return page.locator(".board-table").filter(
        has=page.get_by_role("heading", name=f"Table {number}")
    )


def test_the_room_board_follows_the_tables(journey, officer_user, new_context):
    day = ClubDayFactory(date=timezone.localdate(), title="Evening")
    people = games.people(8)
    t1 = TableFactory(round__day=day, seated=people[:4])
    t2 = TableFactory(round__day=day, seated=people[4:])
    first = games.play(t1, [people[0:2], people[2:4]], [[WIN, LOSE]], on_the_day=False)
    second = games.play(t2, [people[4:6], people[6:8]], [], on_the_day=False)

    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/")
    share = journey.page.locator(
        "section", has=journey.page.get_by_role("heading", name="Share the results")
    )
    code = share.locator(".code").inner_text().strip()
    assert code == f"{day.board_code[:4]}-{day.board_code[4:]}"
    journey.step("officer: the day page with the board code")

    screen = new_context(viewport=SCREEN).new_page()
    screen.set_default_timeout(15_000)
    screen.goto(journey.base_url + "/board/")
    screen.get_by_label("Board code").fill("ABCD-EFGH")
    screen.get_by_role("button", name="Show the board").click()
    expect(screen.get_by_text("No club day has the board code ABCD-EFGH")).to_be_visible()
    screen.get_by_label("Board code").fill(code.lower())
    screen.get_by_role("button", name="Show the board").click()
    expect(screen.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(table_card(screen, 1)).to_contain_text("Game 1 · 1 hand")
    expect(table_card(screen, 1)).to_contain_text("Team 1 leads by 1,750")
    expect(table_card(screen, 2)).to_contain_text("No hands yet")
    journey.step_on(screen, "screen: the board")
    screen.evaluate("window.boardNotReloaded = true")

    save_hand(second, [LOSE, WIN])
    expect(table_card(screen, 2)).to_contain_text("Team 2 leads by 1,750", timeout=POLLS)
    save_hand(first, [LOSE, WIN])
    expect(table_card(screen, 1)).to_contain_text("Level at 2,050", timeout=POLLS)
    assert screen.evaluate("window.boardNotReloaded") is True
    journey.step_on(screen, "screen: updated without a reload")

    save_hand(first, [WIN, LOSE])
    save_hand(first, [WIN, LOSE])
    expect(table_card(screen, 1)).to_contain_text("Team 1 won", timeout=POLLS)
    expect(screen.get_by_role("heading", name="Top scores today")).to_be_visible()
    expect(screen.locator(".board-top")).to_contain_text("P01 Player & P02 Player")
    assert screen.evaluate("window.boardNotReloaded") is True
    journey.step_on(screen, "screen: a finished game and the top scores")

    journey.goto(f"/days/{day.pk}/")
    journey.page.get_by_role("link", name="Close this day").click()
    # The officer is asked first, with the games still in play listed.
    expect(journey.page.get_by_role("heading", name="Still in play: 1 game")).to_be_visible()
    # Game by game: end it as it stands (Team 2 leads, so Team 2 wins) or leave it.
    journey.page.get_by_role("button", name="Close the day anyway").click()
    assert ClubDay.objects.get(pk=day.pk).is_open  # not without an answer
    journey.page.get_by_label("End it as it stands", exact=False).check()
    journey.step("officer: close the day, ending the game in play as it stands")
    journey.page.get_by_role("button", name="Close the day anyway").click()
    expect(journey.page.get_by_text("is closed.", exact=False).first).to_be_visible()
    assert ClubDay.objects.get(pk=day.pk).status == ClubDay.Status.CLOSED
    expect(screen.get_by_role("heading", name="The board of this day has ended")).to_be_visible(
        timeout=POLLS
    )
    journey.step_on(screen, "screen: the board has ended")

    journey.page.get_by_role("link", name="Print the day sheet").click()
    expect(journey.page.get_by_role("heading", name="Top six")).to_be_visible()
    expect(journey.page.locator(".sheet-winner")).to_have_count(2)  # both games count
    journey.step("officer: the day sheet")
    journey.page.emulate_media(media="print")
    expect(journey.page.locator(".site-header")).to_be_hidden()
    expect(journey.page.get_by_role("button", name="Print this sheet")).to_be_hidden()
    journey.step("officer: the day sheet as printed", check_accessibility=False)
