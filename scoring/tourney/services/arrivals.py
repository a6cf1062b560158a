"""Arriving at a table for an event's round: the phone follows its table to the next
round, and each side taps "we are here" once (a second tap is answered, not stored)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

from members.models import Table
from scoring.tourney import reads
from scoring.tourney.models import Arrival, Event, EventRound
from scoring.tourney.services.errors import AlreadyDone, EventRefused


def next_table(table: Table) -> Table | None:
    """The same table (by number) in the event's next round, once that is seated."""
    here = EventRound.objects.filter(round_id=table.round_id).first()
    if here is None:
        return None
    after = EventRound.objects.filter(
        event_id=here.event_id, number=here.number + 1, round__isnull=False
    ).first()
    if after is None:
        return None
    return Table.objects.filter(round_id=after.round_id, number=table.number).first()


def arrive(table: Table, side: int, *, now) -> Arrival:
    """Side ``side`` (0: North–South, 1: East–West) of ``table`` is seated."""
    here = EventRound.objects.filter(round_id=table.round_id).first()
    if here is None:
        raise EventRefused(_("This table is not part of an event round."))
    if here.ended_at is not None:
        raise EventRefused(_("This round has ended; open the next round's table."))
    if side not in (0, 1) or all(row["table"] != table.number for row in here.seating):
        raise EventRefused(_("Choose your side of the table: North–South or East–West."))
    try:
        with transaction.atomic():
            arrival = Arrival.objects.create(
                event_round=here, table=table.number, side=side, at=now
            )
            Event.objects.filter(pk=here.event_id).update(version=F("version") + 1)
    except IntegrityError:
        raise AlreadyDone(_("Already done: this side is marked as here.")) from None
    reads.refresh(table.round.day_id)
    return arrival
