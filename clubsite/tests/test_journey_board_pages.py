"""Journey: a room board with more tables than one wall screen holds (30 tables at
1,280 x 800) shows them a screenful at a time, saying which part it shows, and turns to
the next part every 10 seconds; a poll of the board (every 5 s) keeps the part shown.
Nothing scrolls. A phone still scrolls the whole list."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members.tests.factories import ClubDayFactory, RoundFactory, TableFactory
from scoring.play.services.games import next_game
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def big_day(db):
    """30 tables: 28 of four (six of them finished a game and started the next; every
    fifth other not started yet), 2 of three, a hand or two played at the others."""
    day = ClubDayFactory(date=timezone.localdate(), title="Big night")
    people = games.people(118, prefix="B")
    round1 = RoundFactory(day=day, number=1)
    start = 0
    for number in range(1, 31):
        size = 3 if number > 28 else 4
        seated = people[start : start + size]
        start += size
        table = TableFactory(round=round1, number=number, seated=seated)
        if size == 3:
            hands = [[WIN, LOSE, LOSE]]
            games.play(table, [[p] for p in seated], hands, on_the_day=False)
        elif number <= 6:  # a game finished, the next one started
            game = games.win(table, seated[:2], seated[2:], hands=3)
            next_game(game, [[seated[0], seated[2]], [seated[1], seated[3]]])
        elif number % 5:
            hands = [[WIN, LOSE]] * (number % 2 + 1)
            games.play(table, [seated[:2], seated[2:]], hands, on_the_day=False)
    return day


def shown_tables(page) -> list[str]:
    cards = page.locator(".board-table:visible h3")
    return [text.strip() for text in cards.all_inner_texts()]


def test_thirty_tables_turn_a_screenful_at_a_time(journey, officer_user, big_day):
    page = journey.page
    journey.login("officer", "officer-pass-123")
    page.clock.install()
    page.set_viewport_size(WALL)
    journey.goto(f"/board/{big_day.pk}/")
    note = page.locator(".board-pages").first
    expect(note).to_have_text("Tables 1–12 of 30 · page 1 of 3")
    assert shown_tables(page) == [f"Table {n}" for n in range(1, 13)]
    assert page.evaluate("document.documentElement.scrollHeight") <= WALL["height"]
    journey.step("wall screen: tables 1 to 12 of 30")

    page.clock.run_for(10_000)
    expect(note).to_have_text("Tables 13–24 of 30 · page 2 of 3")
    assert shown_tables(page) == [f"Table {n}" for n in range(13, 25)]
    # A poll of the board (every 5 s) brings the body again: the same part stays.
    with page.expect_response(lambda r: "/live/" in r.url):
        page.clock.run_for(5_000)
    expect(note).to_have_text("Tables 13–24 of 30 · page 2 of 3")
    assert shown_tables(page) == [f"Table {n}" for n in range(13, 25)]
    assert page.evaluate("document.documentElement.scrollHeight") <= WALL["height"]
    journey.step("wall screen: tables 13 to 24, after a poll")

    page.clock.run_for(5_000)
    expect(note).to_have_text("Tables 25–30 of 30 · page 3 of 3")
    assert shown_tables(page) == [f"Table {n}" for n in range(25, 31)]
    page.clock.run_for(10_000)
    expect(note).to_have_text("Tables 1–12 of 30 · page 1 of 3")
    journey.step("wall screen: back to the first tables")

    # A phone scrolls the whole list: every table, no pages.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator(".board-pages:visible")).to_have_count(0)
    assert len(shown_tables(page)) == 30
