"""What the money e-mails and printed copies read: a statement of one account over a
period, a member's dues. Reads only (the worker's tasks and the pages share them)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from members.models import Person
from members.money.models import MoneyProfile, MoneySettings
from members.money.services.ledger import Totals, account_lines, account_totals


@dataclass
class Statement:
    person: Person
    start: datetime.date
    end: datetime.date
    currency: str
    opening: Totals
    lines: list
    closing: Totals


def statement_for(person: Person, start: datetime.date, end: datetime.date) -> Statement:
    opening = account_totals(person, start - datetime.timedelta(days=1))
    return Statement(
        person=person,
        start=start,
        end=end,
        currency=MoneySettings.current().currency,
        opening=opening,
        lines=list(account_lines(person, end, start=start)),
        closing=account_totals(person, end),
    )


def dues_amount(person: Person, on: datetime.date) -> Decimal | None:
    profile = MoneyProfile.objects.filter(person=person).select_related("membership_type").first()
    if profile is None or profile.membership_type is None:
        return None
    return profile.membership_type.rate_on(on)
