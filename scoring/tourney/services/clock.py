"""The clock of the round in play: pause, resume, a minute more or less. Each action
once per form key (a double tap adds one minute, not two); later rounds shift with the
round's end (:func:`scoring.tourney.timing.schedule`)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.tourney import timing
from scoring.tourney.models import Event, EventRound
from scoring.tourney.services.errors import EventRefused
from scoring.tourney.services.once import action

FIELDS = ["paused_at", "paused_seconds", "shift_seconds"]


def _running(locked: Event, number: int) -> EventRound:
    current = locked.event_rounds.select_for_update().order_by("-number").first()
    if current is None or current.number != number:
        raise EventRefused(_("This page is out of date: reload it to see the round in play."))
    if current.started_at is None:
        raise EventRefused(_("Round %(number)s has not started yet.") % {"number": number})
    if current.ended_at is not None:
        raise EventRefused(_("Round %(number)s has already ended.") % {"number": number})
    return current


def _clock(event: Event, row: EventRound) -> timing.RoundClock:
    return timing.RoundClock(
        minutes=event.round_minutes,
        started_at=row.started_at,
        paused_at=row.paused_at,
        paused_seconds=row.paused_seconds,
        shift_seconds=row.shift_seconds,
    )


def _store(row: EventRound, clock: timing.RoundClock) -> EventRound:
    row.paused_at = clock.paused_at
    row.paused_seconds = clock.paused_seconds
    row.shift_seconds = clock.shift_seconds
    row.save(update_fields=FIELDS)
    return row


def pause(event: Event, *, number: int, key, by=None, now) -> EventRound:
    with action(event, "pause", number, key=key, by=by, now=now) as locked:
        row = _running(locked, number)
        if row.paused_at is not None:
            raise EventRefused(_("The clock is already paused."))
        return _store(row, timing.pause(_clock(locked, row), now))


def resume(event: Event, *, number: int, key, by=None, now) -> EventRound:
    with action(event, "resume", number, key=key, by=by, now=now) as locked:
        row = _running(locked, number)
        if row.paused_at is None:
            raise EventRefused(_("The clock is already running."))
        return _store(row, timing.resume(_clock(locked, row), now))


def shift(event: Event, *, number: int, minutes: int, key, by=None, now) -> EventRound:
    """A minute more (``minutes=1``) or less (``-1``) for the round in play."""
    kind = "add" if minutes > 0 else "remove"
    with action(event, kind, number, key=key, by=by, now=now) as locked:
        row = _running(locked, number)
        try:
            clock = timing.shift(_clock(locked, row), minutes * 60, now)
        except ValueError:
            raise EventRefused(
                _(
                    "Less than a minute is left: a minute cannot be taken off. End the "
                    "round instead."
                )
            ) from None
        return _store(row, clock)
