"""Seating on a club day: drawing a round onto tables, starting play, moving and
swapping people before play starts, and reading the seats back.

The draw itself is pure and lives in :mod:`members.draw`; this module stores it.
Once a round has started its seats are fixed.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass

from django.db import models, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from members import draw
from members.bookings.pairs import booked_pairs
from members.draw_words import impossible
from members.models import ClubDay, Person, Round, Seat, SignIn, Table
from members.services.errors import SeatingRefused


@dataclass
class DrawResult:
    round: Round
    sitting_out: list[Person]
    redrawn: bool


def current_round(day: ClubDay) -> Round | None:
    return day.rounds.order_by("-number").first()


def signed_in_ids(day: ClubDay) -> list[int]:
    return list(
        SignIn.objects.filter(day=day, person__merged_into__isnull=True)
        .order_by("person_id")
        .values_list("person_id", flat=True)
    )


def draw_round(
    day: ClubDay,
    remainder: str,
    *,
    seed: int | None = None,
    by=None,
    spread_guests: bool = True,
) -> DrawResult:
    """Draw everyone signed in onto numbered tables.

    Redraws the latest round while its play has not started; otherwise starts the next
    round. People who sat out the previous round are the last chosen to sit out again.
    With ``spread_guests`` (the default) the day's guests are spread over the tables:
    no table gets two guests while another has none. Partners booked together sit
    together when the club wants it (``members.bookings.pairs``)."""
    if not day.is_open:
        raise SeatingRefused(_("%(day)s is closed; reopen it to seat people.") % {"day": day})
    if remainder not in draw.REMAINDER_CHOICES:
        raise SeatingRefused(_("Choose what to do when the count is not a multiple of four."))
    people = signed_in_ids(day)
    if not people:
        raise SeatingRefused(_("Nobody is signed in yet: sign people in at the door first."))
    if seed is None:
        seed = secrets.randbits(48)
    with transaction.atomic():
        latest = day.rounds.select_for_update().order_by("-number").first()
        redraw = latest is not None and not latest.started
        previous = (
            latest
            if not redraw
            else (day.rounds.filter(number__lt=latest.number).order_by("-number").first())
        )
        avoid: set[int] = set()
        if previous is not None:
            seated = set(previous.seats.values_list("person_id", flat=True))
            avoid = {pid for pid in people if pid not in seated}
        try:
            result = draw.draw(
                people,
                remainder,
                random.Random(seed),
                avoid_sitting_out=avoid,
                spread=_guests(people) if spread_guests else (),
                partners=booked_pairs(day, people),
            )
        except draw.SeatingImpossible:
            raise SeatingRefused(impossible(len(people))) from None
        round_ = _clear_for_redraw(latest) if redraw else _next_round(day, latest)
        _store_draw(round_, result, remainder, seed)
    out = Person.objects.in_bulk(result.sitting_out)
    return DrawResult(
        round=round_, sitting_out=[out[pid] for pid in result.sitting_out], redrawn=redraw
    )


def _guests(people: list[int]) -> set[int]:
    return set(
        Person.objects.filter(pk__in=people, kind=Person.Kind.GUEST).values_list("pk", flat=True)
    )


def _clear_for_redraw(round_: Round) -> Round:
    """The latest round, not started, emptied of its tables to be drawn again."""
    try:
        round_.tables.all().delete()
    except ProtectedError:
        raise SeatingRefused(
            _(
                "Games have already begun at the tables of round %(number)s; it "
                "cannot be drawn again."
            )
            % {"number": round_.number}
        ) from None
    return round_


def _next_round(day: ClubDay, latest: Round | None) -> Round:
    return Round.objects.create(day=day, number=(latest.number + 1) if latest else 1)


def _store_draw(round_: Round, result: draw.Draw, remainder: str, seed: int) -> None:
    """Save how the round was drawn and its tables and seats."""
    round_.remainder = remainder
    round_.seed = seed
    round_.drawn_at = timezone.now()
    round_.save(update_fields=["remainder", "seed", "drawn_at"])
    seats = []
    for number, table_people in result.numbered():
        table = Table.objects.create(round=round_, number=number)
        seats.extend(
            Seat(round=round_, table=table, person_id=pid, position=position)
            for position, pid in enumerate(table_people, start=1)
        )
    Seat.objects.bulk_create(seats)


def start_round(round_: Round) -> Round:
    """Play begins: the seats are fixed from now on."""
    if round_.started:
        raise SeatingRefused(_("Round %(number)s has already started.") % {"number": round_.number})
    if not round_.seats.exists():
        raise SeatingRefused(
            _("Round %(number)s has nobody seated yet; draw tables first.")
            % {"number": round_.number}
        )
    round_.started = True
    round_.save(update_fields=["started"])
    return round_


def _check_movable(round_: Round) -> None:
    round_.refresh_from_db(fields=["started"])
    if round_.started:
        raise SeatingRefused(
            _(
                "Play has started in round %(number)s: seats can no longer be "
                "moved. Draw the next round instead."
            )
            % {"number": round_.number}
        )


def _check_signed_in(round_: Round, person: Person) -> None:
    if not SignIn.objects.filter(day_id=round_.day_id, person=person).exists():
        raise SeatingRefused(
            _("%(name)s is not signed in today; sign them in first.") % {"name": person.full_name}
        )


MAX_AT_TABLE = 6


def move_seat(
    round_: Round,
    person: Person,
    table_number: int | None,
    position: int | None = None,
    *,
    by=None,
) -> str:
    """Move a person to a table (a new one if `table_number` is one past the last), at a
    given free seat or the first free one; `table_number=None` takes them off the
    tables (sitting out). Returns a message."""
    with transaction.atomic():
        _check_movable(round_)
        _check_signed_in(round_, person)
        current = Seat.objects.filter(round=round_, person=person).select_related("table").first()
        if table_number is None:
            if current is None:
                raise SeatingRefused(
                    _("%(name)s is not at a table in this round.") % {"name": person.full_name}
                )
            old_table = current.table
            current.delete()
            _drop_if_empty(old_table)
            return _("%(name)s is sitting out this round.") % {"name": person.full_name}
        table = _table_numbered(round_, table_number)
        taken = {s.position: s for s in Seat.objects.filter(table=table).select_related("person")}
        if position is None:
            free = [p for p in range(1, MAX_AT_TABLE + 1) if p not in taken]
            if current is not None and current.table_id == table.pk:
                return _("%(name)s is already at table %(number)s.") % {
                    "name": person.full_name,
                    "number": table.number,
                }
            if not free:
                raise SeatingRefused(
                    _("Table %(number)s is full (%(max_at_table)s players).")
                    % {"number": table.number, "max_at_table": MAX_AT_TABLE}
                )
            position = free[0]
        if not 1 <= position <= MAX_AT_TABLE:
            raise SeatingRefused(
                _("Seats are numbered 1 to %(max_at_table)s.") % {"max_at_table": MAX_AT_TABLE}
            )
        occupant = taken.get(position)
        if occupant is not None:
            if occupant.person_id == person.pk:
                return _("%(name)s is already in that seat.") % {"name": person.full_name}
            raise SeatingRefused(
                _(
                    "Seat %(position)s at table %(number)s is taken by %(name)s. Use "
                    "“Swap two people” to exchange them."
                )
                % {"position": position, "number": table.number, "name": occupant.person.full_name}
            )
        old_table = None
        if current is not None:
            old_table = current.table
            current.table = table
            current.position = position
            current.save(update_fields=["table", "position"])
        else:
            Seat.objects.create(round=round_, table=table, person=person, position=position)
        if old_table is not None and old_table.pk != table.pk:
            _drop_if_empty(old_table)
    return _("%(name)s moved to table %(number)s, seat %(position)s.") % {
        "name": person.full_name,
        "number": table.number,
        "position": position,
    }


def _table_numbered(round_: Round, table_number: int) -> Table:
    """The round's table of that number, made if it is a new one (up to 99)."""
    tables = {t.number: t for t in round_.tables.all()}
    last = max(tables, default=0)
    if table_number in tables:
        return tables[table_number]
    if 1 <= table_number <= max(last + 1, 99):
        return Table.objects.create(round=round_, number=table_number)
    raise SeatingRefused(_("Tables are numbered 1 to %(max)s.") % {"max": max(last + 1, 99)})


def _drop_if_empty(table: Table) -> None:
    if not table.seats.exists():
        try:
            with transaction.atomic():
                table.delete()
        except ProtectedError:
            pass  # another app keeps a game at this table; leave it


def swap_seats(round_: Round, first: Person, second: Person, *, by=None) -> str:
    """Exchange two people's seats. If one of them is not at a table (sitting out),
    the other leaves the table and they take the seat."""
    if first.pk == second.pk:
        raise SeatingRefused(_("Choose two different people to swap."))
    with transaction.atomic():
        _check_movable(round_)
        _check_signed_in(round_, first)
        _check_signed_in(round_, second)
        seats = {
            s.person_id: s
            for s in Seat.objects.filter(round=round_, person__in=[first, second]).select_related(
                "table"
            )
        }
        a, b = seats.get(first.pk), seats.get(second.pk)
        if a is None and b is None:
            raise SeatingRefused(
                _("Neither %(name)s nor %(name2)s is at a table this round.")
                % {"name": first.full_name, "name2": second.full_name}
            )
        places = [(s.table, s.position, s.person_id) for s in (a, b) if s is not None]
        Seat.objects.filter(pk__in=[s.pk for s in (a, b) if s is not None]).delete()
        swap = {first.pk: second.pk, second.pk: first.pk}
        Seat.objects.bulk_create(
            Seat(round=round_, table=table, position=position, person_id=swap[pid])
            for table, position, pid in places
        )
    if a is not None and b is not None:
        return _(
            "Swapped: %(name)s is now at table %(number)s, %(name2)s at table %(number2)s."
        ) % {
            "name": first.full_name,
            "number": b.table.number,
            "name2": second.full_name,
            "number2": a.table.number,
        }
    sitting, playing = (first, second) if a is None else (second, first)
    seat = b if a is None else a
    return _("%(name)s takes seat %(position)s at table %(number)s; %(name2)s is sitting out.") % {
        "name": sitting.full_name,
        "position": seat.position,
        "number": seat.table.number,
        "name2": playing.full_name,
    }


def seat_map(round_: Round) -> list[tuple[Table, list[Seat]]]:
    """The tables of a round with their seats, in two queries."""
    tables = list(
        round_.tables.prefetch_related(
            models.Prefetch(
                "seats", queryset=Seat.objects.select_related("person").order_by("position")
            )
        ).order_by("number")
    )
    return [(table, list(table.seats.all())) for table in tables]


def not_seated(round_: Round | None, day: ClubDay) -> list[Person]:
    """People signed in on the day who have no seat in this round."""
    people = Person.objects.filter(signins__day=day, merged_into__isnull=True).order_by(
        "last_name", "first_name"
    )
    if round_ is not None:
        people = people.exclude(seats__round=round_)
    return list(people)


def seat_given(day: ClubDay, tables: list[list[int]]) -> Round:
    """The day's next round seated as given (an event's movement says who sits where):
    table ``n`` gets ``tables[n - 1]``'s people (person ids) at positions 1, 2, … in
    that order, and the round starts at once (its seats are fixed). The latest round
    must have started: a round still being drawn is not replaced."""
    if not day.is_open:
        raise SeatingRefused(_("%(day)s is closed; reopen it to seat people.") % {"day": day})
    with transaction.atomic():
        latest = day.rounds.select_for_update().order_by("-number").first()
        if latest is not None and not latest.started:
            raise SeatingRefused(
                _("Round %(number)s is drawn but not started; start or clear it first.")
                % {"number": latest.number}
            )
        round_ = _next_round(day, latest)
        round_.drawn_at = timezone.now()
        round_.started = True
        round_.save(update_fields=["drawn_at", "started"])
        seats = []
        for number, people in enumerate(tables, start=1):
            table = Table.objects.create(round=round_, number=number)
            seats.extend(
                Seat(round=round_, table=table, person_id=pid, position=position)
                for position, pid in enumerate(people, start=1)
            )
        Seat.objects.bulk_create(seats)
    return round_
