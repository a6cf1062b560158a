"""Dues: a renewal opened by an officer (a notice to each member), a dues payment that
moves paid-until forward, and reminders to those still unpaid."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from members.models import Person
from members.money.models import DuesNotice, Entry, MoneyProfile, RenewalPeriod
from members.money.services.errors import MoneyRefused
from members.money.services.ledger import add_charge, record_payment
from members.money.services.reads import dues_amount

Kind = DuesNotice.Kind


def unpaid_members(period: RenewalPeriod):
    """Current members whose dues do not reach the period's paid-until date."""
    paid = MoneyProfile.objects.filter(paid_until__gte=period.paid_until).values("person")
    return Person.objects.current().members().exclude(pk__in=paid)


def _notify(period: RenewalPeriod, kind: str) -> int:
    """A notice of ``kind`` to each unpaid member, once each; the worker sends the
    e-mails, the others are printed. Returns how many new notices."""
    from members.money.tasks import send_dues_notice

    done = set(period.notices.filter(kind=kind).values_list("person", flat=True))
    new = [
        DuesNotice(
            club_id=period.club_id,
            period=period,
            person=person,
            kind=kind,
            status=DuesNotice.Status.PENDING if person.email else DuesNotice.Status.PRINT,
        )
        for person in unpaid_members(period)
        if person.pk not in done
    ]
    DuesNotice.objects.bulk_create(new, ignore_conflicts=True)
    waiting = period.notices.filter(kind=kind, status=DuesNotice.Status.PENDING)
    for pk in waiting.filter(person__in=[n.person for n in new]).values_list("pk", flat=True):
        send_dues_notice.enqueue(pk)
    return len(new)


def open_renewal(
    name: str,
    paid_until: datetime.date,
    *,
    remind_on: datetime.date | None = None,
    key: str,
    by=None,
) -> tuple[RenewalPeriod, bool]:
    """Open a renewal: notices go to every member not yet paid until ``paid_until``.
    The same press again (its key) does nothing."""
    if not key or len(key) > 64:
        raise MoneyRefused(_("This page is out of date. Reload it, then press the button again."))
    name = " ".join((name or "").split())
    if not name:
        raise MoneyRefused(_("Name the renewal, like “Dues 2027”."))
    found = RenewalPeriod.objects.filter(key=key).first()
    if found is not None:
        return found, False
    user = by if by is not None and by.is_authenticated else None
    try:
        with transaction.atomic():
            period = RenewalPeriod.objects.create(
                name=name[:80], paid_until=paid_until, remind_on=remind_on, key=key, opened_by=user
            )
    except IntegrityError:
        return RenewalPeriod.objects.get(key=key), False
    _notify(period, Kind.NOTICE)
    return period, True


def send_reminders(period: RenewalPeriod) -> int:
    """A reminder to each member still unpaid (once each per renewal)."""
    return _notify(period, Kind.REMINDER)


def due_reminders(today: datetime.date | None = None) -> int:
    """The reminders of every renewal whose reminder date has come (the command)."""
    today = today or timezone.localdate()
    return sum(
        send_reminders(period) for period in RenewalPeriod.objects.filter(Q(remind_on__lte=today))
    )


def dues_paid(person: Person, period: RenewalPeriod) -> Decimal:
    """What ``person`` paid towards ``period``'s dues (payments not taken back)."""
    found = Entry.objects.filter(
        person=person, period=period, kind=Entry.Kind.PAYMENT, reversal__isnull=True
    )
    return sum((e.amount for e in found), Decimal("0.00"))


def _dues_charge(person: Person, period: RenewalPeriod) -> Entry | None:
    return Entry.objects.filter(
        person=person, period=period, kind=Entry.Kind.CHARGE, reversal__isnull=True
    ).first()


def dues_owed(person: Person, period: RenewalPeriod) -> Decimal:
    """What is still owed of ``period``'s dues: the charge (or the membership type's
    rate) less what was paid towards it; never below zero."""
    charge = _dues_charge(person, period)
    rate = charge.amount if charge else dues_amount(person, timezone.localdate())
    return max((rate or Decimal("0.00")) - dues_paid(person, period), Decimal("0.00"))


def record_dues(
    person: Person,
    period: RenewalPeriod,
    amount: Decimal,
    source: str,
    *,
    key: str,
    by=None,
) -> tuple[Entry, bool]:
    """A dues payment towards ``period``: the dues charge at the membership type's rate
    (once per renewal) and the money received, in one transaction. Paid-until moves to
    the renewal's date only when the period's dues are covered; a smaller payment is
    kept as a payment towards them. The form's key writes once."""
    if not person.is_member:
        raise MoneyRefused(_("Dues are paid by members; make the guest a member first."))
    if not key or len(key) > 60:
        raise MoneyRefused(_("This page is out of date. Reload it, then press the button again."))
    first = Entry.objects.filter(key=key).first()
    if first is not None:
        return first, False
    today = timezone.localdate()
    charge = _dues_charge(person, period)
    rate = charge.amount if charge else dues_amount(person, today)
    if rate is None:
        raise MoneyRefused(
            _(
                "%(name)s has no membership type, so their dues are not known. Choose "
                "their membership type on their account page first."
            )
            % {"name": person.full_name}
        )
    with transaction.atomic():
        profile, _created = MoneyProfile.objects.select_for_update().get_or_create(person=person)
        covered = dues_paid(person, period) + amount >= rate
        moves = covered and (profile.paid_until is None or profile.paid_until < period.paid_until)
        payment, new = record_payment(
            person,
            amount,
            source,
            date=today,
            note=period.name,
            key=key,
            by=by,
            period=period,
            moved_paid_until=moves,
            paid_until_before=profile.paid_until if moves else None,
        )
        if not new:
            return payment, False
        if charge is None and rate > 0:
            add_charge(
                person, rate, Entry.Source.DUES, date=today, note=period.name, by=by, period=period
            )
        if moves:
            profile.paid_until = period.paid_until
            profile.save(update_fields=["paid_until"])
    return payment, True
