"""The door starts from the bookings: who is booked today, each signed in with one tap,
a booked guest made and signed in with the member who booked them, and the no-shows."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from members.bookings.models import Booking
from members.models import ClubDay, Person, SignIn
from members.services.door import add_guest, sign_in
from members.services.errors import SignInRefused


def booked_list(day: ClubDay) -> list[dict]:
    """The day's booked people for the door, those not yet in first: one entry per
    person (a member, their partner, a guest named in a booking)."""
    bookings = list(
        Booking.objects.booked().filter(day=day).select_related("person", "partner", "guest")
    )
    if not bookings:
        return []
    inside = set(SignIn.objects.filter(day=day).values_list("person_id", flat=True))
    rows = []
    for booking in bookings:
        for person in filter(None, (booking.person, booking.partner, booking.guest)):
            rows.append(
                {
                    "booking": booking,
                    "person": person,
                    "name": person.full_name,
                    "in": person.pk in inside,
                    "guest": False,
                }
            )
        if booking.guest_name and booking.guest_id is None:
            rows.append(
                {
                    "booking": booking,
                    "person": None,
                    "name": booking.guest_name,
                    "in": False,
                    "guest": True,
                }
            )
    rows.sort(key=lambda row: (row["in"], row["name"].lower()))
    return rows


def sign_in_booked_guest(booking: Booking, *, by=None) -> SignIn:
    """Sign in the guest a member booked: the guest of that name the member brought
    before, else a new guest record; the booking keeps it (for the draw).

    The booking's row is locked and read again first: a second tap (or a second
    tablet that loaded the booking before the first tap) waits for the first and gets
    its sign-in back, never a second guest."""
    with transaction.atomic():
        # The row alone: a join would show, after the wait, the first tap's guest_id
        # without the guest it points at (made after this statement's snapshot).
        booking = Booking.objects.select_for_update().get(pk=booking.pk)
        if booking.status != Booking.Status.BOOKED or not booking.guest_name:
            raise SignInRefused(_("That booking has no guest to sign in."))
        if booking.guest_id:
            done = SignIn.objects.filter(day=booking.day, person=booking.guest).first()
            if done is not None:
                return done
            return sign_in(booking.day, booking.guest, brought_by=booking.person, by=by)
        first, _sep, last = booking.guest_name.partition(" ")
        known = (
            Person.objects.current()
            .guests()
            .filter(first_name__iexact=first, last_name__iexact=last, brought_by=booking.person)
            .first()
        )
        if known is not None:
            record = sign_in(booking.day, known, brought_by=booking.person, by=by)
        else:
            record = add_guest(
                booking.day, first, last, booking.person, allow_same_name=True, by=by
            )
        Booking.objects.filter(pk=booking.pk).update(guest=record.person)
    return record
