"""The partners booked together on a day, for the draw (``members.draw``'s
``partners``): when the club wants them seated together."""

from __future__ import annotations

from members.bookings.models import Booking
from members.bookings.services.rules import booking_settings
from members.models import ClubDay


def booked_pairs(day: ClubDay, people: list[int]) -> list[tuple[int, int]]:
    """(member, partner) of the day's bookings with a partner, or with a guest whose
    record the door made, both signed in; none unless the club seats them together."""
    if not booking_settings().seat_partners_together:
        return []
    present = set(people)
    pairs = []
    rows = (
        Booking.objects.booked()
        .filter(day=day)
        .values_list("person_id", "partner_id", "guest_id")
        .order_by("queued_at", "pk")
    )
    for person, partner, guest in rows:
        other = partner or guest
        if other and person in present and other in present:
            pairs.append((person, other))
    return pairs
