"""A member booked as someone's partner cancels her own place (before the cut-off, as
anyone): the booking stays, single, for the member who made it, who is told by e-mail;
the place freed goes to the first waiting. A double tap counts once; the officers' list
and the door show the booking as it is now."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from members.bookings.door import booked_list
from members.bookings.models import Booking, BookingSettings, Notice
from members.bookings.services import bookings
from members.bookings.services.errors import BookingRefused
from members.bookings.services.rules import play_starts
from members.permissions import make_officer

pytestmark = pytest.mark.django_db
Status = Booking.Status


def _client(person=None, officer=False):
    from django.test import Client

    User = get_user_model()
    user = User.objects.create_user(f"login{User.objects.count()}", password="x")
    if person is not None:
        person.user = user
        person.save()
    if officer:
        make_officer(user)
    client = Client()
    client.force_login(user)
    return client


def _full_day_with_a_pair(soon, people):
    """Ann booked with Bob, Cid and Dot alone (four places, the cap); Eve waits."""
    pair = bookings.book(soon, people[0], partner=people[1]).booking
    for person in people[2:5]:
        bookings.book(soon, person)
    mail.outbox.clear()
    return pair


def test_the_partner_leaves_the_booker_stays_alone_and_the_first_waiting_comes_in(
    rules, soon, people
):
    pair = _full_day_with_a_pair(soon, people)
    outcome = bookings.leave(pair, people[1], by=None)
    pair.refresh_from_db()
    assert outcome.changed
    assert (pair.status, pair.partner_id, pair.places) == (Status.BOOKED, None, 1)
    assert bookings.on_day(soon, people[1]) is None
    assert [b.person for b in outcome.promoted] == [people[4]]
    assert Booking.objects.get(day=soon, person=people[4]).status == Status.BOOKED
    assert bookings.taken_places(soon) == 4
    assert pair.history.first().history_change_reason == "the partner cancelled"
    # Ann is told (once) that Bob cancelled; Eve that she has a place.
    note = Notice.objects.get(person=people[0])
    assert note.kind == Notice.Kind.PARTNER_LEFT
    assert "Bob Player" in note.body and "still booked" in note.body
    assert sorted(m.to[0] for m in mail.outbox) == sorted([people[0].email, people[4].email])
    # Again: nothing more (the booking no longer holds Bob).
    again = bookings.leave(Booking.objects.get(pk=pair.pk), people[1])
    assert not again.changed
    assert Notice.objects.filter(person=people[0]).count() == 1


def test_the_partner_cannot_leave_after_the_cutoff(rules, soon, people):
    rules.cutoff = BookingSettings.Cutoff.HOURS
    rules.cutoff_hours = 48
    rules.cutoff_message = "Too late: phone Olive."
    rules.save()
    pair = _full_day_with_a_pair(soon, people)
    late = play_starts(soon, rules) - datetime.timedelta(hours=47)
    with pytest.raises(BookingRefused, match="phone Olive"):
        bookings.leave(pair, people[1], now=late)
    pair.refresh_from_db()
    assert (pair.partner_id, pair.places) == (people[1].pk, 2)
    assert not Notice.objects.exists()


def test_only_the_partner_of_the_booking_leaves_it(rules, soon, people):
    pair = _full_day_with_a_pair(soon, people)
    assert not bookings.leave(pair, people[2]).changed
    pair.refresh_from_db()
    assert pair.partner_id == people[1].pk


def test_a_waiting_pair_whose_partner_leaves_waits_alone_or_comes_in(rules, soon, people):
    for person in people[:3]:
        bookings.book(soon, person)
    pair = bookings.book(soon, people[3], partner=people[4]).booking
    assert pair.status == Status.WAITING  # one place left, the pair needs two
    outcome = bookings.leave(pair, people[4])
    pair.refresh_from_db()
    assert (pair.places, pair.partner_id) == (1, None)
    assert pair.status == Status.BOOKED  # alone, Dot fits in the last place
    assert [b.pk for b in outcome.promoted] == [pair.pk]


def test_partner_cancels_from_her_page_with_a_double_tap_once(rules, soon, people):
    pair = _full_day_with_a_pair(soon, people)
    bob = _client(people[1])
    page = bob.get(reverse("bookings:days")).content.decode()
    url = reverse("bookings:cancel", args=[soon.pk])
    assert f'action="{url}"' in page  # her own "Cancel my place" button
    first = bob.post(url, follow=True).content.decode()
    assert "Ann Player stays booked" in first
    second = bob.post(url, follow=True).content.decode()
    assert "You are not on the list for" in second
    pair.refresh_from_db()
    assert (pair.status, pair.partner_id, pair.places) == (Status.BOOKED, None, 1)
    assert Notice.objects.filter(person=people[0], kind=Notice.Kind.PARTNER_LEFT).count() == 1
    assert Notice.objects.filter(person=people[4], kind=Notice.Kind.PROMOTED).count() == 1
    assert Booking.objects.filter(day=soon).exclude(status=Status.BOOKED).count() == 0
    # The officers' list: Ann alone, four people booked; the door lists no Bob.
    officer = _client(officer=True)
    listing = officer.get(reverse("bookings:day_list", args=[soon.pk])).content.decode()
    assert "Ann Player</span> &amp;" not in listing
    assert "Booked: 4 people" in listing
    assert "Nobody is waiting." in listing
    names = [row["name"] for row in booked_list(soon)]
    assert "Bob Player" not in names and "Ann Player" in names and "Eve Player" in names


def test_partner_cancel_after_the_cutoff_refused_from_her_page(rules, soon, people):
    rules.cutoff = BookingSettings.Cutoff.HOURS
    rules.cutoff_hours = 24 * 8  # a week ahead is past it already
    rules.cutoff_message = "Ring Olive to cancel now."
    rules.save()
    pair = _full_day_with_a_pair(soon, people)
    bob = _client(people[1])
    response = bob.post(reverse("bookings:cancel", args=[soon.pk]), follow=True)
    assert "Ring Olive to cancel now." in response.content.decode()
    pair.refresh_from_db()
    assert pair.partner_id == people[1].pk and not Notice.objects.exists()
