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


def record_dues(
    person: Person,
    period: RenewalPeriod,
    amount: Decimal,
    source: str,
    *,
    key: str,
    by=None,
) -> tuple[Entry, bool]:
    """A dues payment: the dues charge and the money received, in one transaction, and
    paid-until moved forward to the renewal's date. The form's key writes once."""
    if not person.is_member:
        raise MoneyRefused(_("Dues are paid by members; make the guest a member first."))
    if not key or len(key) > 60:
        raise MoneyRefused(_("This page is out of date. Reload it, then press the button again."))
    first = Entry.objects.filter(key=key).first()
    if first is not None:
        return first, False
    today = timezone.localdate()
    with transaction.atomic():
        payment, new = record_payment(
            person, amount, source, date=today, note=period.name, key=key, by=by
        )
        if not new:
            return payment, False
        add_charge(person, amount, Entry.Source.DUES, date=today, note=period.name, by=by)
        profile, _created = MoneyProfile.objects.select_for_update().get_or_create(person=person)
        if profile.paid_until is None or profile.paid_until < period.paid_until:
            profile.paid_until = period.paid_until
            profile.save(update_fields=["paid_until"])
    return payment, True
