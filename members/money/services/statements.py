"""Statements of account: what one person's account says over a period, and a run
that sends each person theirs once (e-mail by the worker, or a printed copy)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from members.models import Person
from members.money.models import Entry, StatementMessage, StatementRun
from members.money.services.errors import MoneyRefused

Status = StatementMessage.Status


def statement_people(end: datetime.date):
    """Who gets a statement: every current member, and anyone with a line by ``end``."""
    with_lines = Entry.objects.filter(date__lte=end).values("person")
    return (
        Person.objects.current()
        .filter(Q(kind=Person.Kind.MEMBER) | Q(pk__in=with_lines))
        .order_by("last_name", "first_name", "pk")
    )


def send_statements(
    start: datetime.date, end: datetime.date, *, key: str, by=None
) -> tuple[StatementRun, bool]:
    """One statement per person for ``start``–``end``: a message row each (unique per
    run and person), e-mailed by the worker, or marked for printing when the person has
    no e-mail. The same press again (its key) starts nothing. Returns the run and
    whether this call started it."""
    from members.money.tasks import send_statement

    if not key or len(key) > 64:
        raise MoneyRefused(_("This page is out of date. Reload it, then press the button again."))
    if start > end:
        raise MoneyRefused(_("The period starts after it ends; check the two dates."))
    found = StatementRun.objects.filter(key=key).first()
    if found is not None:
        return found, False
    user = by if by is not None and by.is_authenticated else None
    try:
        with transaction.atomic():
            run = StatementRun.objects.create(start=start, end=end, key=key, created_by=user)
            StatementMessage.objects.bulk_create(
                StatementMessage(
                    club_id=run.club_id,
                    run=run,
                    person=person,
                    email=person.email,
                    status=Status.PENDING if person.email else Status.PRINT,
                )
                for person in statement_people(end)
            )
    except IntegrityError:
        found = StatementRun.objects.filter(key=key).first()
        if found is None:
            raise
        return found, False
    for pk in run.messages.filter(status=Status.PENDING).values_list("pk", flat=True):
        send_statement.enqueue(pk)
    return run, True
