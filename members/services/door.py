"""The door: signing people in on a club day, adding a new guest, undoing a sign-in.

A guest always comes with a member; a closed day refuses every change; two tablets at
the door signing the same person in at once end with one sign-in and a clear message.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubsite.clock import clock
from members.models import ClubDay, Person, Seat, SignIn
from members.money.services.table import charge_for_sign_in, undo_sign_in_charge
from members.names import tidy_name
from members.services.errors import GuestNameTaken, SignInRefused


def _check_day_open(day: ClubDay) -> None:
    if not day.is_open:
        raise SignInRefused(
            _(
                "%(day)s is closed: nobody can be signed in. An officer can reopen it on the "
                "day's page."
            )
            % {"day": day}
        )


def _check_signable(person: Person) -> None:
    if person.is_merged:
        raise SignInRefused(
            _(
                "This record of %(name)s was merged into another one; search again and sign "
                "in that one."
            )
            % {"name": person.full_name}
        )


def _check_member_bringing(member: Person | None) -> Person:
    if member is None:
        raise SignInRefused(_("Choose the member who brought the guest."))
    if member.is_merged:
        member = member.merged_into
    if not member.is_member:
        raise SignInRefused(
            _("%(name)s is a guest; guests come with a member.") % {"name": member.full_name}
        )
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
            raise SignInRefused(_("A guest cannot bring themselves."))
    else:
        brought_by = None
    existing = SignIn.objects.filter(day=day, person=person).first()
    if existing is not None:
        raise SignInRefused(
            _("%(name)s is already signed in (at %(time)s).")
            % {"name": person.full_name, "time": clock(existing.signed_in_at)}
        )
    try:
        with transaction.atomic():
            signin = SignIn.objects.create(
                day=day,
                person=person,
                card_shown=bool(card_shown),
                brought_by=brought_by,
                signed_in_by=by if by is not None and by.is_authenticated else None,
            )
            charge_for_sign_in(signin, by=signin.signed_in_by)  # table money (members.money)
            return signin
    except IntegrityError:
        # Another tablet at the door signed them in a moment ago.
        existing = SignIn.objects.filter(day=day, person=person).first()
        if existing:
            message = _("%(name)s is already signed in (at %(time)s).") % {
                "name": person.full_name,
                "time": clock(existing.signed_in_at),
            }
        else:
            message = _("%(name)s is already signed in.") % {"name": person.full_name}
        raise SignInRefused(message) from None


def undo_sign_in(signin: SignIn, *, by=None) -> str:
    """Remove a sign-in made by mistake. Seats in rounds not yet started go too;
    a person already playing cannot be signed out. Returns a message."""
    day = signin.day
    person = signin.person
    if not day.is_open:
        raise SignInRefused(
            _("%(day)s is closed; reopen it to change who signed in.") % {"day": day}
        )
    with transaction.atomic():
        seats = list(
            Seat.objects.filter(round__day=day, person=person).select_related("round", "table")
        )
        started = [seat for seat in seats if seat.round.started]
        if started:
            seat = started[0]
            raise SignInRefused(
                _(
                    "%(name)s is playing at table %(table)s in round %(round)s, which has "
                    "started; the sign-in cannot be undone now."
                )
                % {"name": person.full_name, "table": seat.table.number, "round": seat.round.number}
            )
        if SignIn.objects.filter(day=day, brought_by=person).exists():
            guests = ", ".join(
                s.person.full_name
                for s in SignIn.objects.filter(day=day, brought_by=person).select_related("person")
            )
            raise SignInRefused(
                _(
                    "%(name)s brought %(guests)s today; undo their sign-in first, or sign them "
                    "in with another member."
                )
                % {"name": person.full_name, "guests": guests}
            )
        for seat in seats:
            seat.delete()
        undo_sign_in_charge(signin, by=by)  # its table money taken back (members.money)
        signin.delete()
    message = _("Sign-in of %(name)s undone.") % {"name": person.full_name}
    if seats:
        message += " " + _("They were also taken off their table; the seating page shows the gap.")
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
    A name typed all in small letters or all in capitals is put in title case
    (:func:`members.names.tidy_name`).

    If a guest of the same name is already on file, raise `GuestNameTaken` (listing
    them) unless `allow_same_name` says this is another person."""
    _check_day_open(day)
    first_name, last_name = tidy_name(first_name), tidy_name(last_name)
    if not first_name:
        raise SignInRefused(_("Type the guest's first name."))
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
                _(
                    "A guest named %(name)s is already on file. Sign in that guest, or add a "
                    "new one if this is a different person."
                )
                % {"name": name},
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
