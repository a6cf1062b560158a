"""What the bookings pages read: a member's next days with their place on each, a
day's list for the officers, the current announcements. Plain querysets, a fixed
number of queries however many days or bookings."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.utils import timezone

from members.bookings.models import Announcement, Booking
from members.bookings.services.rules import (
    booking_settings,
    cutoff_at,
    past_cutoff,
    play_starts,
    today,
)
from members.models import ClubDay, Person

DAYS_AHEAD = 6


def next_days(person: Person | None, limit: int = DAYS_AHEAD, rules=None) -> list[dict]:
    """The club's next open days, each with its places and ``person``'s booking. For a
    member, the days whose play has started are left out (the door takes them)."""
    rules = rules or booking_settings()
    days = list(
        ClubDay.objects.filter(date__gte=today(), status=ClubDay.Status.OPEN).order_by(
            "date", "pk"
        )[: limit + 1]
    )
    if person is not None:
        now = timezone.now()
        days = [day for day in days if play_starts(day, rules) > now]
    days = days[:limit]
    by_day = defaultdict(list)
    for booking in (
        Booking.objects.active()
        .filter(day__in=days)
        .select_related("person", "partner")
        .order_by("queued_at", "pk")
    ):
        by_day[booking.day_id].append(booking)
    rows = []
    for day in days:
        bookings = by_day[day.pk]
        taken = sum(b.places for b in bookings if b.status == Booking.Status.BOOKED)
        waiting = [b for b in bookings if b.status == Booking.Status.WAITING]
        mine = None
        if person is not None:
            mine = next((b for b in bookings if person.pk in (b.person_id, b.partner_id)), None)
        rows.append(
            {
                "day": day,
                "mine": mine,
                "own": mine is not None and mine.person_id == person.pk,
                "place": waiting.index(mine) + 1 if mine in waiting else None,
                "taken": taken,
                "places": rules.places,
                "free": None if rules.places is None else max(rules.places - taken, 0),
                "waiting": len(waiting),
                "cancel_until": cutoff_at(day, rules) - datetime.timedelta(minutes=1),
                "late": past_cutoff(day, rules),
                "looking": sum(1 for b in bookings if b.looking_for_partner),
            }
        )
    return rows


def day_list(day: ClubDay) -> dict:
    """A day's bookings for the officers: booked, waiting (in order) and cancelled."""
    bookings = list(
        Booking.objects.filter(day=day)
        .select_related("person", "partner", "guest", "changed_by", "created_by")
        .order_by("queued_at", "pk")
    )
    _name_logins(bookings)
    booked = [b for b in bookings if b.status == Booking.Status.BOOKED]
    waiting = [b for b in bookings if b.status == Booking.Status.WAITING]
    rules = booking_settings()
    return {
        "booked": booked,
        "waiting": waiting,
        "cancelled": [b for b in bookings if b.status == Booking.Status.CANCELLED],
        # People, not bookings: a booking with a partner or a guest holds two places.
        "taken": sum(b.places for b in booked),
        "waiting_places": sum(b.places for b in waiting),
        "places": rules.places,
        "rules": rules,
        "cancel_until": cutoff_at(day, rules) - datetime.timedelta(minutes=1),
        "on_the_day": day.date <= today(),  # no-shows are marked from the day itself
    }


def login_name(user, person: Person | None = None) -> str:
    """How a login is named to people: the club's record of its person (first and last
    name), else the login's own first and last name, else its user name."""
    if person is not None and person.full_name:
        return person.full_name
    return user.get_full_name() or user.get_username()


def _name_logins(bookings: list[Booking]) -> None:
    """Name who made and who last changed each booking (``made_by_name``,
    ``changed_by_name``) by their person's name in this club: one query for the list."""
    ids = {b.created_by_id for b in bookings} | {b.changed_by_id for b in bookings}
    ids.discard(None)
    people = {}
    if ids:
        for person in (
            Person.objects.current()
            .filter(user_id__in=ids)
            .only("user_id", "first_name", "last_name")
        ):
            people.setdefault(person.user_id, person)

    def name(user):
        return login_name(user, people.get(user.pk)) if user is not None else ""

    for b in bookings:
        b.made_by_name = name(b.created_by)
        b.changed_by_name = name(b.changed_by)


def current_announcements(limit: int = 5):
    return list(Announcement.objects.current(today()).order_by("first_day", "pk")[:limit])
