"""``manage.py club_statement SLUG [--as-of DATE] [--json]``: each person's charges,
payments and balance at a club (a negative balance is owed), as text or JSON with the
amounts as exact decimal strings."""

from __future__ import annotations

import datetime
import json

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from members.clubs.commands import command_club
from members.clubs.scope import in_club
from members.money.models import MoneySettings
from members.money.views.common import balance_rows


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--as-of {text!r} is not a date written as 2026-12-01.") from None


class Command(BaseCommand):
    help = "Print each person's charges, payments and balance at a club."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("--as-of", help="Count lines up to this date (2026-12-01).")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args, **options):
        club = command_club(options["slug"])
        with in_club(club), timezone.override(club.time_zone):
            as_of = _date(options["as_of"]) if options["as_of"] else timezone.localdate()
            currency = MoneySettings.current().currency
            people = [
                {
                    "name": row.person.full_name,
                    "number": row.person.membership_number,
                    "charges": str(row.totals.charges),
                    "payments": str(row.totals.payments),
                    "balance": str(row.totals.balance),
                }
                for row in balance_rows(as_of)
            ]
        if options["json"]:
            document = {
                "club": club.slug,
                "currency": currency,
                "as_of": as_of.isoformat(),
                "people": people,
            }
            self.stdout.write(json.dumps(document, indent=2, ensure_ascii=False))
            return
        self.stdout.write(f"{club.name} ({club.slug}), {currency}, as of {as_of.isoformat()}")
        for p in people:
            number = p["number"] or "-"
            self.stdout.write(
                f"{number:>8}  {p['name']:<30} charges {p['charges']:>10}  "
                f"payments {p['payments']:>10}  balance {p['balance']:>10}"
            )
