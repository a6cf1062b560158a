"""The ledger's writes and sums: payments, charges, reversals (never an edit), and each
account's charges, payments and balance, exact to the cent.

A balance is payments minus charges: negative is owed, positive is paid ahead. A
reversal takes back the entry it points at, so it counts against that entry's kind."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from members.models import Person
from members.money.amounts import CENT
from members.money.bank import mask_numbers
from members.money.models import Entry, MoneyProfile
from members.money.models.settings import ZERO, money_field
from members.money.services.errors import MoneyRefused

Kind = Entry.Kind

_SUM = {
    "charges": Q(kind=Kind.CHARGE),
    "charges_back": Q(kind=Kind.REVERSAL, reverses__kind=Kind.CHARGE),
    "payments": Q(kind=Kind.PAYMENT),
    "payments_back": Q(kind=Kind.REVERSAL, reverses__kind=Kind.PAYMENT),
}


@dataclass(frozen=True)
class Totals:
    charges: Decimal = ZERO
    payments: Decimal = ZERO

    @property
    def balance(self) -> Decimal:
        return self.payments - self.charges


def _sums():
    return {
        name: Coalesce(Sum("amount", filter=condition), Value(ZERO), output_field=money_field())
        for name, condition in _SUM.items()
    }


def _cents(value) -> Decimal:
    """A database sum to the cent (SQLite hands back 10 for 10.00)."""
    return Decimal(value).quantize(CENT)


def _totals(row) -> Totals:
    return Totals(
        charges=_cents(row["charges"]) - _cents(row["charges_back"]),
        payments=_cents(row["payments"]) - _cents(row["payments_back"]),
    )


def entries_until(as_of: datetime.date | None = None):
    entries = Entry.objects.all()
    return entries if as_of is None else entries.filter(date__lte=as_of)


def account_totals(person: Person, as_of: datetime.date | None = None) -> Totals:
    """One account's charges, payments and balance (one query)."""
    return _totals(entries_until(as_of).filter(person=person).aggregate(**_sums()))


def all_totals(as_of: datetime.date | None = None) -> dict[int, Totals]:
    """Every account of the active club with a line: person id → totals (one query)."""
    rows = entries_until(as_of).values("person").annotate(**_sums()).order_by()
    return {row["person"]: _totals(row) for row in rows}


def account_lines(person: Person, as_of: datetime.date | None = None, start=None):
    """The lines of one account in date order (who they were for, what they reverse)."""
    lines = entries_until(as_of).filter(person=person)
    if start is not None:
        lines = lines.filter(date__gte=start)
    return lines.select_related("attendee", "reverses", "reversal", "day").order_by("date", "pk")


def _by(user):
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _check_key(key: str | None) -> str | None:
    if key is not None and (not key or len(key) > 64):
        raise MoneyRefused(_("This page is out of date. Reload it, then press the button again."))
    return key


def record_payment(
    person: Person,
    amount: Decimal,
    source: str,
    *,
    date: datetime.date | None = None,
    note: str = "",
    key: str | None = None,
    by=None,
    period=None,
    moved_paid_until: bool = False,
    paid_until_before: datetime.date | None = None,
) -> tuple[Entry, bool]:
    """Money received from ``person`` (cash, cheque, transfer). Returns the entry and
    whether this call wrote it: the same form's key again (a double tap, a reload)
    answers with the first entry and writes nothing."""
    _check_key(key)
    if source not in Entry.PAYMENT_SOURCES:
        raise MoneyRefused(_("Choose how the money came: cash, cheque or transfer."))
    if amount is None or amount <= 0:
        raise MoneyRefused(_("Type the amount received, like 12.50."))
    if person.is_merged:
        raise MoneyRefused(_("This record was merged into another; record the payment there."))
    if key is not None:
        first = Entry.objects.filter(key=key).first()
        if first is not None:
            return first, False
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                person=person,
                kind=Kind.PAYMENT,
                source=source,
                amount=amount,
                date=date or timezone.localdate(),
                note=mask_numbers(note),
                key=key,
                period=period,
                moved_paid_until=moved_paid_until,
                paid_until_before=paid_until_before,
                recorded_by=_by(by),
            )
    except IntegrityError:
        first = Entry.objects.filter(key=key).first() if key else None
        if first is None:
            raise
        return first, False
    return entry, True


def add_charge(
    person: Person,
    amount: Decimal,
    source: str,
    *,
    date: datetime.date,
    attendee: Person | None = None,
    day=None,
    signin=None,
    for_sign_in=None,
    for_sign_in_id=None,
    note: str = "",
    by=None,
    period=None,
) -> Entry:
    """A charge on ``person``'s account (for ``attendee`` when that is someone else)."""
    if attendee is not None and attendee.pk == person.pk:
        attendee = None
    return Entry.objects.create(
        person=person,
        kind=Kind.CHARGE,
        source=source,
        amount=amount,
        date=date,
        attendee=attendee,
        day=day,
        signin=signin,
        for_sign_in_id=for_sign_in.pk if for_sign_in is not None else for_sign_in_id,
        period=period,
        note=note[:200],
        recorded_by=_by(by),
    )


def reverse_entry(entry: Entry, reason: str, *, by=None, date=None) -> Entry:
    """Take back ``entry`` with a new line saying who and why. Once only; a reversal is
    not reversed (record the right entry again instead)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise MoneyRefused(_("Say why this line is taken back: the reason is kept with it."))
    if entry.kind == Kind.REVERSAL:
        raise MoneyRefused(_("A reversal cannot be taken back; record the right line again."))
    try:
        with transaction.atomic():
            reversal = Entry.objects.create(
                person_id=entry.person_id,
                kind=Kind.REVERSAL,
                amount=entry.amount,
                date=date or timezone.localdate(),
                attendee_id=entry.attendee_id,
                day_id=entry.day_id,
                reverses=entry,
                reason=reason[:300],
                recorded_by=_by(by),
            )
            if entry.period_id is not None and entry.kind == Kind.PAYMENT:
                _after_dues_payment_reversed(entry)
            return reversal
    except IntegrityError:
        raise MoneyRefused(_("This line was taken back already.")) from None


def _after_dues_payment_reversed(payment: Entry) -> None:
    """A dues payment was taken back: when the renewal's dues are no longer covered, the
    member's paid-until goes back to what it was before the payment that moved it."""
    standing = Entry.objects.filter(
        person_id=payment.person_id, period_id=payment.period_id, reversal__isnull=True
    )
    charged = standing.filter(kind=Kind.CHARGE).aggregate(s=Coalesce(Sum("amount"), ZERO))["s"]
    paid = standing.filter(kind=Kind.PAYMENT).aggregate(s=Coalesce(Sum("amount"), ZERO))["s"]
    moved = (
        Entry.objects.filter(
            person_id=payment.person_id, period_id=payment.period_id, moved_paid_until=True
        )
        .order_by("-pk")
        .first()
    )
    if moved is None or paid >= charged:
        return
    profile = MoneyProfile.objects.select_for_update().filter(person_id=payment.person_id).first()
    if profile is not None and profile.paid_until == payment.period.paid_until:
        profile.paid_until = moved.paid_until_before
        profile.save(update_fields=["paid_until"])


def profile_of(person: Person) -> MoneyProfile | None:
    return MoneyProfile.objects.filter(person=person).first()


def profile_for_update(person: Person) -> MoneyProfile:
    found, _ = MoneyProfile.objects.get_or_create(person=person)
    return found
