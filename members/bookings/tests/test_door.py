"""The door starts from the bookings: the booked first, one tap each, a booked guest,
no-shows; the draw seats booked partners together when the club wants it."""

import contextlib
import contextvars
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.urls import reverse
from django.utils import timezone

from members.bookings import door
from members.bookings.door import sign_in_booked_guest
from members.bookings.models import Booking
from members.bookings.services import bookings
from members.models import Person, Seat, SignIn
from members.permissions import make_officer
from members.services.seating import draw_round
from members.tests.factories import ClubDayFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def today(db):
    return ClubDayFactory(date=timezone.localdate())


@pytest.fixture
def officer(client):
    user = get_user_model().objects.create_user("olive", password="x")
    make_officer(user)
    client.force_login(user)
    return client


def test_booked_people_listed_at_the_door_and_signed_in_with_one_tap(officer, today, people):
    bookings.book(today, people[0], partner=people[1], officer=True)
    bookings.book(today, people[2], officer=True)
    door = officer.get(reverse("members:signin", args=[today.pk])).content.decode()
    assert "Booked for today" in door
    for person in people[:3]:
        assert f"Sign in {person.full_name}" in door
    headers = {"HX-Request": "true"}
    url = reverse("members:signin_person", args=[today.pk])
    reply = officer.post(url, {"person": people[1].pk, "card_shown": "true"}, headers=headers)
    assert SignIn.objects.filter(day=today, person=people[1]).exists()
    body = reply.content.decode()
    assert 'id="door-booked"' in body and "signed in" in body  # the list redrawn


def test_a_booked_member_whose_dues_lapsed_is_marked_on_the_booked_list(officer, today, people):
    """The door's booked list says whose dues lapsed, as the search results do: the
    person at the door signs them in with one tap and must see it there."""
    import datetime

    from members.money.models import MoneyProfile, MoneySettings

    grace = MoneySettings.current().grace_days
    MoneyProfile.objects.create(
        person=people[0], paid_until=today.date - datetime.timedelta(days=grace + 1)
    )
    MoneyProfile.objects.create(person=people[1], paid_until=today.date)  # within the grace
    bookings.book(today, people[0], officer=True)
    bookings.book(today, people[1], officer=True)
    page = officer.get(reverse("members:signin", args=[today.pk])).content.decode()
    booked = page[page.index('id="door-booked"') : page.index('id="guest-panel"')]
    rows = {person.full_name: "" for person in people[:2]}
    for item in booked.split('<li class="door-booked-item')[1:]:
        for name in rows:
            if f"Sign in {name}" in item:
                rows[name] = item
    assert "Dues lapsed" in rows[people[0].full_name]
    assert "Dues lapsed" not in rows[people[1].full_name]


def test_booked_guest_made_and_signed_in_with_the_member(officer, today, people):
    booking = bookings.book(today, people[0], guest_name="Gina Guest", officer=True).booking
    url = reverse("bookings:door_guest", args=[today.pk, booking.pk])
    officer.post(url)
    officer.post(url)  # a double tap: still one guest, one sign-in
    guest = Person.objects.guests().get(first_name="Gina")
    assert SignIn.objects.get(day=today, person=guest).brought_by == people[0]
    assert Booking.objects.get(pk=booking.pk).guest == guest
    assert Person.objects.guests().filter(first_name="Gina").count() == 1


def test_no_show_marked_from_the_door_shows_on_the_list(officer, today, people):
    booking = bookings.book(today, people[0], officer=True).booking
    url = reverse("bookings:no_show", args=[today.pk, booking.pk])
    response = officer.post(url, {"no_show": "on", "back": "door"})
    assert response["Location"].endswith(reverse("members:signin", args=[today.pk]))
    page = officer.get(reverse("bookings:day_list", args=[today.pk])).content.decode()
    assert "did not come" in page


def test_walk_ins_still_come_in(officer, today, people):
    url = reverse("members:signin_person", args=[today.pk])
    officer.post(url, {"person": people[5].pk, "card_shown": "true"})
    assert SignIn.objects.filter(day=today, person=people[5]).exists()


def _partners(round_, a, b) -> bool:
    seat_a = Seat.objects.get(round=round_, person=a)
    seat_b = Seat.objects.get(round=round_, person=b)
    return seat_a.table_id == seat_b.table_id and abs(seat_a.position - seat_b.position) == 2


def test_draw_seats_booked_partners_together(today, people):
    pairs = [(people[0], people[1]), (people[2], people[3]), (people[4], people[5])]
    for a, b in pairs:
        bookings.book(today, a, partner=b, officer=True)
    for person in people:
        SignIn.objects.create(day=today, person=person)
    for seed in range(5):
        result = draw_round(today, "threes", seed=seed)
        assert all(_partners(result.round, a, b) for a, b in pairs)


def test_draw_ignores_bookings_when_the_club_says_so(today, people, rules):
    rules.seat_partners_together = False
    rules.save()
    bookings.book(today, people[0], partner=people[1], officer=True)
    for person in people:
        SignIn.objects.create(day=today, person=person)
    apart = 0
    for seed in range(12):
        apart += not _partners(draw_round(today, "threes", seed=seed).round, people[0], people[1])
    assert apart  # drawn as anyone else: not always together


def test_door_page_query_budget_with_bookings(
    officer, today, people, django_assert_max_num_queries
):
    for i in range(0, 8, 2):
        bookings.book(today, people[i], partner=people[i + 1], officer=True)
    SignIn.objects.create(day=today, person=people[0])
    with django_assert_max_num_queries(20):
        response = officer.get(reverse("members:signin", args=[today.pk]))
    assert response.content.decode().count("Sign in ") >= 7


def test_a_second_tap_on_the_booking_as_first_loaded_gets_the_first_ones_result(today, people):
    """Two tablets loaded the booking before either tapped: the second tap finds the
    guest the first made and answers with that sign-in, no second record."""
    booking = bookings.book(today, people[0], guest_name="Gina Guest", officer=True).booking
    stale = Booking.objects.get(pk=booking.pk)
    first = sign_in_booked_guest(booking)
    second = sign_in_booked_guest(stale)
    assert second.pk == first.pk
    assert Person.objects.guests().filter(first_name="Gina").count() == 1
    assert SignIn.objects.filter(day=today, person__first_name="Gina").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_tablets_tapping_the_booked_guest_at_once_make_one_guest(today, people, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    booking = bookings.book(today, people[0], guest_name="Gina Guest", officer=True).booking
    # Both taps reach the making of the guest together, if nothing holds the second back.
    meet = threading.Barrier(2)
    real_add_guest = door.add_guest

    def add_guest_together(*args, **kwargs):
        # The other tap may wait on the booking's lock instead: then go on alone.
        with contextlib.suppress(threading.BrokenBarrierError):
            meet.wait(timeout=2)
        return real_add_guest(*args, **kwargs)

    monkeypatch.setattr(door, "add_guest", add_guest_together)
    results, errors = [], []

    def tap():
        try:
            results.append(sign_in_booked_guest(booking).pk)
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=contextvars.copy_context().run, args=(tap,)) for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert len(results) == 2 and results[0] == results[1]
    assert Person.objects.guests().filter(first_name="Gina").count() == 1
    assert SignIn.objects.filter(day=today, person__first_name="Gina").count() == 1
