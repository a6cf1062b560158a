"""Everything that changes people, club days, sign-ins and seating.

Views parse and check permissions, then call one function here. Each function checks
its input and raises a `MembersError` subclass with a message meant for the person at
the door or the officer (what happened, what to do), never a stack trace.
"""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.db.models import ProtectedError
from django.utils import timezone
from simple_history.models import HistoricalChanges

from clubsite.clock import clock
from members import draw as seating
from members import roster as importer
from members.models import ClubDay, MergeRecord, Person, Round, Seat, SignIn, Table
from members.signals import person_merged


class MembersError(Exception):
    """A refusal with a message to show as it is."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class SignInRefused(MembersError):
    pass


class GuestNameTaken(SignInRefused):
    """A guest of that name is already on file: sign that one in, or say it's another."""

    def __init__(self, message: str, existing: list[Person]):
        super().__init__(message)
        self.existing = existing


class ConversionRefused(MembersError):
    pass


class MergeRefused(MembersError):
    pass


class LoginRefused(MembersError):
    pass


class SeatingRefused(MembersError):
    pass


class DayRefused(MembersError):
    pass


def local_time(value) -> str:
    """'2:14 p.m.': the site's one time format (:func:`clubsite.clock.clock`)."""
    return clock(value)


# --------------------------------------------------------------------------- club days


def open_day(date, title: str = "") -> ClubDay:
    return ClubDay.objects.create(date=date, title=title.strip(), status=ClubDay.Status.OPEN)


def close_day(day: ClubDay) -> ClubDay:
    if not day.is_open:
        raise DayRefused(f"{day} is already closed.")
    day.status = ClubDay.Status.CLOSED
    day.closed_at = timezone.now()
    day.save(update_fields=["status", "closed_at"])
    return day


def reopen_day(day: ClubDay) -> ClubDay:
    if day.is_open:
        raise DayRefused(f"{day} is already open.")
    day.status = ClubDay.Status.OPEN
    day.closed_at = None
    day.save(update_fields=["status", "closed_at"])
    return day


# --------------------------------------------------------------------------- sign-in


def _check_day_open(day: ClubDay) -> None:
    if not day.is_open:
        raise SignInRefused(
            f"{day} is closed: nobody can be signed in. An officer can reopen it on the day's page."
        )


def _check_signable(person: Person) -> None:
    if person.is_merged:
        raise SignInRefused(
            f"This record of {person.full_name} was merged into another one; search again "
            "and sign in that one."
        )


def _check_member_bringing(member: Person | None) -> Person:
    if member is None:
        raise SignInRefused("Choose the member who brought the guest.")
    if member.is_merged:
        member = member.merged_into
    if not member.is_member:
        raise SignInRefused(f"{member.full_name} is a guest; guests come with a member.")
    return member


def sign_in(
    day: ClubDay,
    person: Person,
    *,
    card_shown: bool = False,
    brought_by: Person | None = None,
    by=None,
) -> SignIn:
    """Sign a person in on a club day. Guests need the member who brought them.

    Refused kindly when the day is closed or the person is already in."""
    _check_day_open(day)
    _check_signable(person)
    if person.is_guest:
        brought_by = _check_member_bringing(brought_by or person.brought_by)
        if brought_by.pk == person.pk:
            raise SignInRefused("A guest cannot bring themselves.")
    else:
        brought_by = None
    existing = SignIn.objects.filter(day=day, person=person).first()
    if existing is not None:
        raise SignInRefused(
            f"{person.full_name} is already signed in (at {local_time(existing.signed_in_at)})."
        )
    try:
        with transaction.atomic():
            return SignIn.objects.create(
                day=day,
                person=person,
                card_shown=bool(card_shown),
                brought_by=brought_by,
                signed_in_by=by if by is not None and by.is_authenticated else None,
            )
    except IntegrityError:
        # Another tablet at the door signed them in a moment ago.
        existing = SignIn.objects.filter(day=day, person=person).first()
        when = f" (at {local_time(existing.signed_in_at)})" if existing else ""
        raise SignInRefused(f"{person.full_name} is already signed in{when}.") from None


def undo_sign_in(signin: SignIn, *, by=None) -> str:
    """Remove a sign-in made by mistake. Seats in rounds not yet started go too;
    a person already playing cannot be signed out. Returns a message."""
    day = signin.day
    person = signin.person
    if not day.is_open:
        raise SignInRefused(f"{day} is closed; reopen it to change who signed in.")
    with transaction.atomic():
        seats = list(
            Seat.objects.filter(round__day=day, person=person).select_related("round", "table")
        )
        started = [seat for seat in seats if seat.round.started]
        if started:
            seat = started[0]
            raise SignInRefused(
                f"{person.full_name} is playing at table {seat.table.number} in round "
                f"{seat.round.number}, which has started; the sign-in cannot be undone now."
            )
        if SignIn.objects.filter(day=day, brought_by=person).exists():
            guests = ", ".join(
                s.person.full_name
                for s in SignIn.objects.filter(day=day, brought_by=person).select_related("person")
            )
            raise SignInRefused(
                f"{person.full_name} brought {guests} today; undo their sign-in first, or "
                "sign them in with another member."
            )
        for seat in seats:
            seat.delete()
        signin.delete()
    message = f"Sign-in of {person.full_name} undone."
    if seats:
        message += " They were also taken off their table; the seating page shows the gap."
    return message


def add_guest(
    day: ClubDay,
    first_name: str,
    last_name: str,
    brought_by: Person,
    *,
    card_shown: bool = False,
    allow_same_name: bool = False,
    by=None,
) -> SignIn:
    """Create a new guest on the spot and sign them in with the member who brought them.

    If a guest of the same name is already on file, raise `GuestNameTaken` (listing
    them) unless `allow_same_name` says this is another person."""
    _check_day_open(day)
    first_name = " ".join((first_name or "").split())
    last_name = " ".join((last_name or "").split())
    if not first_name:
        raise SignInRefused("Type the guest's first name.")
    brought_by = _check_member_bringing(brought_by)
    if not allow_same_name:
        existing = list(
            Person.objects.current()
            .guests()
            .filter(first_name__iexact=first_name, last_name__iexact=last_name)
            .select_related("brought_by")
        )
        if existing:
            name = f"{first_name} {last_name}".strip()
            raise GuestNameTaken(
                f"A guest named {name} is already on file. Sign in that guest, or add a new "
                "one if this is a different person.",
                existing,
            )
    with transaction.atomic():
        guest = Person.objects.create(
            kind=Person.Kind.GUEST,
            first_name=first_name,
            last_name=last_name,
            brought_by=brought_by,
        )
        return sign_in(day, guest, card_shown=card_shown, brought_by=brought_by, by=by)


# --------------------------------------------------------------------------- people


def convert_guest_to_member(
    person: Person,
    membership_number: str,
    *,
    email: str = "",
    phone: str = "",
    joined=None,
    by=None,
) -> Person:
    """A guest joins: the same row becomes a member, keeping every sign-in and game."""
    number = importer.clean_number(membership_number)
    if person.is_merged:
        raise ConversionRefused("This record was merged into another; convert that one.")
    if not person.is_guest:
        raise ConversionRefused(f"{person.full_name} is already a member.")
    if not number:
        raise ConversionRefused("Type the new member's membership number.")
    taken = Person.objects.filter(membership_number=number).first()
    if taken is not None:
        raise ConversionRefused(
            f"Membership number {number} already belongs to {taken.full_name}. "
            "Check the card, or choose another number."
        )
    person.kind = Person.Kind.MEMBER
    person.membership_number = number
    person.status = Person.Status.ACTIVE
    person.joined = joined or timezone.localdate()
    if email:
        person.email = email
    if phone:
        person.phone = phone
    try:
        with transaction.atomic():
            person.save()
    except IntegrityError:
        raise ConversionRefused(
            f"Membership number {number} was just given to someone else; choose another."
        ) from None
    return person


def _username_base(person: Person) -> str:
    text = unicodedata.normalize("NFKD", f"{person.first_name}.{person.last_name}")
    text = text.encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9.]+", "", text).strip(".")
    return text[:30] or f"member{person.membership_number or person.pk}"


def create_login(person: Person, *, by=None) -> tuple[Any, str]:
    """Give a member a login: a username from their name, a random temporary password.

    Returns (user, password); the password is shown once and never stored in clear."""
    if person.is_merged:
        raise LoginRefused("This record was merged into another; give that one a login.")
    if person.is_guest:
        raise LoginRefused("Guests don't get logins. Make them a member first.")
    if person.user_id is not None:
        raise LoginRefused(
            f"{person.full_name} already has a login ({person.user.get_username()}). "
            "Use “New temporary password” if they forgot it."
        )
    User = get_user_model()
    base = _username_base(person)
    username = base
    suffix = 1
    while User.objects.filter(username__iexact=username).exists():
        suffix += 1
        username = f"{base}{suffix}"
    password = _temporary_password()
    with transaction.atomic():
        user = User.objects.create_user(
            username=username,
            password=password,
            first_name=person.first_name[:150],
            last_name=person.last_name[:150],
            email=person.email,
        )
        person.user = user
        person.save(update_fields=["user", "updated_at"])
    return user, password


def reset_password(person: Person, *, by=None) -> tuple[Any, str]:
    """A new temporary password for a member who forgot theirs."""
    if person.user_id is None:
        raise LoginRefused(f"{person.full_name} has no login yet; create one first.")
    password = _temporary_password()
    user = person.user
    user.set_password(password)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    return user, password


def _temporary_password() -> str:
    # Easy to read aloud and type on a phone: groups of lowercase letters and digits.
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    groups = ["".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3)]
    return "-".join(groups)


# --------------------------------------------------------------------------- merging


def _snapshot(person: Person) -> dict[str, Any]:
    return {
        "id": person.pk,
        "name": person.full_name,
        "kind": person.kind,
        "membership_number": person.membership_number,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "email": person.email,
        "phone": person.phone,
        "status": person.status,
        "joined": person.joined.isoformat() if person.joined else None,
        "notes": person.notes,
        "brought_by": person.brought_by_id,
        "user": person.user_id,
        "created_at": person.created_at.isoformat() if person.created_at else None,
    }


def _relations_to_person():
    """Every foreign key or one-to-one pointing at Person, from any app, except the
    history tables (they keep their traces) and the merge records themselves."""
    for relation in Person._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete):
            continue
        if relation.many_to_many:
            through = relation.through
            if through is None or not through._meta.auto_created:
                continue  # a custom `through` model has its own foreign key, moved below
            for fk in through._meta.fields:
                if fk.is_relation and fk.related_model is Person:
                    yield through, fk
            continue
        model = relation.related_model
        if issubclass(model, HistoricalChanges) or model is MergeRecord:
            continue
        yield model, relation.field


_LABELS = {
    ("members.Person", "brought_by"): "guests they brought",
    ("members.Person", "merged_into"): "records merged earlier",
    ("members.SignIn", "person"): "sign-ins",
    ("members.SignIn", "brought_by"): "guests' sign-ins (as the member who brought them)",
    ("members.Seat", "person"): "seats at tables",
}


def _label(model, field) -> str:
    """'sign-ins', 'games (score keeper)': what a count of moved rows is about."""
    known = _LABELS.get((getattr(model._meta, "label", ""), field.name))
    if known:
        return known
    name = str(model._meta.verbose_name_plural)
    return f"{name} ({field.verbose_name})" if field.name != "person" else name


def merge_people(kept: Person, removed: Person, *, by=None) -> MergeRecord:
    """Make two records of the same person one.

    Every row pointing at `removed` (sign-ins, seats, games, guests brought, from any
    app) moves to `kept`, in one transaction. Two sign-ins on the same day become one
    (card shown if either showed it). Refused, with nothing changed, when both were
    seated in the same round or another app's rule forbids the move. `removed` stays as
    a trace pointing at `kept`, without its membership number."""
    if kept.pk == removed.pk:
        raise MergeRefused("Choose two different records to merge.")
    if kept.is_merged or removed.is_merged:
        raise MergeRefused("One of these records was already merged; reload the page.")
    with transaction.atomic():
        kept = Person.objects.select_for_update().get(pk=kept.pk)
        removed = Person.objects.select_for_update().get(pk=removed.pk)
        snapshot = _snapshot(removed)
        moved: dict[str, int] = {}

        both_seated = (
            Round.objects.filter(seats__person=kept)
            .filter(seats__person=removed)
            .select_related("day")
            .first()
        )
        if both_seated is not None:
            raise MergeRefused(
                f"Both records are seated in round {both_seated.number} of {both_seated.day}. "
                "Take one of them off the tables first (seating page), then merge."
            )

        # Same-day sign-ins: keep the kept record's, card shown if either showed it.
        kept_days = {s.day_id: s for s in SignIn.objects.filter(person=kept)}
        merged_signins = 0
        for signin in SignIn.objects.filter(person=removed, day_id__in=kept_days):
            keep = kept_days[signin.day_id]
            if signin.card_shown and not keep.card_shown:
                keep.card_shown = True
                keep.save(update_fields=["card_shown"])
            signin.delete()
            merged_signins += 1
        if merged_signins:
            moved["sign-ins on the same day (made one)"] = merged_signins

        # A sign-in where one of them brought the other: the guest came alone.
        SignIn.objects.filter(person=kept, brought_by=removed).update(brought_by=None)
        SignIn.objects.filter(person=removed, brought_by=kept).update(brought_by=None)
        if kept.brought_by_id == removed.pk:
            kept.brought_by = None

        for model, field in _relations_to_person():
            if model is Person and field.name == "brought_by":
                queryset = model._base_manager.filter(brought_by=removed).exclude(pk=kept.pk)
            else:
                queryset = model._base_manager.filter(**{field.name: removed})
            if (
                field.one_to_one
                and model._base_manager.filter(**{field.name: kept}).exists()
                and queryset.exists()
            ):
                raise MergeRefused(
                    f"Both records have a {model._meta.verbose_name}; only one is allowed. "
                    "Nothing was changed."
                )
            try:
                with transaction.atomic():
                    count = queryset.update(**{field.name: kept})
            except IntegrityError:
                raise MergeRefused(
                    "These two records cannot be merged: both appear in "
                    f"{_label(model, field)} where the same person may appear only once "
                    "(for example, as two players of one game). Nothing was changed; "
                    "correct that first."
                ) from None
            if count:
                moved[_label(model, field)] = moved.get(_label(model, field), 0) + count

        # Fill in what the kept record lacks; the removed one gives up its number.
        filled = []
        number = removed.membership_number
        login = removed.user
        removed.membership_number = None
        removed.user = None
        removed.merged_into = kept
        if by is not None:
            removed._history_user = by
        removed.save()
        if kept.membership_number is None and number:
            kept.membership_number = number
            kept.kind = Person.Kind.MEMBER
            filled.append("membership number")
        for name in ("email", "phone", "joined", "last_name"):
            if not getattr(kept, name) and getattr(removed, name):
                setattr(kept, name, getattr(removed, name))
                filled.append(name.replace("_", " "))
        if (
            kept.brought_by_id is None
            and removed.brought_by_id not in (None, kept.pk)
            and kept.is_guest
        ):
            kept.brought_by_id = removed.brought_by_id
            filled.append("brought by")
        if removed.notes.strip():
            kept.notes = (kept.notes + "\n" if kept.notes else "") + (
                f"From merged record #{removed.pk}: {removed.notes.strip()}"
            )
            filled.append("notes")
        if login is not None:
            if kept.user_id is None:
                kept.user = login
                filled.append("login")
            else:
                login.is_active = False
                login.save(update_fields=["is_active"])
                moved["logins switched off (the kept record has its own)"] = 1
        if by is not None:
            kept._history_user = by
        kept.save()
        if filled:
            moved["fields filled in"] = ", ".join(filled)  # type: ignore[assignment]
        record = MergeRecord.objects.create(
            kept=kept,
            removed=removed,
            removed_snapshot=snapshot,
            moved=moved,
            merged_by=by if by is not None and by.is_authenticated else None,
        )
        transaction.on_commit(
            lambda: person_merged.send(sender=Person, kept=kept, removed=removed, record=record)
        )
        return record


def merge_preview(kept: Person, removed: Person) -> list[tuple[str, int]]:
    """How many rows of each kind would move (for the confirm page)."""
    counts = []
    for model, field in _relations_to_person():
        count = model._base_manager.filter(**{field.name: removed}).count()
        if count:
            counts.append((_label(model, field), count))
    return counts


# --------------------------------------------------------------------------- seating


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


def draw_round(day: ClubDay, remainder: str, *, seed: int | None = None, by=None) -> DrawResult:
    """Draw everyone signed in onto numbered tables.

    Redraws the latest round while its play has not started; otherwise starts the next
    round. People who sat out the previous round are the last chosen to sit out again."""
    if not day.is_open:
        raise SeatingRefused(f"{day} is closed; reopen it to seat people.")
    if remainder not in seating.REMAINDER_CHOICES:
        raise SeatingRefused("Choose what to do when the count is not a multiple of four.")
    people = signed_in_ids(day)
    if not people:
        raise SeatingRefused("Nobody is signed in yet: sign people in at the door first.")
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
            result = seating.draw(people, remainder, random.Random(seed), avoid_sitting_out=avoid)
        except seating.SeatingImpossible as error:
            raise SeatingRefused(str(error)) from None
        if redraw:
            round_ = latest
            try:
                round_.tables.all().delete()
            except ProtectedError:
                raise SeatingRefused(
                    f"Games have already begun at the tables of round {round_.number}; "
                    "it cannot be drawn again."
                ) from None
        else:
            round_ = Round.objects.create(day=day, number=(latest.number + 1) if latest else 1)
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
    out = Person.objects.in_bulk(result.sitting_out)
    return DrawResult(
        round=round_, sitting_out=[out[pid] for pid in result.sitting_out], redrawn=redraw
    )


def start_round(round_: Round) -> Round:
    """Play begins: the seats are fixed from now on."""
    if round_.started:
        raise SeatingRefused(f"Round {round_.number} has already started.")
    if not round_.seats.exists():
        raise SeatingRefused(f"Round {round_.number} has nobody seated yet; draw tables first.")
    round_.started = True
    round_.save(update_fields=["started"])
    return round_


def _check_movable(round_: Round) -> None:
    round_.refresh_from_db(fields=["started"])
    if round_.started:
        raise SeatingRefused(
            f"Play has started in round {round_.number}: seats can no longer be moved. "
            "Draw the next round instead."
        )


def _check_signed_in(round_: Round, person: Person) -> None:
    if not SignIn.objects.filter(day_id=round_.day_id, person=person).exists():
        raise SeatingRefused(f"{person.full_name} is not signed in today; sign them in first.")


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
                raise SeatingRefused(f"{person.full_name} is not at a table in this round.")
            old_table = current.table
            current.delete()
            _drop_if_empty(old_table)
            return f"{person.full_name} is sitting out this round."
        tables = {t.number: t for t in round_.tables.all()}
        last = max(tables, default=0)
        if table_number in tables:
            table = tables[table_number]
        elif 1 <= table_number <= max(last + 1, 99):
            table = Table.objects.create(round=round_, number=table_number)
        else:
            raise SeatingRefused(f"Tables are numbered 1 to {max(last + 1, 99)}.")
        taken = {s.position: s for s in Seat.objects.filter(table=table).select_related("person")}
        if position is None:
            free = [p for p in range(1, MAX_AT_TABLE + 1) if p not in taken]
            if current is not None and current.table_id == table.pk:
                return f"{person.full_name} is already at table {table.number}."
            if not free:
                raise SeatingRefused(f"Table {table.number} is full ({MAX_AT_TABLE} players).")
            position = free[0]
        if not 1 <= position <= MAX_AT_TABLE:
            raise SeatingRefused(f"Seats are numbered 1 to {MAX_AT_TABLE}.")
        occupant = taken.get(position)
        if occupant is not None:
            if occupant.person_id == person.pk:
                return f"{person.full_name} is already in that seat."
            raise SeatingRefused(
                f"Seat {position} at table {table.number} is taken by "
                f"{occupant.person.full_name}. Use “Swap two people” to exchange them."
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
    return f"{person.full_name} moved to table {table.number}, seat {position}."


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
        raise SeatingRefused("Choose two different people to swap.")
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
                f"Neither {first.full_name} nor {second.full_name} is at a table this round."
            )
        places = [(s.table, s.position, s.person_id) for s in (a, b) if s is not None]
        Seat.objects.filter(pk__in=[s.pk for s in (a, b) if s is not None]).delete()
        swap = {first.pk: second.pk, second.pk: first.pk}
        Seat.objects.bulk_create(
            Seat(round=round_, table=table, position=position, person_id=swap[pid])
            for table, position, pid in places
        )
    if a is not None and b is not None:
        return (
            f"Swapped: {first.full_name} is now at table {b.table.number}, "
            f"{second.full_name} at table {a.table.number}."
        )
    sitting, playing = (first, second) if a is None else (second, first)
    seat = b if a is None else a
    return (
        f"{sitting.full_name} takes seat {seat.position} at table {seat.table.number}; "
        f"{playing.full_name} is sitting out."
    )


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
