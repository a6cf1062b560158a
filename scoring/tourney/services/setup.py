"""Making an event on a club day, changing its settings and deleting it. The movement,
the number of rounds and the rule set are fixed once round 1 has started; the clock's
minutes and the ranking may change at any time (the ranking is worked out again from
the games). Making and deleting an event set and clear the day's ``has_event`` in the
same transaction: a table page looks for the event only on a day that has one."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from members.models import ClubDay
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
            ClubDay.objects.filter(pk=day.pk).update(has_event=True)
    except IntegrityError:
        raise AlreadyDone(_("This club day already has an event.")) from None
    day.has_event = True
    reads.refresh(day.pk)
    return event


def delete_event(event: Event) -> None:
    """The day is an ordinary club day again: its event goes, with its rounds' clocks,
    actions and arrivals (the games played stay, as the day's games)."""
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).delete()
        ClubDay.objects.filter(pk=event.day_id).update(has_event=False)
    reads.forget(event.day_id)


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
