"""Journey: seating, on a phone, in a real browser.

Ten people are signed in. The officer draws tables choosing three-player tables (a
table of four and two of three), draws again with the extra people sitting out (two
tables of four, two people out), seats one of those two at a table, and opens the
read-out screen.
"""

import datetime
import re

import pytest
from playwright.sync_api import expect

from members import services
from members.models import Person, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Ann", "Able"),
    ("Bob", "Baker"),
    ("Cat", "Cole"),
    ("Dan", "Dunn"),
    ("Eve", "Ellis"),
    ("Fay", "Ford"),
    ("Gus", "Gray"),
    ("Hal", "Hart"),
    ("Ida", "Irwin"),
    ("Jo", "Jones"),
]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def table_sizes(page) -> list[int]:
    cards = page.locator(".table-card")
    return [cards.nth(i).locator("ol.seats > li").count() for i in range(cards.count())]


def test_seating_ten_people_on_a_phone(journey, officer_user):
    day = services.open_day(datetime.date(2025, 3, 6), "Thursday")
    for number, (first, last) in enumerate(NAMES, start=101):
        person = Person.objects.create(
            kind=Person.Kind.MEMBER,
            membership_number=str(number),
            first_name=first,
            last_name=last,
        )
        services.sign_in(day, person, card_shown=True)
    page = journey.page

    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/")
    expect(page.get_by_text("signed in.", exact=False).first).to_be_visible()
    journey.step("club day")
    page.get_by_role("link", name="Seat people at tables").click()
    expect(page.get_by_role("heading", name="Seating", exact=True)).to_be_visible()
    expect(page.get_by_text("10 signed in.")).to_be_visible()
    expect(page.get_by_text("With 10: 1 table of four and 2 tables of three.")).to_be_visible()
    expect(page.get_by_text("With 10: 2 tables of four; 2 people sit out.")).to_be_visible()
    journey.step("seating before the draw")

    # Three-player tables: nobody sits out, 4 + 3 + 3.
    page.get_by_label("Three-player tables (nobody sits out)").check()
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.get_by_text("Round 1 drawn: 3 tables.")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 1: 3 tables, 10 seated")).to_be_visible()
    assert table_sizes(page) == [4, 3, 3]
    expect(page.locator(".table-card").get_by_text("Three-player table")).to_have_count(2)
    expect(page.get_by_text("Not at a table this round")).to_have_count(0)
    journey.step("drawn with three-player tables")

    # Draw again, tables of four only: two people sit out.
    page.get_by_label("Tables of four only (the extra people sit out)").check()
    page.get_by_role("button", name="Draw round 1 again").click()
    expect(
        page.get_by_text(re.compile(r"Round 1 drawn again: 2 tables\. Sitting out: "))
    ).to_be_visible()
    expect(page.get_by_role("heading", name="Round 1: 2 tables, 8 seated")).to_be_visible()
    assert table_sizes(page) == [4, 4]
    unseated = page.locator("section[aria-labelledby=unseated-heading]")
    expect(unseated.get_by_role("heading")).to_have_text("Not at a table this round (2)")
    out = unseated.locator("li").all_inner_texts()
    assert len(out) == 2
    journey.step("drawn again with two sitting out")

    # Seat the first of the two at table 2, in the first free seat.
    mover = out[0].strip()
    move = page.locator("section[aria-labelledby=move-heading]")
    move.get_by_label("Who").select_option(label=mover)
    move.get_by_label("To table").select_option(label="Table 2")
    journey.step("moving someone")
    move.get_by_role("button", name="Move").click()
    expect(page.get_by_text(f"{mover} moved to table 2, seat 5.")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 1: 2 tables, 9 seated")).to_be_visible()
    assert table_sizes(page) == [4, 5]
    table2 = page.locator(".table-card", has=page.get_by_role("heading", name="Table 2"))
    expect(table2).to_contain_text(mover)
    expect(table2).to_contain_text("5 players")
    expect(unseated.get_by_role("heading")).to_have_text("Not at a table this round (1)")
    journey.step("moved to table 2")
    first, last = mover.split(" ", 1)
    assert Seat.objects.get(person__first_name=first, person__last_name=last).table.number == 2

    # The read-out screen: big table numbers, names, who sits out.
    page.get_by_role("link", name="Show on a screen").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Thu 06 Mar 2025 — Thursday · Round 1"
    )
    tables = page.locator(".display-table")
    expect(tables).to_have_count(2)
    expect(tables.nth(1)).to_contain_text(mover)
    expect(tables.nth(1).locator("li")).to_have_count(5)
    sitting_out = out[1].strip()
    expect(page.locator(".display-out")).to_have_text(f"Sitting out: {sitting_out}")
    journey.step("read-out screen")
