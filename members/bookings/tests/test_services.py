"""Bookings: the cap, the waiting list in order, promotion on a cancellation (and its
e-mail, once), the cut-off, an officer's change recorded, double taps, bad input."""

import datetime

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from members.bookings.models import Booking, BookingSettings, Notice
from members.bookings.services import bookings
from members.bookings.services.errors import BookingRefused
from members.bookings.services.rules import cutoff_at, play_starts
from members.clubs.scope import in_club
from members.models import ClubDay
from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory

pytestmark = pytest.mark.django_db
Status = Booking.Status


def test_within_the_cap_booked_then_waiting_in_order(rules, soon, people):
    statuses = [bookings.book(soon, p).booking.status for p in people[:6]]
    assert statuses == [Status.BOOKED] * 4 + [Status.WAITING] * 2
    waiting = list(Booking.objects.filter(day=soon).waiting().values_list("person", flat=True))
    assert waiting == [people[4].pk, people[5].pk]


def test_a_partner_takes_two_places(rules, soon, people):
    bookings.book(soon, people[0], partner=people[1])
    bookings.book(soon, people[2], guest_name="  Gina   Guest ")
    third = bookings.book(soon, people[3]).booking
    assert third.status == Status.WAITING
    assert Booking.objects.get(person=people[2]).guest_name == "Gina Guest"
    assert bookings.taken_places(soon) == 4


def test_no_cap_books_everyone(soon, people):
    assert BookingSettings.objects.count() == 0  # made on demand, no cap by default
    assert all(bookings.book(soon, p).booking.status == Status.BOOKED for p in people)


def test_double_tap_books_once(rules, soon, people):
    first = bookings.book(soon, people[0])
    again = bookings.book(soon, people[0])
    assert first.changed and not again.changed
    assert again.booking.pk == first.booking.pk
    assert Booking.objects.filter(day=soon).count() == 1


def test_the_database_holds_a_person_once_per_day(rules, soon, people):
    bookings.book(soon, people[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Booking.objects.create(day=soon, person=people[0])


def test_cancel_promotes_the_first_waiting_and_mails_them_once(rules, soon, people):
    made = [bookings.book(soon, p).booking for p in people[:6]]
    mail.outbox.clear()
    outcome = bookings.cancel(made[1])
    assert [b.person for b in outcome.promoted] == [people[4]]
    assert Booking.objects.get(pk=made[4].pk).status == Status.BOOKED
    assert Booking.objects.get(pk=made[5].pk).status == Status.WAITING
    assert [m.to for m in mail.outbox] == [[people[4].email]]
    assert "A place for you" in mail.outbox[0].subject
    assert "List-Unsubscribe" in mail.outbox[0].extra_headers
    # The same promotion replayed writes and sends nothing more.
    bookings.promote(soon)
    from members.bookings.services import notices

    notices.promoted(Booking.objects.get(pk=made[4].pk))
    assert Notice.objects.filter(person=people[4]).count() == 1
    assert len(mail.outbox) == 1
    # Cancelling twice is answered, not done twice.
    assert bookings.cancel(made[1]).changed is False


def test_promotion_keeps_the_order_for_a_pair(rules, soon, people):
    made = [bookings.book(soon, p).booking for p in people[:4]]
    pair = bookings.book(soon, people[4], partner=people[5]).booking
    single = bookings.book(soon, people[6]).booking
    bookings.cancel(made[0])  # one place: the pair needs two, nobody passes them
    assert Booking.objects.get(pk=pair.pk).status == Status.WAITING
    assert Booking.objects.get(pk=single.pk).status == Status.WAITING
    outcome = bookings.cancel(made[1])
    assert [b.pk for b in outcome.promoted] == [pair.pk]


def test_member_cancel_after_the_cutoff_is_refused_with_the_clubs_words(rules, soon, people):
    rules.cutoff = BookingSettings.Cutoff.HOURS
    rules.cutoff_hours = 48
    rules.cutoff_message = "Too late: phone Olive on 555-0199."
    rules.save()
    booking = bookings.book(soon, people[0]).booking
    late = play_starts(soon, rules) - datetime.timedelta(hours=47)
    with pytest.raises(BookingRefused, match="phone Olive"):
        bookings.cancel(booking, now=late)
    assert Booking.objects.get(pk=booking.pk).status == Status.BOOKED
    early = play_starts(soon, rules) - datetime.timedelta(hours=49)
    assert bookings.cancel(booking, now=early).changed


def test_officer_cancels_after_the_cutoff_and_is_recorded(rules, soon, people, officer_user):
    rules.cutoff = BookingSettings.Cutoff.HOURS
    rules.save()
    booking = bookings.book(soon, people[0]).booking
    late = play_starts(soon, rules)
    outcome = bookings.cancel(booking, by=officer_user, officer=True, now=late)
    booking.refresh_from_db()
    assert outcome.changed and booking.changed_by == officer_user
    assert booking.history.first().history_change_reason == "cancelled by an officer"


def test_the_friday_before(rules, people):
    rules.cutoff = BookingSettings.Cutoff.WEEKDAY
    rules.cutoff_weekday = 4
    rules.save()
    tuesday = ClubDayFactory(date=datetime.date(2026, 12, 8))
    friday = ClubDayFactory(date=datetime.date(2026, 12, 11))
    assert cutoff_at(tuesday, rules).date() == datetime.date(2026, 12, 5)  # end of Fri 4th
    assert cutoff_at(friday, rules).date() == datetime.date(2026, 12, 5)  # the Friday before


def test_a_day_in_the_past_is_refused(rules, people):
    past = ClubDayFactory(date=timezone.localdate() - datetime.timedelta(days=1))
    with pytest.raises(BookingRefused, match="in the past"):
        bookings.book(past, people[0])


def test_a_closed_day_is_refused(rules, soon, people):
    soon.status = ClubDay.Status.CLOSED
    soon.save()
    with pytest.raises(BookingRefused, match="closed"):
        bookings.book(soon, people[0])


def test_a_partner_from_another_club_is_refused(rules, soon, people, other_club):
    with in_club(other_club):
        stranger = MemberFactory(first_name="Zed")
    with pytest.raises(BookingRefused, match="club's members"):
        bookings.book(soon, people[0], partner=stranger)


def test_a_guest_cannot_book_nor_be_a_partner(rules, soon, people):
    guest = GuestFactory()
    with pytest.raises(BookingRefused):
        bookings.book(soon, guest)
    with pytest.raises(BookingRefused):
        bookings.book(soon, people[0], partner=guest)


def test_a_partner_already_on_the_day_is_refused(rules, soon, people):
    bookings.book(soon, people[1])
    with pytest.raises(BookingRefused, match="on the list"):
        bookings.book(soon, people[0], partner=people[1])
    bookings.book(soon, people[2], partner=people[3])
    with pytest.raises(BookingRefused, match="as their partner"):
        bookings.book(soon, people[3])


def test_guests_refused_when_the_club_says_so(rules, soon, people):
    rules.guests_allowed = False
    rules.save()
    with pytest.raises(BookingRefused, match="guests"):
        bookings.book(soon, people[0], guest_name="Gina")
    assert bookings.book(soon, people[0], guest_name="Gina", officer=True).changed


def test_raising_the_cap_promotes(rules, soon, people):
    for p in people[:6]:
        bookings.book(soon, p)
    rules.table_cap = 2
    bookings.save_settings(rules)
    assert Booking.objects.filter(day=soon).waiting().count() == 0


def test_no_show_is_marked_and_recorded(rules, people, officer_user):
    soon = ClubDayFactory(date=timezone.localdate())
    booking = bookings.book(soon, people[0], officer=True).booking
    bookings.set_no_show(booking, True, by=officer_user)
    booking.refresh_from_db()
    assert booking.no_show and booking.changed_by == officer_user
    waiting = [bookings.book(soon, p, officer=True).booking for p in people[1:5]][-1]
    with pytest.raises(BookingRefused):
        bookings.set_no_show(waiting, True)
    later = ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=3))
    with pytest.raises(BookingRefused, match="on the day"):
        bookings.set_no_show(bookings.book(later, people[6]).booking, True)


def test_mail_links_of_a_promotion_outside_a_request_lead_to_the_club(
    rules, soon, people, club, settings
):
    """A cancellation made in a shell or on the worker (no request, no root): the
    promoted member's links are the club's full address on the site."""
    settings.SITE_URL = "https://canasta.example.org/"
    made = [bookings.book(soon, p).booking for p in people[:5]]
    bookings.cancel(made[0])
    notice = Notice.objects.get(person=people[4])
    club_root = f"https://canasta.example.org/{club.slug}/"
    assert f"{club_root}book/" in notice.body
    assert notice.unsubscribe_url.startswith(f"{club_root}book/unsubscribe/")
    assert notice.unsubscribe_url in notice.body


def test_mail_links_from_a_request_keep_its_address(rules, soon, people, club):
    made = [bookings.book(soon, p).booking for p in people[:5]]
    bookings.cancel(made[0], root="https://club.example.org")
    notice = Notice.objects.get(person=people[4])
    assert "https://club.example.org/book/" in notice.body
    assert notice.unsubscribe_url.startswith("https://club.example.org/book/unsubscribe/")
