"""``manage.py dues_reminders SLUG [--date DATE]``: a reminder to each member still
unpaid, for every renewal whose reminder date has come (once per member and renewal,
however often it runs: a daily cron line is safe)."""

from __future__ import annotations

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from members.clubs.commands import command_club
from members.clubs.scope import in_club
from members.money.services.dues import due_reminders


class Command(BaseCommand):
    help = "Send the dues reminders that are due at a club."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("--date", help="Today, for the reminder dates (2026-12-01).")

    def handle(self, *args, **options):
        club = command_club(options["slug"])
        with in_club(club), timezone.override(club.time_zone):
            today = timezone.localdate()
            if options["date"]:
                try:
                    today = datetime.date.fromisoformat(options["date"])
                except ValueError:
                    raise CommandError(f"--date {options['date']!r} is not a date.") from None
            count = due_reminders(today)
        self.stdout.write(f"{count} reminders started.")
