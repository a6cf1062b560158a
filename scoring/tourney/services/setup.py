"""Making an event on a club day and changing its settings. The movement, the number
of rounds and the rule set are fixed once round 1 has started; the clock's minutes and
the ranking may change at any time (the ranking is worked out again from the games)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.tourney import reads
from scoring.tourney.models import Event
from scoring.tourney.services.errors import AlreadyDone, EventRefused

#: Settings that cannot change once round 1 has started.
FIXED_ONCE_STARTED = ("movement", "rounds", "rule_set")


def create_event(day, **settings) -> Event:
    """The day's event (one per day): a second one for the same day is refused."""
    if not day.is_open:
        raise EventRefused(_("%(day)s is closed; reopen it to make an event.") % {"day": day})
    try:
        with transaction.atomic():
            event = Event.objects.create(day=day, **settings)
    except IntegrityError:
        raise AlreadyDone(_("This club day already has an event.")) from None
    reads.refresh(day.pk)
    return event


def edit_event(event: Event, **settings) -> Event:
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        started = locked.event_rounds.exists()
        for name, value in settings.items():
            if started and name in FIXED_ONCE_STARTED and _differs(locked, name, value):
                raise EventRefused(
                    _(
                        "The movement, the number of rounds and the rules cannot change once "
                        "round 1 has started; the clock's minutes and the ranking can."
                    )
                )
            setattr(locked, name, value)
        locked.version += 1
        locked.save()
    reads.refresh(locked.day_id)
    return locked


def _differs(event: Event, name: str, value) -> bool:
    current = getattr(event, name)
    return getattr(current, "pk", current) != getattr(value, "pk", value)
