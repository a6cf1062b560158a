"""Journey: an event of 3 rounds of 50 minutes at 5 tables (20 players, partnerships
fixed) with the Mitchell movement, in a real browser.

The officer makes the event on the day's page and starts round 1 from the tables as
seated. The wall screen (1,280 × 800) shows "Round 1 of 3" counting down; table 1's
phone (390 × 844) shows the clock too. The games are played (through the play
services, as the score keepers' phones would) before time is called; then both say it
is, and the officer ends the round: the phone says who stays and who goes to which
table, follows its table into round 2, and the arriving pair taps "we are here"; the
board lists where everyone sits. After three rounds no East–West pair has met a
North–South pair twice, the ranking by victory points (each line on its own) matches a
hand calculation, and the prize list prints on one page.
"""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members.models import Table
from members.tests.factories import ClubDayFactory
from scoring.tests.tourney.conftest import play_round, seat_day
from scoring.tourney import reads
from scoring.tourney.models import Event, EventRound

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: The board polls every 5 seconds: give each update two polls and some.
POLLS = 15_000
#: Round 2: East–West win at table 1, North–South win by less at the other tables.
ROUND_2 = {1: 1, 2: "small", 3: "small", 4: "small", 5: "small"}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _time_called(event):
    """Fifty-two minutes have gone by (the round's start moved back, as the clock
    would have it): the board's fingerprint sees the event's new version."""
    row = event.event_rounds.order_by("-number").first()
    row.started_at = timezone.now() - dt.timedelta(minutes=52)
    row.save(update_fields=["started_at"])
    Event.objects.filter(pk=event.pk).update(version=event.version + 100)
    reads.refresh(event.day_id)


def _click(page, name):
    page.get_by_role("button", name=name).click()
    page.wait_for_load_state()


def test_an_event_of_three_mitchell_rounds(journey, officer_user, new_context):
    day = ClubDayFactory(date=timezone.localdate(), title="Spring pairs")
    seated = seat_day(day, 5)

    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/")
    journey.page.get_by_role("link", name="Event: rounds on a clock, movement, ranking").click()
    journey.page.get_by_label("Name of the event").fill("Spring pairs")
    journey.step("officer: the event's settings")
    _click(journey.page, "Save the event")
    event = Event.objects.get()
    assert (event.movement, event.rounds, event.round_minutes, event.ranking) == (
        "mitchell",
        3,
        50,
        "vp",
    )
    _click(journey.page, "Start round 1")
    expect(journey.page.get_by_text("Round 1 has started")).to_be_visible()
    expect(journey.page.locator(".event-time")).to_have_text(re.compile(r"^(50:00|49:\d\d)$"))
    journey.step("officer: round 1 running")

    screen = new_context(viewport=SCREEN).new_page()
    screen.set_default_timeout(15_000)
    screen.goto(f"{journey.base_url}/board/code/{day.board_code}/")
    expect(screen.get_by_text("Round 1 of 3")).to_be_visible()
    expect(screen.locator(".board .event-time")).to_have_text(re.compile(r"^(50:00|49:\d\d)$"))
    journey.step_on(screen, "screen: round 1 of 3 counting down")

    phone = new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(15_000)
    first = EventRound.objects.get(number=1)
    table1 = Table.objects.get(round_id=first.round_id, number=1)
    phone.goto(f"{journey.base_url}/t/{table1.token}/")
    expect(phone.locator(".event-phone")).to_contain_text("Round 1 of 3")
    # The tables play round 1 (through the play services, as their phones would).
    play_round(EventRound.objects.get(number=1))

    event.refresh_from_db()
    _time_called(event)
    expect(screen.locator(".board .event-status")).to_have_text("Time called", timeout=POLLS)
    journey.step_on(screen, "screen: time called")
    phone.reload()
    expect(phone.get_by_text("Time is called: stop playing.", exact=False)).to_be_visible()
    journey.step_on(phone, "phone: time called")

    now = timezone.now()
    for number in (1, 2, 3):
        row = EventRound.objects.get(number=number)
        if number > 1:
            journey.goto(f"/days/{day.pk}/event/")
            _click(journey.page, f"Start round {number}")
            play_round(row, winners=ROUND_2 if number == 2 else None)
        journey.goto(f"/days/{day.pk}/event/")
        _click(journey.page, f"End round {number}")
        if number == 1:
            phone.reload()
            ns, ew = (seated[0], seated[2]), (seated[1], seated[3])
            for person in ns:
                expect(phone.get_by_text(f"{person.full_name}: stay at table 1")).to_be_visible()
            for person in ew:
                expect(phone.get_by_text(f"{person.full_name}: go to table 2")).to_be_visible()
            journey.step_on(phone, "phone: where its players go next")
            _click(phone, "Leave this phone here: open the next round at this table")
            expect(phone.locator(".event-phone")).to_contain_text("Round 2 of 3")
            _click(phone, "East–West: we are here")
            expect(phone.get_by_text("the director sees that you are here")).to_be_visible()
            journey.step_on(phone, "phone: round 2 at table 1, the pair has arrived")
            expect(screen.get_by_text("Round 2: where everyone sits")).to_be_visible(timeout=POLLS)
            expect(screen.get_by_text("(from table 1)").first).to_be_visible()
            journey.step_on(screen, "screen: where everyone sits in round 2")
    assert timezone.now() >= now

    # No East–West pair met a North–South pair twice.
    met = [
        (row["table"], tuple(sorted(row["sides"][1])))
        for r in EventRound.objects.order_by("number")
        for row in r.seating
    ]
    assert len(met) == 15 and len(set(met)) == 15

    journey.goto(f"/events/{event.pk}/ranking/")
    rows = journey.page.locator(".event-ranking tbody tr")
    expect(rows).to_have_count(10)
    # By hand: 1,900 to 150 (a difference of 1,750) is 20–0; 1,400 to 80 (1,320) is
    # 19–1. North–South 2–5: 20 + 19 + 20 = 59; North–South 1: 20 + 0 + 20 = 40;
    # East–West 5 meets North–South 1 in round 2 and wins: 20; East–West 1–4: 1 each.
    # Each line is ranked on its own (a Mitchell's two sets of winners).
    expect(journey.page.get_by_role("heading", name="North–South")).to_be_visible()
    expect(journey.page.get_by_role("heading", name="East–West")).to_be_visible()
    expected = [("1=", "59")] * 4 + [("5", "40"), ("1", "20")] + [("2=", "1")] * 4
    for i, (place, vp) in enumerate(expected):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(place)
        expect(cells.nth(4)).to_have_text(vp)
    journey.step("officer: the ranking by victory points")

    journey.page.get_by_role("link", name="Prize list to print").click()
    expect(journey.page.get_by_text("1st place").first).to_be_visible()
    journey.step("officer: the prize list")
    journey.page.emulate_media(media="print")
    pdf = journey.page.pdf(format="A4")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1

    screen.set_viewport_size(SCREEN)
    journey.step_on(screen, "screen: the last round is over")


@pytest.mark.parametrize(
    ("movement", "tables", "rounds"),
    [("Individual", 3, 3), ("Swiss", 8, 4)],
    ids=["individual-12-players", "swiss-16-pairs"],
)
def test_swiss_and_individual_events(journey, officer_user, new_context, movement, tables, rounds):
    """12 players over 3 individual rounds: nobody partners anyone twice; 16
    partnerships over 4 Swiss rounds: no rematch. Each phone says where its players go;
    the prize list prints on one page."""
    day = ClubDayFactory(date=timezone.localdate(), title=f"{movement} day")
    seat_day(day, tables)
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/event/settings/")
    journey.page.get_by_label("Name of the event").fill(f"{movement} evening")
    journey.page.get_by_label(movement, exact=False).first.check()
    journey.page.get_by_label("Number of rounds").fill(str(rounds))
    journey.page.get_by_label("Minutes per round").fill("30")
    _click(journey.page, "Save the event")
    phone = new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(15_000)
    for number in range(1, rounds + 1):
        _click(journey.page, f"Start round {number}")
        expect(journey.page.get_by_text(f"Round {number} has started")).to_be_visible()
        row = EventRound.objects.get(number=number)
        play_round(row, winners={1: 1} if number % 2 else None)
        _click(journey.page, f"End round {number}")
        if number == 1:
            table = Table.objects.get(round_id=row.round_id, number=1)
            phone.goto(f"{journey.base_url}/t/{table.token}/")
            expect(phone.get_by_text("Where you go next")).to_be_visible()
            expect(phone.locator(".event-phone li")).to_have_count(4)
            journey.step_on(phone, f"phone: {movement.lower()} round 1 over, where to go")
    journey.step("officer: every round played")
    seatings = [r.seating for r in EventRound.objects.order_by("number")]
    if movement == "Individual":
        partners = [frozenset(side) for rows in seatings for row in rows for side in row["sides"]]
        assert len(partners) == len(set(partners)) == 18
    else:
        meetings = [
            frozenset((row["entrants"][0][0], row["entrants"][1][0]))
            for rows in seatings
            for row in rows
        ]
        assert len(meetings) == len(set(meetings)) == 32
    journey.goto(f"/events/{Event.objects.get().pk}/ranking/")
    expect(journey.page.locator(".event-ranking tbody tr")).to_have_count(
        12 if movement == "Individual" else 16
    )
    journey.step(f"officer: the {movement.lower()} ranking")
    journey.page.get_by_role("link", name="Prize list to print").click()
    expect(journey.page.get_by_text("1st place").first).to_be_visible()
    journey.step(f"officer: the {movement.lower()} prize list")
    journey.page.emulate_media(media="print")
    pdf = journey.page.pdf(format="A4")
    assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1
