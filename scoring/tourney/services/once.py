"""An officer's action on an event, done once per form key, in one transaction with
the event row locked; the event's version goes up (the board's fingerprint reads it)
and the phones' cached copy is written again once it commits (never over the copy of a
later action that finished first: :func:`scoring.tourney.reads.refresh`)."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.play.services.hands import valid_key
from scoring.tourney import reads
from scoring.tourney.models import ClockAction, Event
from scoring.tourney.services.errors import AlreadyDone, EventRefused


@contextmanager
def action(event: Event, kind: str, number: int, *, key, by, now):
    """``with action(event, "pause", 2, key=…, by=user, now=now) as locked:`` the
    locked event; :class:`AlreadyDone` when ``key`` was used before."""
    if not valid_key(key):
        raise EventRefused(_("This page is too old to act on: reload it and try again."))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        try:
            with transaction.atomic():
                ClockAction.objects.create(
                    event=locked, number=number, action=kind, key=key, by=_user(by), at=now
                )
        except IntegrityError:
            raise AlreadyDone(_("That was already done: the button was pressed twice.")) from None
        yield locked
        locked.version += 1
        locked.save(update_fields=["version", "finished_at"])
    reads.refresh(locked.day_id)


def _user(by):
    return by if by is not None and getattr(by, "is_authenticated", False) else None
