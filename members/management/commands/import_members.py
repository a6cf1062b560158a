"""Import a membership roster from .xlsx or .csv.

    python manage.py import_members roster.xlsx [--dry-run] [--day-first | --month-first]

Prints a summary and each refused row ("line 7: ..."). Exit status: 0 when every row
was imported (or unchanged), 2 when some rows were refused (the valid ones are still
imported unless --dry-run), 1 when the file is not a roster or cannot be read. Safe to
run again on the same file: members are matched by membership number, so a second run
reports "0 created, 0 updated, N unchanged".
"""

from pathlib import Path

from django.core.management.base import CommandError

from members.clubs import ClubCommand
from members.roster.dates import AUTO, DAY_FIRST, MONTH_FIRST
from members.roster.limits import check_upload_size
from members.roster.plan import apply_import
from members.roster.read import RosterError, read_roster


class Command(ClubCommand):
    help = "Import members from a roster file (.xlsx or .csv); --dry-run saves nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The roster: an .xlsx workbook or a .csv file.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Show what would change; save nothing."
        )
        order = parser.add_mutually_exclusive_group()
        order.add_argument(
            "--day-first",
            dest="date_order",
            action="store_const",
            const=DAY_FIRST,
            help="Read dates like 03/04/2021 as 3 April.",
        )
        order.add_argument(
            "--month-first",
            dest="date_order",
            action="store_const",
            const=MONTH_FIRST,
            help="Read dates like 03/04/2021 as March 4.",
        )

    def handle(self, *args, file, dry_run=False, date_order=None, **options):
        path = Path(file)
        try:
            check_upload_size(path.stat().st_size)
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.", returncode=1) from None
        except RosterError as error:
            raise CommandError(f"{path.name}: {error}", returncode=1) from None
        try:
            roster = read_roster(path.name, data, date_order=date_order or AUTO)
        except RosterError as error:
            raise CommandError(f"{path.name}: {error}", returncode=1) from None

        plan = apply_import(roster, dry_run=dry_run)
        for note in roster.notes + roster.dates.notes():
            self.stdout.write(f"Note: {note}")
        if roster.ignored_columns:
            ignored = ", ".join(f"“{c}”" for c in roster.ignored_columns)
            self.stdout.write(f"Ignored columns: {ignored}")
        if options["verbosity"] >= 2:
            for planned in plan.create:
                self.stdout.write(
                    f"line {planned.row.line}: new member {planned.row.membership_number} "
                    f"{planned.row.full_name}"
                )
            for planned in plan.update:
                changes = ", ".join(f"{c.label} {c.old!s} → {c.new!s}" for c in planned.changes)
                self.stdout.write(
                    f"line {planned.row.line}: {planned.row.membership_number} "
                    f"{planned.person_name}: {changes}"
                )
        lines = [(d.line, f"duplicate of line {d.of_line} (counted once)") for d in plan.duplicates]
        lines += [(r.line, f"same number as line {r.by_line}, which wins") for r in plan.replaced]
        lines += [(r.line, r.reason) for r in plan.refused]
        for line, text in sorted(lines):
            self.stdout.write(f"line {line}: {text}")
        prefix = "Dry run, nothing saved — would be: " if dry_run else ""
        style = self.style.WARNING if plan.refused else self.style.SUCCESS
        self.stdout.write(style(f"{prefix}{plan.summary()}."))
        if plan.refused:
            count = len(plan.refused)
            raise CommandError(
                f"{count} row{'s were' if count != 1 else ' was'} refused (listed above)"
                + ("." if dry_run else "; the other rows were imported."),
                returncode=2,
            )
