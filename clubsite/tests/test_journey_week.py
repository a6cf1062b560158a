"""Journey: the club's week (issue 34), in Spanish and in English, in a real browser.

A club with a cap of 4 tables (16 places), a cut-off of 48 hours before play and its own
words for a late cancellation. Twenty members book the club day from their phones (two
of them with a partner): sixteen places are taken, four wait. Two cancel before the
cut-off: the first two waiting get the places and an e-mail each (sent by the background
work). One cancels after the cut-off and is refused in the club's words. On the day the
door lists the booked members (the one whose dues lapsed is marked), each signed in with
one tap; two walk-ins and a guest come in as always. The draw seats booked partners
together; the night is played (one table typed on a phone, the others through the play
services). Each sign-in charged the right rate (member, reduced, visitor for a guest and
for the lapsed member; a partner's on the account of the member who pays for her); the
guest's charge is moved to the member who brought her. The treasurer imports the bank's
CSV of 30 lines made here (two match nobody, one member pays for two) through its
preview, sends the statements, and every balance reconciles to the cent with the CSV
and the charges. The partner paid for by her partner owes nothing on her phone.

The booking rules' clock is moved back (three days, then one day before the club day):
the journey cannot wait for the cut-off to pass. Phones are 390 × 844, the officers'
and the treasurer's pages 1280 × 800.
"""

from __future__ import annotations

import datetime
import io
import json
import re
from decimal import Decimal

import pytest
from django.core import mail
from django.core.management import call_command
from django.db.models import Count
from django.test import TestCase
from django.utils import timezone as real_timezone
from django.utils import translation
from playwright.sync_api import expect

from members.bookings import reads as booking_reads
from members.bookings.models import Booking
from members.bookings.services import bookings as booking_services
from members.bookings.services import rules as booking_rules
from members.models import ClubDay, Person, Seat, SignIn
from members.money.access import make_treasurer
from members.money.models import Entry, MoneyProfile, MoneySettings, RateKind, StatementRun
from members.tests.factories import MemberFactory
from scoring.models import Game, Hand
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand
from scoring.tests.samples import quick

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "pass-123-secret"

FIRST_NAMES = [
    "Ana", "Bea", "Carla", "Dora", "Elena", "Flor", "Gala", "Hugo", "Ines", "Juan",
    "Katia", "Luis", "Marta", "Nico", "Olga", "Pablo", "Quima", "Rosa", "Sara", "Tomas",
]  # fmt: skip
CLUB_WORDS = {
    "es": ("Demasiado tarde: llame a Olivia al 555-0199.", "Fecha", "Importe", "Concepto"),
    "en": ("Too late: please call Olivia on 555-0199.", "Date", "Amount", "Reference"),
}
MEMBER, REDUCED, VISITOR = Decimal("5.00"), Decimal("3.00"), Decimal("8.00")
WIN = [quick(300, 1, 1, out="out"), quick(100, hand=30)]  # 1,200 and 70: five hands end it
WIN3 = [quick(300, 1, 1, out="out"), quick(100, hand=30), quick(100, hand=30)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _patient_expectations():
    """The pages' answers are waited for as long as the page's own actions (15 s): on
    a busy machine a sign-in's answer can take longer than the checks' default 5 s."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=None)


class BookingClock:
    """The booking rules' clock, ``shift`` away from now (the rest of the site keeps
    the real time)."""

    def __init__(self):
        self.shift = datetime.timedelta(0)

    def now(self):
        return real_timezone.now() + self.shift

    def __getattr__(self, name):
        return getattr(real_timezone, name)


@pytest.fixture
def booking_clock(monkeypatch):
    clock = BookingClock()
    for module in (booking_rules, booking_services, booking_reads):
        monkeypatch.setattr(module, "timezone", clock)
    return clock


def said(lang: str, text: str, **values) -> str:
    """The site's words in ``lang`` (checked to be translated, in Spanish)."""
    with translation.override(lang):
        words = translation.gettext(text)
        if lang != "en":
            assert words != text, f"not translated into {lang}: {text}"
        return words % {k: str(v) for k, v in values.items()} if values else words


def login(journey, username: str, password: str = PASSWORD):
    page = journey.page
    page.context.clear_cookies()
    journey.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def amount_of(text: str) -> Decimal:
    """ "-7,00 EUR" or "-7.00 USD" → Decimal("-7.00")."""
    number = re.search(r"[-−]?\d+(?:[.,]\d{2})", text.replace("\xa0", " "))
    assert number, text
    return Decimal(number.group().replace("−", "-").replace(",", "."))


def make_members(django_user_model) -> list[Person]:
    people = []
    for number, first in enumerate(FIRST_NAMES, start=101):
        user = django_user_model.objects.create_user(first.lower(), password=PASSWORD)
        people.append(
            MemberFactory(
                first_name=first,
                last_name="Socia",
                membership_number=str(number),
                email=f"{first.lower()}@example.org",
                user=user,
                language="",
            )
        )
    return people


def bank_csv(day: datetime.date, columns, words: str) -> tuple[str, dict]:
    """The bank's CSV: 30 lines of money received, two naming nobody; Ana pays for
    herself and her partner Bea. Returns the text and what each member paid."""
    date_col, amount_col, ref_col = columns
    when = day.strftime("%d/%m/%Y")
    lines: list[tuple[str, Decimal]] = [
        ("101", MEMBER * 2),  # Ana: her table money and Bea's
        ("103", MEMBER),
        ("104", MEMBER),
        ("105", VISITOR),  # Elena, dues lapsed: the visitor rate
        ("106", REDUCED),  # Flor pays the reduced rate
        *[(str(n), MEMBER) for n in range(114, 115)],
        ("117", MEMBER),
        ("118", MEMBER),
        ("121", MEMBER + VISITOR),  # the first walk-in pays for her guest too
        ("122", MEMBER),
        ("115", MEMBER),  # cancelled: pays ahead
        ("116", MEMBER),
        ("119", MEMBER),  # still waiting: pays ahead
        ("120", MEMBER),
    ]
    for n in range(107, 114):  # seven pay in two parts
        lines += [(str(n), Decimal("2.00")), (str(n), Decimal("3.00"))]
    assert len(lines) == 28
    paid: dict[str, Decimal] = {}
    rows = [f"Account;{date_col};{amount_col};{ref_col}"]
    for number, amount in lines:
        rows.append(f"GB29NWBK60161331926819;{when};{amount};{words} {number}")
        paid[number] = paid.get(number, Decimal("0.00")) + amount
    rows.insert(7, f"GB29NWBK60161331926819;{when};12.50;Transfer from J SMITH")
    rows.insert(20, f"GB29NWBK60161331926819;{when};4.00;Raffle")
    assert len(rows) == 31  # the column names and 30 lines
    return "\n".join(rows) + "\n", paid


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_clubs_week(
    lang, journey, club, django_user_model, officer_user, booking_clock, tmp_path
):
    late_words, *columns = CLUB_WORDS[lang]
    club.language_code = lang
    club.save()
    rules = booking_rules.booking_settings()
    rules.table_cap = 4
    rules.cutoff = rules.Cutoff.HOURS
    rules.cutoff_hours = 48
    rules.cutoff_message = late_words
    rules.seat_partners_together = True
    rules.save()
    money = MoneySettings.load()
    money.currency = "EUR" if lang == "es" else "USD"
    money.member_rate, money.visitor_rate, money.reduced_rate = MEMBER, VISITOR, REDUCED
    money.lapsed_pay_visitor_rate = True
    money.grace_days = 30
    money.bank_date_column, money.bank_amount_column, money.bank_reference_column = columns
    money.bank_date_format = "%d/%m/%Y"
    money.save()
    make_treasurer(django_user_model.objects.create_user("tess", password=PASSWORD))

    today = booking_rules.today()
    day = ClubDay.objects.create(date=today, title="Jueves" if lang == "es" else "Thursday")
    people = make_members(django_user_model)
    by_first = {p.first_name: p for p in people}
    ana, bea, carla, dora, elena, flor = people[:6]
    MoneyProfile.objects.create(person=bea, payer=ana)  # Ana pays for her partner
    MoneyProfile.objects.create(person=flor, rate=RateKind.REDUCED)
    MoneyProfile.objects.create(person=elena, paid_until=today - datetime.timedelta(days=60))
    walk_ins = [
        MemberFactory(first_name=f, last_name="Paseo", membership_number=n, email="")
        for f, n in (("Vera", "121"), ("Walter", "122"))
    ]
    page = journey.page

    # ---- Three days before: twenty members book from their phones.
    booking_clock.shift = datetime.timedelta(days=-3)
    booked_word = said(lang, "Booked: %(day)s. See you there!", day=day).split(":")[0]
    waiting_word = said(
        lang,
        "%(day)s is full: you are on the waiting list. If a place comes free you get it "
        "and an e-mail.",
        day=day,
    )
    for member, partner in ((ana, bea), (carla, dora)):
        login(journey, member.user.username)
        journey.goto("/book/")
        card = page.locator(f"#book-day-{day.pk}")
        card.locator("details.book-more summary").click()
        card.locator(f"#partner-{day.pk}").select_option(str(partner.pk))
        if member == ana:
            journey.step("ana books with her partner")
        card.locator("details.book-more form").first.locator("button").click()
        expect(page.locator(".messages")).to_contain_text(booked_word)
    for member in people[4:]:
        login(journey, member.user.username)  # lands on the front page: one tap
        page.locator(f"#book-day-{day.pk} form button").first.click()
        if member in people[16:]:
            expect(page.locator(".messages")).to_contain_text(waiting_word)
        else:
            expect(page.locator(".messages")).to_contain_text(booked_word)
    expect(page.locator(f"#book-day-{day.pk}")).to_contain_text(
        said(lang, "On the waiting list: number %(place)s.", place=4)
    )
    journey.step("the twentieth waits fourth")
    assert booking_services.taken_places(day) == 16
    waiting = Booking.objects.filter(day=day).waiting()
    assert [b.person.first_name for b in waiting] == ["Quima", "Rosa", "Sara", "Tomas"]

    # Two cancel before the cut-off: Quima and Rosa get the places and an e-mail each.
    mail.outbox.clear()
    for member in (by_first["Olga"], by_first["Pablo"]):
        login(journey, member.user.username)
        journey.goto("/book/")
        page.locator(f"#book-day-{day.pk} form button.danger").click()
        expect(page.locator(".messages")).to_contain_text(
            said(lang, "Cancelled: %(day)s.", day=day)
        )
    journey.step("cancelled before the cut-off")
    promoted = [by_first["Quima"], by_first["Rosa"]]
    for member in promoted:
        assert Booking.objects.get(day=day, person=member).status == Booking.Status.BOOKED
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in promoted)
    words = {"es": "Un lugar para usted", "en": "A place for you"}[lang]
    assert all(words in m.subject for m in mail.outbox), [m.subject for m in mail.outbox]
    assert [b.person.first_name for b in Booking.objects.filter(day=day).waiting()] == [
        "Sara",
        "Tomas",
    ]

    # The day before: past the cut-off, a cancellation is refused in the club's words.
    booking_clock.shift = datetime.timedelta(days=-1)
    login(journey, "nico")
    journey.goto("/book/")
    card = page.locator(f"#book-day-{day.pk}")
    expect(card).to_contain_text(
        said(lang, "The cut-off for cancelling has passed: to cancel now, tell an officer.")
    )
    card.locator("form button.danger").click()
    expect(page.locator(".messages")).to_contain_text(late_words)
    journey.step("late cancel refused")
    nico = by_first["Nico"]
    assert Booking.objects.get(day=day, person=nico).status == Booking.Status.BOOKED
    assert len(mail.outbox) == 2

    # ---- The day: the officer's list, then the door, on a desktop.
    booking_clock.shift = datetime.timedelta(0)
    login(journey, "officer", "officer-pass-123")
    page.set_viewport_size(DESKTOP)
    journey.goto(f"/days/{day.pk}/bookings/")
    expect(page.locator("#waiting-heading")).to_contain_text("2")
    journey.step("officer day list")
    journey.goto(f"/days/{day.pk}/door/")
    booked = page.locator("#door-booked")
    booked_people = [
        b.person for b in Booking.objects.filter(day=day).booked().select_related("person")
    ] + [bea, dora]
    assert len(booked_people) == 16
    # The member whose dues lapsed is marked on the booked list.
    lapsed_row = booked.locator("li", has_text=elena.full_name)
    expect(lapsed_row).to_contain_text(said(lang, "Dues lapsed"))
    expect(booked.locator("li", has_text=ana.full_name)).not_to_contain_text(
        said(lang, "Dues lapsed")
    )
    journey.step("door: the booked list, the lapsed member marked")
    for count, person in enumerate(sorted(booked_people, key=lambda p: p.full_name), start=1):
        booked.locator("li", has_text=person.full_name).locator("button.primary").click()
        expect(page.locator("#door-message")).to_contain_text(person.full_name)
        expect(page.locator("#who-is-in h2")).to_contain_text(str(count))
    # Two walk-ins from the search, as always; the first brings a guest.
    for count, person in enumerate(walk_ins, start=17):
        page.locator("#id_q").fill(person.full_name)
        # "Find" too: the search box the last sign-in put back may not be listening yet
        # (htmx wires a swapped-in box after it settles); the button's form works either way.
        page.locator("#door-search button[type=submit]").click()
        page.locator("#results button[value=true]").first.click()
        expect(page.locator("#who-is-in h2")).to_contain_text(str(count))
    page.locator("#guest-panel summary").click()
    page.locator("#guest-panel #id_first_name").fill("Gina")
    page.locator("#guest-panel #id_last_name").fill("Huesped")
    page.locator("#guest-panel #id_brought_by").select_option(str(walk_ins[0].pk))
    page.locator("#guest-panel form button.primary").last.click()
    expect(page.locator("#who-is-in h2")).to_contain_text("19")
    journey.step("door: everyone in")
    present = set(SignIn.objects.filter(day=day).values_list("person_id", flat=True))
    guest = Person.objects.get(first_name="Gina")
    assert present == {p.pk for p in booked_people} | {p.pk for p in walk_ins} | {guest.pk}

    # Charges at the right rates, on the right accounts.
    charges = Entry.objects.filter(day=day, kind=Entry.Kind.CHARGE)
    assert charges.count() == 19
    rates = {(e.attendee_id or e.person_id): (e.person_id, e.amount) for e in charges}
    assert rates[ana.pk] == (ana.pk, MEMBER)
    assert rates[bea.pk] == (ana.pk, MEMBER)  # on her partner's account
    assert rates[elena.pk] == (elena.pk, VISITOR)  # dues lapsed
    assert rates[flor.pk] == (flor.pk, REDUCED)
    assert rates[guest.pk] == (guest.pk, VISITOR)
    assert rates[walk_ins[1].pk] == (walk_ins[1].pk, MEMBER)

    # The draw seats the booked partners together, facing each other.
    journey.goto(f"/days/{day.pk}/seating/")
    page.locator("#remainder-threes").check()
    page.locator("form[action$='/seating/draw/'] button[type=submit]").click()
    expect(page.locator(".table-card")).to_have_count(5)
    for member, partner in ((ana, bea), (carla, dora)):
        one, two = Seat.objects.get(person=member), Seat.objects.get(person=partner)
        assert one.table_id == two.table_id
        assert abs(one.position - two.position) == 2
        table_card = page.locator(".table-card", has_text=member.full_name)
        expect(table_card).to_contain_text(partner.full_name)
    journey.step("drawn: partners together")
    page.locator("form[action$='/seating/start/'] button[type=submit]").click()
    expect(page.locator("form[action$='/seating/start/']")).to_have_count(0)

    # The night is played: table 1 types its first hand on a phone; the rest is
    # recorded through the play services.
    games = []
    for table in day.rounds.get(number=1).tables.order_by("number"):
        seated = [s.person for s in table.seats.order_by("position")]
        teams = [[p] for p in seated] if len(seated) == 3 else [seated[0::2], seated[1::2]]
        games.append(start_game(table, teams, score_keeper=seated[0], first_dealer=seated[0]))
    phone = journey.page.context.browser.new_context(viewport=PHONE, locale=lang)
    table_page = phone.new_page()
    table_page.goto(f"{journey.base_url}/t/{games[0].table.token}/")
    for index, entry in enumerate(WIN):
        box = table_page.locator(f"#entry-team-{index}")
        box.locator("input[name$='melded_points']").fill(str(entry["melded_points"]))
        if entry["natural_canastas"]:
            box.locator("input[name$='natural_canastas']").fill("1")
            box.locator("input[name$='mixed_canastas']").fill("1")
        else:
            box.locator("input[name$='hand_points']").fill("30")
        box.locator(f"input[name$='went_out'][value={'out' if index == 0 else 'none'}]").check(
            force=True
        )
    table_page.locator("#hand-bar button[type=submit]").click()
    expect(table_page.locator("#scoreboard")).to_contain_text(re.compile(r"1[.,\u202f\xa0 ]?200"))
    typed = Hand.objects.get(game=games[0])
    assert typed.number == 1 and typed.entered_via  # saved by the table's phone
    journey.step_on(table_page, "table 1 typed on a phone")
    phone.close()
    with TestCase.captureOnCommitCallbacks(execute=True):
        for game in games:
            game.refresh_from_db()
            hand = WIN3 if game.teams.count() == 3 else WIN
            while not game.is_finished:
                record_hand(game, hand, number=game.hand_count + 1)
                game.refresh_from_db()
    assert Game.objects.filter(day=day, status=Game.Status.FINISHED).count() == 5

    # ---- The treasurer (desktop): the guest's charge goes on Vera's account.
    login(journey, "tess")
    line = Entry.objects.get(person=guest, kind=Entry.Kind.CHARGE).pk
    journey.goto(f"/money/people/{guest.pk}/")
    change = page.locator(f"form[action$='/money/entries/{line}/change/']")
    change.locator("xpath=ancestor::details[1]/summary").click()
    change.locator(f"#account-{line}").select_option(str(walk_ins[0].pk))
    change.locator(f"#reason-{line}").fill("Vera pays for her guest")
    for box in (f"#amount-{line}", f"#reason-{line}"):
        assert change.locator(box).bounding_box()["height"] >= 44, box
    journey.step("the guest's charge goes on her host's account")
    change.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_be_visible()
    guest_charge = Entry.objects.filter(attendee=guest, kind=Entry.Kind.CHARGE).latest("pk")
    assert guest_charge.person_id == walk_ins[0].pk and guest_charge.amount == VISITOR

    # The bank's CSV, read through its preview, then imported.
    text, paid = bank_csv(today, columns, "Cuota de mesa" if lang == "es" else "Table money")
    csv = tmp_path / "banco.csv"
    csv.write_text(text)
    journey.goto("/money/import/")
    page.locator("input[type=file]").set_input_files(str(csv))
    page.locator("main form button[type=submit]").click()
    expect(page.locator("tr.matched")).to_have_count(28)
    expect(page.locator("tr.unmatched")).to_have_count(2)
    expect(page.locator("tr.unmatched").first).to_contain_text("J SMITH")
    journey.step("import preview")
    assert not Entry.objects.filter(kind=Entry.Kind.PAYMENT).exists()  # nothing written yet
    page.locator("form[action$='/import/confirm/'] button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("28")
    payments = Entry.objects.filter(kind=Entry.Kind.PAYMENT)
    assert payments.count() == 28

    # Statements go out (through the background work).
    mail.outbox.clear()
    journey.goto("/money/statements/")
    page.locator("#id_start").fill((today - datetime.timedelta(days=7)).isoformat())
    page.locator("#id_end").fill(today.isoformat())
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator(".messages")).to_be_visible()
    journey.step("statements sent")
    statement_to = sorted(m.to[0] for m in mail.outbox)
    assert statement_to == sorted(p.email for p in people)  # one each, to every member
    run = StatementRun.objects.get()
    kept = dict(run.messages.values_list("status").annotate(n=Count("pk")).order_by())
    assert kept == {"sent": 20, "print": 3}, kept  # Vera, Walter and Gina have no e-mail

    # Balances reconcile to the cent with the CSV and the charges.
    out = io.StringIO()
    call_command("club_statement", club.slug, "--json", stdout=out)
    statement = json.loads(out.getvalue())
    charged: dict[str, Decimal] = {}  # by name: what the charges put on each account
    for entry in Entry.objects.filter(kind=Entry.Kind.CHARGE, reversal__isnull=True):
        name = entry.person.full_name
        charged[name] = charged.get(name, Decimal("0.00")) + entry.amount
    by_number = {p.membership_number: p.full_name for p in Person.objects.members()}
    paid_by_name = {by_number[number]: amount for number, amount in paid.items()}
    got = {row["name"]: Decimal(row["balance"]) for row in statement["people"]}
    for name in set(charged) | set(paid_by_name) | set(got):
        owed = paid_by_name.get(name, Decimal("0.00")) - charged.get(name, Decimal("0.00"))
        assert got.get(name, Decimal("0.00")) == owed, name
    total_paid = sum(paid.values())
    assert total_paid == sum(p.amount for p in payments) == Decimal("119.00")
    assert sum(charged.values()) == 16 * MEMBER + 2 * VISITOR + REDUCED  # 99.00
    assert sum(got.values()) == total_paid - sum(charged.values()) == 4 * MEMBER  # paid ahead
    assert got[ana.full_name] == Decimal("0.00")  # she paid for two
    assert got.get(bea.full_name, Decimal("0.00")) == Decimal("0.00")
    assert got.get(guest.full_name, Decimal("0.00")) == Decimal("0.00")  # on Vera's account
    assert got[by_first["Olga"].full_name] == MEMBER  # cancelled and paid ahead: in credit
    journey.goto("/money/")
    total = page.locator("tfoot td.num").last
    assert amount_of(total.inner_text()) == total_paid - sum(charged.values())
    journey.step("balances")

    # Bea, paid for by her partner, owes nothing (on her phone).
    page.set_viewport_size(PHONE)
    login(journey, "bea")
    journey.goto("/me/money/")
    expect(page.locator(".balance-figure")).to_contain_text("0")
    assert amount_of(page.locator(".balance-figure").inner_text()) == Decimal("0.00")
    journey.step("bea owes nothing")
