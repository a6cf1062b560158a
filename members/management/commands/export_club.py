"""``manage.py export_club SLUG FILE``: everything of one club in one file, for
``import_club`` on this site or another (see :mod:`members.clubs.portable`)."""

from django.core.management.base import BaseCommand, CommandError

from members.clubs.commands import command_club
from members.clubs.portable import PortableError, export_club


class Command(BaseCommand):
    help = (
        "Write everything of one club (people, days, games, hands, ratings, totals, "
        "settings, history) to one file that import_club reads back on any install."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("file", help="The file to write (it must not exist yet).")

    def handle(self, *args, slug, file, **options):
        club = command_club(slug)
        try:
            counts = export_club(club, file)
        except PortableError as exc:
            raise CommandError(str(exc)) from exc
        total = sum(counts.values())
        self.stdout.write(
            self.style.SUCCESS(f"Wrote {total:,} rows of {club.name} ({club.slug}) to {file}.")
        )
