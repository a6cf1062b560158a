"""Booking a club day, cancelling, and the waiting list.

Every change locks the day's row first (``members.services.days.lock_day``: FOR NO KEY
UPDATE on PostgreSQL, the one writer of SQLite's IMMEDIATE transactions), so two
members booking the last place at once are served one after the other: one gets it,
the other waits. A person is on a day once (``booking_once_per_day``, and as a partner
``booking_partner_once_per_day``): a double tap answers with the booking already made.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from members.bookings.models import Booking, BookingSettings
from members.bookings.services import notices
from members.bookings.services.errors import BookingRefused
from members.bookings.services.rules import (
    booking_settings,
    cutoff_message,
    past_cutoff,
    play_starts,
    today,
)
from members.models import ClubDay, Person
from members.services.days import lock_day

Status = Booking.Status


@dataclass
class Outcome:
    """What a booking or cancellation did: the booking, whether this call made the
    change (False: it was made already, a double tap), and who left the waiting list."""

    booking: Booking
    changed: bool
    promoted: list[Booking] = field(default_factory=list)


def _user(by):
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def taken_places(day: ClubDay) -> int:
    return Booking.objects.filter(day=day).booked().aggregate(n=Sum("places"))["n"] or 0


def on_day(day: ClubDay, person: Person) -> Booking | None:
    """The active booking that holds ``person`` on ``day`` (their own or as a partner)."""
    return (
        Booking.objects.active()
        .filter(Q(person=person) | Q(partner=person), day=day)
        .select_related("day", "person", "partner")
        .first()
    )


def _check_day(day: ClubDay, rules: BookingSettings, officer: bool, now) -> None:
    if not day.is_open:
        raise BookingRefused(_("%(day)s is closed: it takes no more bookings.") % {"day": day})
    if day.date < today():
        raise BookingRefused(_("%(day)s is in the past: choose a day to come.") % {"day": day})
    if not officer and (now or timezone.now()) >= play_starts(day, rules):
        raise BookingRefused(
            _("Play on %(day)s has started: ask an officer at the door.") % {"day": day}
        )


def _check_people(day, person, partner, guest_name, rules, officer) -> None:
    if person.is_merged or not person.is_member:
        raise BookingRefused(_("Only members book club days; a guest comes with a member."))
    if partner is not None:
        if partner.club_id != day.club_id or partner.is_merged or not partner.is_member:
            raise BookingRefused(_("Choose your partner from the club's members."))
        if partner.pk == person.pk:
            raise BookingRefused(_("Choose someone else as your partner, or book alone."))
        held = on_day(day, partner)
        if held is not None:
            raise BookingRefused(
                _("%(name)s is on the list for %(day)s already; book alone, or ask them.")
                % {"name": partner.full_name, "day": day}
            )
    if guest_name and not (rules.guests_allowed or officer):
        raise BookingRefused(_("The club does not take bookings for guests; book alone."))


def _status_for(day: ClubDay, places: int, rules: BookingSettings) -> str:
    if rules.places is None:
        return Status.BOOKED
    if Booking.objects.filter(day=day).waiting().exists():
        return Status.WAITING  # those waiting come first
    return Status.BOOKED if taken_places(day) + places <= rules.places else Status.WAITING


def book(
    day: ClubDay,
    person: Person,
    *,
    partner: Person | None = None,
    guest_name: str = "",
    by=None,
    officer: bool = False,
    now: datetime.datetime | None = None,
) -> Outcome:
    """Book ``person`` (a member) on ``day``, alone, with a member as ``partner`` or
    with a guest (``guest_name``). Booked while the day has room, else on the waiting
    list. Booking again answers with the booking already made."""
    guest_name = " ".join((guest_name or "").split())[:160]
    if partner is not None and guest_name:
        raise BookingRefused(_("Book with a member or with a guest, not both."))
    rules = booking_settings()
    _check_day(day, rules, officer, now)
    with transaction.atomic():
        lock_day(day)
        held = on_day(day, person)
        if held is not None:
            if held.person_id == person.pk:
                return Outcome(held, False)
            raise BookingRefused(
                _("%(name)s booked you as their partner for %(day)s already.")
                % {"name": held.person.full_name, "day": day}
            )
        _check_people(day, person, partner, guest_name, rules, officer)
        places = 2 if (partner is not None or guest_name) else 1
        try:
            with transaction.atomic():
                booking = Booking.objects.create(
                    day=day,
                    person=person,
                    partner=partner,
                    guest_name=guest_name,
                    places=places,
                    status=_status_for(day, places, rules),
                    created_by=_user(by),
                )
        except IntegrityError:
            held = on_day(day, person)
            if held is None:
                raise BookingRefused(_("Someone on this booking is on the list already.")) from None
            return Outcome(held, False)
    return Outcome(booking, True)


def _rules_if_not_late(booking: Booking, officer: bool, now) -> BookingSettings:
    """The club's booking rules, once a member's change to ``booking`` is known not to
    come after the cut-off (refused with the club's words if it does; an officer may
    always change it)."""
    rules = booking_settings()
    day = booking.day
    if not officer and booking.status == Status.BOOKED and past_cutoff(day, rules, now):
        raise BookingRefused(cutoff_message(day, rules))
    return rules


def cancel(
    booking: Booking,
    *,
    by=None,
    officer: bool = False,
    root: str = "",
    now: datetime.datetime | None = None,
) -> Outcome:
    """Cancel a booking. A member cannot after the club's cut-off (the club's message
    says so); an officer always can, and the change records who. A place freed goes to
    the first waiting, who are e-mailed."""
    if not booking.is_active:
        return Outcome(booking, False)
    rules = _rules_if_not_late(booking, officer, now)
    day = booking.day
    with transaction.atomic():
        lock_day(day)
        booking = Booking.objects.select_related("day").get(pk=booking.pk)
        if not booking.is_active:
            return Outcome(booking, False)
        booking.status = Status.CANCELLED
        booking.changed_at = timezone.now()
        booking.changed_by = _user(by)
        booking.looking_for_partner = False
        booking._change_reason = "cancelled by an officer" if officer else "cancelled"
        booking.save()
        promoted = promote(day, rules, root=root)
    return Outcome(booking, True, promoted)


def leave(
    booking: Booking,
    partner: Person,
    *,
    by=None,
    officer: bool = False,
    root: str = "",
    now: datetime.datetime | None = None,
) -> Outcome:
    """The member booked as ``partner`` on ``booking`` cancels her own place, on the
    same terms as a cancellation (refused past the cut-off unless an officer). The
    booking stays, single, for the member who made it (they still come, and may look
    for a partner), who is e-mailed; the place freed goes to the first waiting. Done
    already (the booking no longer holds ``partner``): nothing changes."""
    if not booking.is_active or booking.partner_id != partner.pk:
        return Outcome(booking, False)
    rules = _rules_if_not_late(booking, officer, now)
    day = booking.day
    with transaction.atomic():
        lock_day(day)
        booking = Booking.objects.select_related("day", "person").get(pk=booking.pk)
        if not booking.is_active or booking.partner_id != partner.pk:
            return Outcome(booking, False)
        booking.partner = None
        booking.places = 1
        booking.changed_at = timezone.now()
        booking.changed_by = _user(by)
        booking._change_reason = "the partner cancelled"
        booking.save()
        notices.partner_left(booking, partner, root=root)
        promoted = promote(day, rules, root=root)
    return Outcome(booking, True, promoted)


def promote(day: ClubDay, rules: BookingSettings | None = None, *, root: str = "") -> list:
    """Give free places to the waiting, first come first served (call with the day
    locked). Stops at the first who does not fit, so nobody is passed over. Each
    promoted booking's people are e-mailed once (:mod:`.notices`)."""
    rules = rules or booking_settings()
    free = None if rules.places is None else rules.places - taken_places(day)
    promoted = []
    for waiting in Booking.objects.filter(day=day).waiting().select_related("person", "partner"):
        if free is not None and waiting.places > free:
            break
        waiting.status = Status.BOOKED
        waiting.changed_at = timezone.now()
        waiting._change_reason = "a place came free"
        waiting.save(update_fields=["status", "changed_at"])
        if free is not None:
            free -= waiting.places
        promoted.append(waiting)
    for booking in promoted:
        notices.promoted(booking, root=root)
    return promoted


def set_no_show(booking: Booking, no_show: bool, *, by=None) -> Booking:
    """Mark (or unmark) a booked person who did not come (officers, on the day)."""
    if booking.status != Status.BOOKED:
        raise BookingRefused(_("Only a booked person can be marked as not come."))
    if booking.day.date > today():
        raise BookingRefused(_("Mark who did not come on the day itself."))
    if booking.no_show != no_show:
        booking.no_show = no_show
        booking.changed_at = timezone.now()
        booking.changed_by = _user(by)
        booking._change_reason = "no-show" if no_show else "no-show taken back"
        booking.save(update_fields=["no_show", "changed_at", "changed_by"])
    return booking


def set_looking(booking: Booking, looking: bool) -> Booking:
    """A member booked alone says they look for a partner (or no longer)."""
    if not booking.is_active:
        raise BookingRefused(_("Book the day first, then say you look for a partner."))
    if looking and booking.places > 1:
        raise BookingRefused(_("You are booked with someone already."))
    if booking.looking_for_partner != looking:
        booking.looking_for_partner = looking
        booking.save(update_fields=["looking_for_partner"])
    return booking


def save_settings(rules: BookingSettings, *, root: str = "") -> BookingSettings:
    """Save the club's booking settings; a cap raised (or removed) gives the new places
    to the waiting of every day to come."""
    with transaction.atomic():
        rules._change_reason = "settings changed"
        rules.save()
        for day in ClubDay.objects.filter(date__gte=today(), status=ClubDay.Status.OPEN):
            if Booking.objects.filter(day=day).waiting().exists():
                lock_day(day)
                promote(day, rules, root=root)
    return rules
