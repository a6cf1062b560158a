"""Recompute every rating from the first finished game on: ``manage.py rebuild_ratings``
(``--from DATE`` replays only from that date)."""

import datetime
import time

from django.core.management.base import CommandError

from members.clubs.commands import ClubCommand
from scoring.results import ratings


class Command(ClubCommand):
    help = "Recompute the OpenSkill ratings of every player by replaying the finished games."

    def add_arguments(self, parser):
        parser.add_argument(
            "--from", dest="start", metavar="DATE", help="Replay from this day (YYYY-MM-DD)."
        )

    def handle(self, *args, start=None, **options):
        day = None
        if start:
            try:
                day = datetime.date.fromisoformat(start)
            except ValueError:
                raise CommandError(
                    f"--from {start!r} is not a date: write it as YYYY-MM-DD."
                ) from None
        began = time.monotonic()
        games = ratings.replay_from(day)
        took = time.monotonic() - began
        self.stdout.write(self.style.SUCCESS(f"Rated {games:,} games in {took:.1f} s."))
