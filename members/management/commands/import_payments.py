"""``manage.py import_payments SLUG FILE [--dry-run]``: a bank statement's CSV read
with the club's saved column mapping; says what it matched, what it could not and what
it wrote (or would write, with ``--dry-run``). Exit status 0 when every line matched,
2 when some matched nobody (the matched ones are still written without --dry-run); a
file that cannot be read is refused (status 1) and nothing is written."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from members.clubs.commands import command_club
from members.clubs.scope import in_club
from members.money.bank import MAX_BANK_BYTES
from members.money.services.errors import MoneyRefused
from members.money.services.imports import confirm_import, preview_import


class Command(BaseCommand):
    help = "Import the payments of a bank statement's CSV into a club's ledger."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("file", help="The bank's CSV file.")
        parser.add_argument("--dry-run", action="store_true", help="Write nothing.")

    def handle(self, *args, **options):
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"{path} is not a file.")
        with path.open("rb") as handle:
            data = handle.read(MAX_BANK_BYTES + 1)
        club = command_club(options["slug"])
        with in_club(club), timezone.override(club.time_zone):
            try:
                preview = preview_import(path.name, data)
            except MoneyRefused as refusal:
                raise CommandError(refusal.message) from None
            for line in preview.matched:
                self.stdout.write(
                    f"matched  line {line.line}: {line.date} {line.amount} → {line.name}"
                )
            for line in preview.unmatched:
                self.stdout.write(
                    f"no match line {line.line}: {line.date} {line.amount} "
                    f"“{line.reference}”: {line.problem}"
                )
            count, total = len(preview.matched), preview.total
            if preview.done:
                self.stdout.write("This file was imported already: nothing to write.")
            elif options["dry_run"]:
                self.stdout.write(f"Would write {count} payments, {total} in all (dry run).")
            elif count:
                _record, new = confirm_import(preview)
                verb = "Wrote" if new else "Already written:"
                self.stdout.write(f"{verb} {count} payments, {total} in all.")
            else:
                self.stdout.write("Nothing matched: nothing written.")
        if preview.unmatched:
            raise SystemExit(2)
