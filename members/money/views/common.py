"""What the money pages share: the active club's person or entry of a URL (404 for
another club's), a form's first error, and the balances of everyone."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from members.models import Person
from members.money.models import Entry
from members.money.services.ledger import Totals, all_totals


def person_or_404(pk) -> Person:
    return get_object_or_404(Person.objects.current(), pk=pk)


def entry_or_404(pk) -> Entry:
    return get_object_or_404(Entry.objects.select_related("person", "attendee"), pk=pk)


def first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else errors[0]
    return _("Please check the form.")


@dataclass
class Row:
    person: Person
    totals: Totals

    @property
    def state(self) -> str:
        balance = self.totals.balance
        return "owes" if balance < 0 else ("ahead" if balance > 0 else "settled")


STATES = ("owes", "ahead", "settled")


def balance_rows(as_of=None, state: str = "") -> list[Row]:
    """Every current member and everyone with a line, with their totals (two queries)."""
    totals = all_totals(as_of)
    people = Person.objects.current().filter(kind=Person.Kind.MEMBER) | Person.objects.filter(
        pk__in=list(totals)
    )
    rows = [
        Row(person, totals.get(person.pk, Totals()))
        for person in people.distinct().order_by("last_name", "first_name", "pk")
    ]
    if state in STATES:
        rows = [row for row in rows if row.state == state]
    return rows


def sum_rows(rows: list[Row]) -> Totals:
    return Totals(
        charges=sum((r.totals.charges for r in rows), Decimal("0.00")),
        payments=sum((r.totals.payments for r in rows), Decimal("0.00")),
    )
