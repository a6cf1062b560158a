"""Table money: each sign-in charges its person's rate for the day, once, on the
account of whoever pays for them; an officer changes one person's charge with a reason
(a reversal and a new charge)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from members.models import ClubDay, Person, SignIn
from members.money.models import DayRate, Entry, MoneyProfile, MoneySettings, RateKind
from members.money.models.settings import ZERO
from members.money.services.errors import MoneyRefused
from members.money.services.ledger import add_charge, reverse_entry


def dues_lapsed(profile: MoneyProfile | None, on: datetime.date, grace_days: int) -> bool:
    """Whether a member's dues ran out more than ``grace_days`` before ``on``."""
    if profile is None or profile.paid_until is None:
        return False
    return profile.paid_until + datetime.timedelta(days=grace_days) < on


def rate_kind(person: Person, profile: MoneyProfile | None, day: ClubDay, club) -> str:
    if person.is_guest:
        return RateKind.VISITOR
    if club.lapsed_pay_visitor_rate and dues_lapsed(profile, day.date, club.grace_days):
        return RateKind.VISITOR
    if profile is not None and profile.rate:
        return profile.rate
    return RateKind.MEMBER


def rate_for(person: Person, day: ClubDay, club=None, day_rate=False) -> tuple[str, Decimal]:
    """(the kind of rate, the amount) ``person`` pays on ``day``."""
    club = club or MoneySettings.current()
    profile = MoneyProfile.objects.filter(person=person).first()
    kind = rate_kind(person, profile, day, club)
    if day_rate is False:
        day_rate = DayRate.objects.filter(day=day).first()
    amount = day_rate.rate(kind, club) if day_rate else club.rate(kind)
    return kind, amount


def payer_of(person: Person) -> Person:
    """Whose account ``person``'s table money goes on: their payer, or themselves."""
    profile = MoneyProfile.objects.filter(person=person).select_related("payer").first()
    if profile is not None and profile.payer is not None and not profile.payer.is_merged:
        return profile.payer
    return person


def charge_for_sign_in(signin: SignIn, *, by=None) -> Entry | None:
    """The table money of one sign-in (none on a free day or at a zero rate). Called by
    the door's sign-in, in its transaction; a sign-in is charged once (a unique
    constraint), so a second call answers with the first charge."""
    club = MoneySettings.current()
    day_rate = DayRate.objects.filter(day=signin.day).first()
    if day_rate is None and not (club.member_rate or club.visitor_rate or club.reduced_rate):
        return None  # a club that keeps no table money: two queries, nothing written
    _, amount = rate_for(signin.person, signin.day, club, day_rate)
    if amount <= ZERO:
        return None
    account = payer_of(signin.person)
    try:
        with transaction.atomic():
            return add_charge(
                account,
                amount,
                Entry.Source.TABLE,
                date=signin.day.date,
                attendee=signin.person,
                day=signin.day,
                signin=signin,
                for_sign_in=signin,
                by=by,
            )
    except IntegrityError:
        return Entry.objects.filter(signin=signin).first()


def undo_sign_in_charge(signin: SignIn, *, by=None, reason: str = "") -> None:
    """A sign-in undone at the door: its table money is taken back (with the reason),
    every charge of it still standing, a changed one too."""
    charges = Entry.objects.filter(Q(signin=signin) | Q(for_sign_in=signin), kind=Entry.Kind.CHARGE)
    for entry in charges:
        if not entry.is_reversed:
            reverse_entry(entry, reason or _("Sign-in undone at the door."), by=by, date=entry.date)


def change_charge(
    entry: Entry, amount: Decimal, reason: str, *, account: Person | None = None, by=None
) -> Entry | None:
    """An officer's change of one charge: it is reversed with ``reason`` and, unless the
    new amount is zero, charged again at ``amount`` on ``account`` (another member's,
    for a host paying for a guest or a partner). Returns the new charge."""
    if entry.kind != Entry.Kind.CHARGE:
        raise MoneyRefused(_("Only a charge can be changed this way."))
    if entry.is_reversed:
        raise MoneyRefused(_("This charge was changed already; change the newer one."))
    account = account or entry.person
    if account.is_merged or (account.is_guest and account.pk != entry.person_id):
        raise MoneyRefused(_("Choose a member's account to put the charge on."))
    with transaction.atomic():
        reverse_entry(entry, reason, by=by, date=entry.date)
        if amount <= ZERO:
            return None
        attendee = entry.attendee or entry.person
        return add_charge(
            account,
            amount,
            entry.source,
            date=entry.date,
            attendee=attendee,
            day=entry.day,
            for_sign_in_id=entry.for_sign_in_id or entry.signin_id,
            note=entry.note,
            by=by,
        )
