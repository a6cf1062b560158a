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
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.clubs.commands import ClubCommand
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
            raise CommandError(
                _("Cannot read %(path)s: %(error)s.") % {"path": path, "error": error.strerror},
                returncode=1,
            ) from None
        except RosterError as error:
            raise CommandError(f"{path.name}: {error}", returncode=1) from None
        try:
            roster = read_roster(path.name, data, date_order=date_order or AUTO)
        except RosterError as error:
            raise CommandError(f"{path.name}: {error}", returncode=1) from None

        plan = apply_import(roster, dry_run=dry_run)
        for note in roster.notes + roster.dates.notes():
            self.stdout.write(_("Note: %(note)s") % {"note": note})
        if roster.ignored_columns:
            ignored = ", ".join(f"“{c}”" for c in roster.ignored_columns)
            self.stdout.write(_("Ignored columns: %(columns)s") % {"columns": ignored})
        if options["verbosity"] >= 2:
            for planned in plan.create:
                self.stdout.write(
                    _("line %(line)s: new member %(number)s %(name)s")
                    % {
                        "line": planned.row.line,
                        "number": planned.row.membership_number,
                        "name": planned.row.full_name,
                    }
                )
            for planned in plan.update:
                changes = ", ".join(f"{c.label} {c.old!s} → {c.new!s}" for c in planned.changes)
                self.stdout.write(
                    _("line %(line)s: %(number)s %(name)s: %(changes)s")
                    % {
                        "line": planned.row.line,
                        "number": planned.row.membership_number,
                        "name": planned.person_name,
                        "changes": changes,
                    }
                )
        lines = [
            (d.line, _("duplicate of line %(line)s (counted once)") % {"line": d.of_line})
            for d in plan.duplicates
        ]
        lines += [
            (r.line, _("same number as line %(line)s, which wins") % {"line": r.by_line})
            for r in plan.replaced
        ]
        lines += [(r.line, r.reason) for r in plan.refused]
        for line, text in sorted(lines):
            self.stdout.write(_("line %(line)s: %(text)s") % {"line": line, "text": text})
        if dry_run:
            summary = _("Dry run, nothing saved — would be: %(summary)s.")
        else:
            summary = _("%(summary)s.")
        style = self.style.WARNING if plan.refused else self.style.SUCCESS
        self.stdout.write(style(summary % {"summary": plan.summary()}))
        if plan.refused:
            count = len(plan.refused)
            if dry_run:
                text = ngettext(
                    "%(n)s row was refused (listed above).",
                    "%(n)s rows were refused (listed above).",
                    count,
                )
            else:
                text = ngettext(
                    "%(n)s row was refused (listed above); the other rows were imported.",
                    "%(n)s rows were refused (listed above); the other rows were imported.",
                    count,
                )
            raise CommandError(text % {"n": count}, returncode=2)
