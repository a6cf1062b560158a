"""Recompute every rating from the first finished game on: ``manage.py rebuild_ratings``
(``--from DATE`` replays only from that date). It runs here and now; with ``--queue`` the
club's replay is queued for the background worker instead, shown to the club's officers
on their "Background work" page (:mod:`scoring.results.rebuild`)."""

import datetime
import time

from django.core.management.base import CommandError

from members.clubs.commands import ClubCommand
from scoring.results import ratings
from scoring.results.rebuild import ask_for_rebuild


class Command(ClubCommand):
    help = "Recompute the OpenSkill ratings of every player by replaying the finished games."

    def add_arguments(self, parser):
        parser.add_argument(
            "--from", dest="start", metavar="DATE", help="Replay from this day (YYYY-MM-DD)."
        )
        parser.add_argument(
            "--queue",
            action="store_true",
            help="Queue the club's replay for the background worker instead of running it here.",
        )

    def handle(self, *args, start=None, queue=False, **options):
        day = None
        if start:
            try:
                day = datetime.date.fromisoformat(start)
            except ValueError:
                raise CommandError(
                    f"--from {start!r} is not a date: write it as YYYY-MM-DD."
                ) from None
        if queue:
            job, new = ask_for_rebuild(part="ratings", start=day)
            said = "Queued" if new else "Already waiting or running"
            self.stdout.write(f"{said}: the club's replay of the ratings (job {job.pk}).")
            return
        began = time.monotonic()
        games = ratings.replay_from(day)
        took = time.monotonic() - began
        self.stdout.write(self.style.SUCCESS(f"Rated {games:,} games in {took:.1f} s."))
