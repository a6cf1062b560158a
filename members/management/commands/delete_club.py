"""``manage.py delete_club SLUG``: delete one club and all its data, after the slug is
typed again (``--yes-i-am-sure SLUG`` or ``--noinput`` for scripts)."""

from django.core.management.base import BaseCommand, CommandError

from members.clubs.commands import command_club
from members.clubs.portable import PortableError, delete_club


class Command(BaseCommand):
    help = (
        "Delete one club: its people, days, games, hands, ratings, totals, settings and "
        "history. Other clubs, the shipped presets and the site's logins are kept. "
        "Export it first (export_club) if it may be wanted again."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument(
            "--yes-i-am-sure",
            metavar="SLUG",
            dest="confirmed",
            help="Confirm without a question: the same slug again.",
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Ask nothing (for scripts).",
        )

    def handle(self, *args, slug, confirmed=None, interactive=True, **options):
        club = command_club(slug)
        if confirmed is not None and confirmed != club.slug:
            raise CommandError(
                f"--yes-i-am-sure names “{confirmed}”, not “{club.slug}”; nothing was deleted."
            )
        if confirmed is None and interactive:
            self.stdout.write(
                f"This deletes {club.name} ({club.slug}) and everything of it, for good."
            )
            typed = input(f"Type the club's slug ({club.slug}) to delete it: ").strip()
            if typed != club.slug:
                raise CommandError("That is not the club's slug; nothing was deleted.")
        try:
            counts = delete_club(club)
        except PortableError as exc:
            raise CommandError(str(exc)) from exc
        total = sum(counts.values())
        self.stdout.write(
            self.style.SUCCESS(f"Deleted {club.name} ({club.slug}) and its {total:,} rows.")
        )
