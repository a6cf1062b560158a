"""Journey: every table the door seats can be scored, in a real browser.

Fourteen people are signed in. The officer draws round 1 with the default option
(three-player tables, nobody sits out): two tables of four and two of three, and the
seating says which tables play "Club house rules (three players)". Play starts; at every
table the officer starts a game from the table page and plays a hand. At a table of
three the game then runs past 5,000 (the middle hand through the services, the last in
the browser), and the finished game shows up in the standings, the day's results and
the league workbook.
"""

import re

import openpyxl
import pytest
from django.test import TestCase
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.tests.test_journey_scoring import LOSE, WIN, fill_quick
from members import services as members_services
from members.models import Person
from scoring.models import Game
from scoring.play.services.hands import record_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Ann Able",
    "Bob Baker",
    "Cat Cole",
    "Dan Dunn",
    "Eve Ellis",
    "Fay Ford",
    "Gus Gray",
    "Hal Hart",
    "Ida Irwin",
    "Jo Jones",
    "Kit King",
    "Lou Lane",
    "Max Moss",
    "Ned Nash",
]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def day(db):
    day = members_services.open_day(timezone.localdate(), "Thursday")
    for number, name in enumerate(NAMES, start=101):
        first, last = name.split()
        person = Person.objects.create(
            kind=Person.Kind.MEMBER, membership_number=str(number), first_name=first, last_name=last
        )
        members_services.sign_in(day, person, card_shown=True)
    return day


def draw_and_start(journey, day):
    page = journey.page
    journey.goto(f"/days/{day.pk}/seating/")
    expect(page.get_by_text("14 signed in.")).to_be_visible()
    page.get_by_role("button", name="Draw round 1").click()  # the default option
    expect(page.get_by_text("Round 1 drawn: 4 tables.")).to_be_visible()
    plays = page.locator(".table-card .table-plays")
    expect(plays).to_have_text(
        ["Plays Club house rules"] * 2 + ["Plays Club house rules (three players)"] * 2
    )
    journey.step("drawn: two tables of four, two of three")
    page.get_by_role("button", name="Start play in round 1").click()
    expect(page.get_by_text("Round 1 has started: the seats are fixed.")).to_be_visible()


def start_game_at(journey, number: int, players: int):
    page = journey.page
    page.get_by_role("link", name=f"Score sheet of table {number}").click()
    page.get_by_role("link", name="Start the first game").click()
    if players == 3:
        expect(page.get_by_text("Rules: Club house rules (three players)")).to_be_visible()
        expect(page.get_by_label("Player 3")).not_to_have_value("")
        expect(page.get_by_label("Team 1, player 1")).to_have_count(0)
        journey.step(f"start a three-player game at table {number}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Game 1 started. Good luck!")).to_be_visible()


def play_hand_in_browser(journey, sides: int, number: int = 1):
    page = journey.page
    for index in range(sides):
        fill_quick(page, index, WIN if index == 0 else LOSE)
    expect(page.locator("#preview h2")).to_have_text(f"Preview of hand {number} (not saved yet)")
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_text(f"Hand {number} saved.")).to_be_visible()


def test_fourteen_people_every_table_scores(journey, officer_user, day, tmp_path):
    page = journey.page
    journey.login("officer", "officer-pass-123")
    draw_and_start(journey, day)

    for number, players in ((1, 4), (2, 4), (3, 3), (4, 3)):
        journey.goto(f"/days/{day.pk}/seating/")
        start_game_at(journey, number, players)
        play_hand_in_browser(journey, 2 if players == 4 else 3)
        if players == 3:
            expect(page.get_by_label("Player 3 total 150")).to_have_text("150")
            journey.step(f"table {number}: a hand of three players saved")
    games = Game.objects.filter(day=day).order_by("table__number")
    assert [g.hand_count for g in games] == [1, 1, 1, 1]
    assert [g.rules_name for g in games] == ["Club house rules"] * 2 + [
        "Club house rules (three players)"
    ] * 2

    # Table 4 plays on to 5,000: hand 2 through the services, hand 3 in the browser.
    game = games.get(table__number=4)
    with TestCase.captureOnCommitCallbacks(execute=True):
        record_hand(game, [WIN, LOSE, LOSE], number=2)
    journey.goto(f"/tables/{game.table_id}/")
    fill_quick(page, 0, WIN)
    fill_quick(page, 1, LOSE)
    fill_quick(page, 2, LOSE)
    expect(page.locator("#preview .won")).to_contain_text("This hand ends the game: Player 1")
    page.get_by_role("button", name="Save hand 3").click()
    expect(page.get_by_role("heading", name="Game over: Player 1 wins")).to_be_visible()
    journey.step("three-player game over")
    game.refresh_from_db()
    assert game.is_finished
    winner = game.teams.get(won=True).memberships.get().person.full_name

    # The standings count the single player's win.
    journey.goto("/standings/")
    row = page.locator("table.standings tr", has_text=winner).first
    expect(row).to_be_visible()
    journey.step("standings with the three-player game")

    # The day's results list the game, winner first, the other two players apart.
    journey.goto(f"/results/{day.pk}/")
    expect(page.get_by_text(winner).first).to_be_visible()
    journey.step("day results with the three-player game")

    # The league workbook lists the game with its three sides.
    with page.expect_download() as download_info:
        journey.goto("/standings/")
        page.get_by_role("link", name="Download the league workbook (.xlsx)").click()
    path = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(path)
    workbook = openpyxl.load_workbook(path, read_only=True)
    header, *rows = list(workbook["Games"].iter_rows(values_only=True))
    games_sheet = [dict(zip(header, r, strict=True)) for r in rows]
    assert [(r["Winners"], r["Winning score"]) for r in games_sheet] == [(winner, 5700)]
    assert re.fullmatch(r"\w+ \w+", games_sheet[0]["Team 3"])
    workbook.close()
