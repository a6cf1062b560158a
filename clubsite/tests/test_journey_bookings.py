"""Journey: the club's week in Spanish, in a real browser.

A club with a cap of 4 tables (16 places) and a cut-off of 48 hours. Members book the
next club day from their phones (log in, one tap on "Reservar" on the front page); the
day fills and the waiting list grows in order; a cancellation before the cut-off gives
the place to the first waiting, who is e-mailed; a cancellation after the cut-off is
refused with the club's own words. On the day, the door lists the booked people and
signs each in with one tap; a walk-in still comes in from the search. Each step is
photographed at 390×844 (a phone) and the officers' pages at 1280×800 too.
"""

import datetime

import pytest
from django.core import mail
from playwright.sync_api import expect

from members.bookings.models import Booking
from members.bookings.services import bookings
from members.bookings.services.rules import booking_settings
from members.models import ClubDay, SignIn
from members.tests.factories import MemberFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LATE = "Demasiado tarde: llame a Olivia al 555-0199."


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def login(journey, username):
    page = journey.page
    page.context.clear_cookies()
    journey.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill("pass-123-secret")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def member_with_login(django_user_model, first, number):
    user = django_user_model.objects.create_user(first.lower(), password="pass-123-secret")
    return MemberFactory(
        first_name=first, last_name="Socia", membership_number=number, user=user, language=""
    )


def card(page, day):
    return page.locator(f"#book-day-{day.pk}")


def test_members_book_wait_and_come_in_at_the_door(journey, club, django_user_model, officer_user):
    club.language_code = "es"
    club.save()
    rules = booking_settings()
    rules.table_cap = 4
    rules.cutoff = rules.Cutoff.HOURS
    rules.cutoff_hours = 48
    rules.cutoff_message = LATE
    rules.save()
    from members.bookings.services.rules import today as club_today

    today = club_today()
    next_week = ClubDay.objects.create(date=today + datetime.timedelta(days=7), title="Jueves")
    tomorrow = ClubDay.objects.create(date=today + datetime.timedelta(days=1), title="Mañana")
    door_day = ClubDay.objects.create(date=today, title="Hoy")
    ana = member_with_login(django_user_model, "Ana", "501")
    beto = member_with_login(django_user_model, "Beto", "502")
    carla = member_with_login(django_user_model, "Carla", "503")
    others = [MemberFactory(first_name=f"Socio{i}", last_name="Club") for i in range(17)]
    for person in others[:14]:  # 14 of the 16 places taken before the journey
        bookings.book(next_week, person)
    page = journey.page

    # Ana books from her phone: log in, one tap on the front page.
    login(journey, "ana")
    day_card = card(page, next_week)
    expect(day_card).to_contain_text("Quedan 2 lugares.")
    journey.step("ana sees the next days")
    day_card.get_by_role("button", name="Reservar").click()
    expect(page.locator(".messages")).to_contain_text("Reservado:")
    journey.step("ana booked")

    # Beto takes the last place; Carla goes on the waiting list.
    login(journey, "beto")
    card(page, next_week).get_by_role("button", name="Reservar").click()
    expect(page.locator(".messages")).to_contain_text("Reservado:")
    login(journey, "carla")
    card(page, next_week).get_by_role("button", name="Reservar").click()
    expect(page.locator(".messages")).to_contain_text("está en la lista de espera")
    for person in others[14:]:
        bookings.book(next_week, person)  # three more wait after her
    journey.goto("/book/")
    expect(card(page, next_week)).to_contain_text("En la lista de espera: número 1.")
    journey.step("carla waits first")
    assert Booking.objects.filter(day=next_week).waiting().count() == 4

    # Ana cancels before the cut-off: Carla gets the place and an e-mail.
    mail.outbox.clear()
    login(journey, "ana")
    journey.goto("/book/")
    card(page, next_week).get_by_role("button", name="Cancelar mi reserva").click()
    expect(page.locator(".messages")).to_contain_text("Cancelado:")
    journey.step("ana cancelled")
    assert Booking.objects.get(day=next_week, person=carla).status == Booking.Status.BOOKED
    assert [m.to for m in mail.outbox] == [[carla.email]]
    assert "Un lugar para usted" in mail.outbox[0].subject
    # A second waiting member gets the next place when Beto cancels.
    login(journey, "beto")
    journey.goto("/book/")
    card(page, next_week).get_by_role("button", name="Cancelar mi reserva").click()
    expect(page.locator(".messages")).to_contain_text("Cancelado:")
    promoted = Booking.objects.get(day=next_week, person=others[14])
    assert promoted.status == Booking.Status.BOOKED
    assert len(mail.outbox) == 2

    # Ana booked tomorrow; cancelling now is past the cut-off: refused in the club's words.
    bookings.book(tomorrow, ana)
    login(journey, "ana")
    journey.goto("/book/")
    late = card(page, tomorrow)
    expect(late).to_contain_text("El plazo para cancelar ya pasó")
    late.get_by_role("button", name="Cancelar mi reserva").click()
    expect(page.locator(".messages")).to_contain_text(LATE)
    journey.step("late cancel refused")
    assert Booking.objects.get(day=tomorrow, person=ana).status == Booking.Status.BOOKED

    # The officer's list of the day, on a phone and on a desktop.
    # (booked earlier in the week: made here by an officer, as play starts today)
    bookings.book(door_day, beto, partner=carla, officer=True)
    bookings.book(door_day, ana, officer=True)
    page.context.clear_cookies()
    journey.goto("/accounts/login/")
    page.locator("#id_username").fill("officer")
    page.locator("#id_password").fill("officer-pass-123")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    journey.goto(f"/days/{next_week.pk}/bookings/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Reservas")
    expect(page.locator("#waiting-heading")).to_contain_text("Lista de espera: 2")
    journey.step("officer day list phone")
    page.set_viewport_size(DESKTOP)
    journey.step("officer day list desktop")

    # On the day: the booked people first at the door, each in with one tap.
    journey.goto(f"/days/{door_day.pk}/door/")
    booked = page.locator("#door-booked")
    expect(booked).to_contain_text("Con reserva para hoy")
    journey.step("door booked desktop")
    page.set_viewport_size(PHONE)
    for person in (ana, beto, carla):
        booked.get_by_role("button", name=f"Registrar a {person.full_name}").click()
        expect(page.locator("#door-message")).to_contain_text(person.full_name)
    expect(page.locator("#who-is-in h2")).to_contain_text("3")
    journey.step("door booked signed in")
    # A walk-in comes in from the search, as always.
    page.locator("#id_q").fill(others[16].full_name)
    # "Find" too: a search box just swapped in may not be wired by htmx yet.
    page.locator("#door-search button[type=submit]").click()
    page.locator("#results button[value=true]").first.click()
    expect(page.locator("#who-is-in h2")).to_contain_text("4")
    journey.step("walk in")
    assert set(SignIn.objects.filter(day=door_day).values_list("person", flat=True)) == {
        ana.pk,
        beto.pk,
        carla.pk,
        others[16].pk,
    }

    # Every page of bookings fits a 320-pixel phone: nothing to scroll sideways.
    page.set_viewport_size({"width": 320, "height": 700})
    officer_pages = [
        f"/days/{next_week.pk}/bookings/",
        f"/days/{next_week.pk}/bookings/print/",
        f"/days/{door_day.pk}/door/",
        "/bookings/",
        "/bookings/settings/",
        "/announcements/",
        "/substitutes/",
    ]
    for path in officer_pages:
        journey.goto(path)
        assert fits(page), path
    login(journey, "carla")
    for path in ("/book/", f"/book/{next_week.pk}/partners/", "/"):
        journey.goto(path)
        assert fits(page), path
    journey.step("bookings at 320 pixels")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
