"""What the bookings pages read: a member's next days with their place on each, a
day's list for the officers, the current announcements. Plain querysets, a fixed
number of queries however many days or bookings."""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from members.bookings.models import Announcement, Booking, BookingSettings
from members.bookings.services.rules import (
    booking_settings,
    cutoff_at,
    past_cutoff,
    play_starts,
    today,
)
from members.clubs.scope import current_club_id
from members.models import ClubDay, Person

DAYS_AHEAD = 6


def next_days(person: Person | None, limit: int = DAYS_AHEAD, rules=None) -> list[dict]:
    """The club's next open days, each with its places and ``person``'s booking. For a
    member, the days whose play has started are left out (the door takes them)."""
    rules = rules or booking_settings()
    days = _open_days(limit + 1)
    return _rows(person, limit, rules, days, _active_bookings(days))


def _open_days(count: int) -> list[ClubDay]:
    return list(
        ClubDay.objects.filter(date__gte=today(), status=ClubDay.Status.OPEN).order_by(
            "date", "pk"
        )[:count]
    )


def _active_bookings(days: list[ClubDay]) -> list[Booking]:
    return list(
        Booking.objects.active()
        .filter(day__in=days)
        .select_related("person", "partner")
        .order_by("queued_at", "pk")
    )


def _rows(person, limit: int, rules, days: list[ClubDay], bookings: list[Booking]) -> list[dict]:
    if person is not None:
        now = timezone.now()
        days = [day for day in days if play_starts(day, rules) > now]
    days = days[:limit]
    by_day = defaultdict(list)
    for booking in bookings:
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


# A member's next days are on their own page and the front page, which members open
# far more often than anyone books: the club's settings, its open days to come and
# their bookings (three queries and most of the CPU of a member's own page) are kept
# in the shared cache, one copy per club and date, shared by every member, who each get
# their own rows from it. Each copy carries the club's bookings version, which any
# save or delete of a booking, a club day, the settings or a person (a partner's name)
# replaces (:func:`days_changed`, connected in ``members.bookings.apps``), so a member
# who has just booked sees it at once; the version and the copy are read in one round
# trip. Whether a day's play has started and whether its cut-off has passed are worked
# out at each read, from the kept settings.
VERSION_KEY = "bookings-days:version:{club}"
DAYS_KEY = "bookings-days:{club}:{date}"
#: How long a copy is kept (a version change retires it sooner).
KEEP_SECONDS = 300


def kept_next_days(person: Person, limit: int = 3) -> tuple[object, list[dict]]:
    """:func:`next_days` of a member (``limit`` at most :data:`DAYS_AHEAD`) with the
    club's booking settings, from the kept copy when its version is current."""
    club = current_club_id()
    version_key = VERSION_KEY.format(club=club)
    key = DAYS_KEY.format(club=club, date=today().isoformat())
    kept = cache.get_many([version_key, key])
    version, copy = kept.get(version_key), kept.get(key)
    if version is None or copy is None or copy[0] != version:
        if version is None:  # cleared or evicted: a new one (copies under an old one die)
            version = uuid.uuid4().hex
            cache.set(version_key, version, None)
        # Not made here when missing (its save would retire this very copy): the defaults.
        rules = BookingSettings.objects.first() or BookingSettings()
        days = _open_days(DAYS_AHEAD + 1)
        copy = (version, rules, days, _active_bookings(days))
        cache.set(key, copy, KEEP_SECONDS)
    _, rules, days, bookings = copy
    return rules, _rows(person, min(limit, DAYS_AHEAD), rules, days, bookings)


def days_changed(club_id: int | None) -> None:
    """Something a member's next days show may have changed at ``club_id``: its kept
    copies are retired once the transaction commits (at once outside one). A request
    that read the rows before the commit kept them under the version it read first,
    which this retires. Not also at once: with the cache in the database that write
    would lock the version's row in the writer's transaction, where a booking's day
    lock taken in the other order (the settings' save, then each day's waiting list)
    could deadlock with it."""
    if club_id is None:
        return
    key = VERSION_KEY.format(club=club_id)
    transaction.on_commit(lambda: cache.set(key, uuid.uuid4().hex, None))


def days_changed_by(sender, instance, raw=False, **kwargs) -> None:
    """:func:`days_changed` as a receiver of a row's save or delete."""
    if not raw:
        days_changed(getattr(instance, "club_id", None))


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
