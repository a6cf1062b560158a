"""Journey: a double tap on the buttons of the club's week that write counts once, in a
real browser (issue 34): "Book", "Cancel my booking" and, booked as someone's partner,
"Cancel my place" on a member's phone, "Import the ticked payments" and "Send the
statements" on the treasurer's desktop, each form sent twice. ("Record the payment" is
double-tapped in ``test_journey_money``.)

Whichever of the two the site answers last is shown (done, or done already); the
database says what counts: one booking, one cancellation and one promotion with one
e-mail, one import, one statement run with one e-mail a person.
"""

import datetime
from decimal import Decimal

import pytest
from django.core import mail
from playwright.sync_api import expect

from members.bookings.models import Booking, Notice
from members.bookings.services import bookings
from members.bookings.services.rules import booking_settings
from members.bookings.services.rules import today as club_today
from members.models import ClubDay
from members.money.access import make_treasurer
from members.money.models import BankImport, Entry, MoneySettings, StatementRun
from members.money.services.ledger import add_charge
from members.tests.factories import MemberFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


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


def login(journey, username, password):
    page = journey.page
    page.context.clear_cookies()
    journey.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


#: The form sent twice, the second as soon as the first is answered: a second tap that
#: gets through (a browser's own double click on a plain form sends one: the second
#: submission replaces the first before it leaves). Not both at once: the test server
#: shares one SQLite connection between its threads, which two requests at once break
#: (a real server gives each request its own connection).
#: Then the page the site sends people to after the form is opened, with what the site
#: answered both times.
SEND_TWICE = """async (selector) => {
    const form = document.querySelector(selector);
    const send = () => fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual"
    });
    await send();
    await send();
}"""


def send_twice(journey, selector: str, then: str):
    journey.page.evaluate(SEND_TWICE, selector)
    journey.goto(then)


def said_twice(page, done: str, again: str):
    """The first tap did it; the second was told it was done already."""
    messages = page.locator(".messages")
    expect(messages).to_contain_text(done)
    expect(messages).to_contain_text(again)


def test_double_taps_on_book_cancel_import_and_statements_count_once(
    journey, django_user_model, tmp_path
):
    rules = booking_settings()
    rules.table_cap = 1
    rules.save()
    day = ClubDay.objects.create(date=club_today() + datetime.timedelta(days=7), title="Thursday")
    user = django_user_model.objects.create_user("ana", password="pass-123-secret")
    ana = MemberFactory(
        first_name="Ana", last_name="Socia", membership_number="101", user=user, language=""
    )
    others = [
        MemberFactory(first_name=f"Bo{i}", last_name="Club", membership_number=str(102 + i))
        for i in range(4)
    ]
    page = journey.page
    posts: list[str] = []  # every form the browser sent: a double tap sends two
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url.split("/", 3)[3]))

    def sent_twice(path: str) -> bool:
        return sum(url.rstrip("/").endswith(path) for url in posts) == 2

    # "Book", tapped twice: one booking.
    login(journey, "ana", "pass-123-secret")
    send_twice(journey, f"#book-day-{day.pk} form", then="/book/")
    said_twice(page, "Booked: ", "You are on the list for")
    assert sent_twice(f"book/{day.pk}"), posts
    assert Booking.objects.filter(day=day, person=ana).count() == 1
    for person in others:  # three take the other places, the last waits
        bookings.book(day, person)
    assert Booking.objects.filter(day=day).waiting().count() == 1

    # "Cancel my booking", tapped twice: one cancellation, one promotion, one e-mail.
    mail.outbox.clear()
    journey.goto("/book/")
    send_twice(journey, f"#book-day-{day.pk} form[action$='/cancel/']", then="/book/")
    said_twice(page, "Cancelled: ", "You are not on the list")
    journey.step("cancelled with a double tap")
    assert sent_twice(f"book/{day.pk}/cancel")
    assert Booking.objects.filter(day=day, status=Booking.Status.CANCELLED).count() == 1
    assert Booking.objects.get(day=day, person=others[3]).status == Booking.Status.BOOKED
    assert [m.to for m in mail.outbox] == [[others[3].email]]
    assert Notice.objects.count() == 1

    # The treasurer's desktop: "Import the ticked payments", tapped twice: one import.
    make_treasurer(django_user_model.objects.create_user("tess", password="tess-pass-123"))
    money = MoneySettings.load()
    money.bank_date_column, money.bank_amount_column = "Date", "Amount"
    money.bank_reference_column, money.bank_date_format = "Reference", "%d/%m/%Y"
    money.save()
    for person in (ana, *others):
        add_charge(person, Decimal("5.00"), "table", date=club_today())
    csv = tmp_path / "bank.csv"
    when = club_today().strftime("%d/%m/%Y")
    csv.write_text(
        "Date;Amount;Reference\n"
        + "".join(f"{when};5.00;Table money {p.membership_number}\n" for p in (ana, *others))
    )
    page.set_viewport_size(DESKTOP)
    login(journey, "tess", "tess-pass-123")
    journey.goto("/money/import/")
    page.locator("input[type=file]").set_input_files(str(csv))
    page.locator("main form button[type=submit]").click()
    expect(page.locator("tr.matched")).to_have_count(5)
    send_twice(journey, "form[action$='/import/confirm/']", then="/money/")
    said_twice(page, "5 payments imported", "This file was imported already")
    journey.step("imported with a double tap")
    assert sent_twice("money/import/confirm")
    assert BankImport.objects.count() == 1
    assert Entry.objects.filter(kind=Entry.Kind.PAYMENT).count() == 5

    # "Send the statements", tapped twice: one run, one e-mail a person.
    mail.outbox.clear()
    journey.goto("/money/statements/")
    page.locator("#id_start").fill((club_today() - datetime.timedelta(days=7)).isoformat())
    page.locator("#id_end").fill(club_today().isoformat())
    send_twice(journey, "main form[method=post]", then="/money/statements/")
    said_twice(page, "Statements started", "were started already")
    journey.step("statements sent with a double tap")
    assert sent_twice("money/statements")
    assert StatementRun.objects.count() == 1
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in (ana, *others))


def test_double_tap_on_cancel_my_place_as_a_partner_counts_once(journey, django_user_model):
    """Ana, booked as Bo's partner, cancels her own place with a double tap: Bo stays
    booked alone and is told once; the first waiting gets the place freed, once."""
    rules = booking_settings()
    rules.table_cap = 1
    rules.save()
    day = ClubDay.objects.create(date=club_today() + datetime.timedelta(days=7), title="Thursday")
    user = django_user_model.objects.create_user("ana", password="pass-123-secret")
    ana = MemberFactory(
        first_name="Ana", last_name="Socia", membership_number="101", user=user, language=""
    )
    bo, cy, di, ed = (
        MemberFactory(first_name=name, last_name="Club", membership_number=str(102 + i))
        for i, name in enumerate(("Bo", "Cy", "Di", "Ed"))
    )
    pair = bookings.book(day, bo, partner=ana).booking
    for person in (cy, di, ed):  # Ed waits
        bookings.book(day, person)
    mail.outbox.clear()
    page = journey.page
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url.split("/", 3)[3]))

    login(journey, "ana", "pass-123-secret")
    journey.goto("/book/")
    card = page.locator(f"#book-day-{day.pk}")
    expect(card).to_contain_text("Bo Club booked you as their partner.")
    journey.step("booked as a partner")
    send_twice(journey, f"#book-day-{day.pk} form[action$='/cancel/']", then="/book/")
    said_twice(page, "Bo Club stays booked, alone.", "You are not on the list")
    journey.step("her place cancelled with a double tap")
    assert sum(url.rstrip("/").endswith(f"book/{day.pk}/cancel") for url in posts) == 2, posts
    pair.refresh_from_db()
    assert (pair.status, pair.partner_id, pair.places) == (Booking.Status.BOOKED, None, 1)
    assert Booking.objects.get(day=day, person=ed).status == Booking.Status.BOOKED
    assert sorted(m.to[0] for m in mail.outbox) == sorted([bo.email, ed.email])
    assert Notice.objects.filter(kind=Notice.Kind.PARTNER_LEFT, person=bo).count() == 1
