"""Management commands on one club's data: ``--club SLUG`` (:class:`ClubCommand`), or
the site's only club (:func:`command_club`)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import timezone, translation

from members.clubs.languages import club_language
from members.clubs.models import Club
from members.clubs.scope import in_club


def command_club(slug: str | None = None):
    """The club a management command works on: ``--club SLUG``, or the site's only
    club (a ``CommandError`` naming the clubs when there are several)."""
    try:
        if slug:
            found = Club.objects.filter(slug=slug).first()
            if found is None:
                raise CommandError(f"No club has the slug {slug!r}.")
            return found
        clubs = list(Club.objects.order_by("slug")[:21])
    except DatabaseError:
        raise CommandError(
            "The site's database is not set up (or not up to date): run `manage.py migrate` first."
        ) from None
    if len(clubs) == 1:
        return clubs[0]
    if not clubs:
        raise CommandError("The site has no club yet: run `manage.py migrate` first.")
    names = ", ".join(c.slug for c in clubs[:20])
    raise CommandError(f"The site has several clubs; say which with --club ({names}).")


class ClubCommand(BaseCommand):
    """A management command on one club's data: ``--club SLUG`` (optional while the
    site has only one club). It runs inside that club's scope and time zone, as a
    request of the club would."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--club", help="The club's slug (needed when the site has more than one club)."
        )
        return parser

    def execute(self, *args, **options):
        club = command_club(options.get("club"))
        # What an officer reads (and writes into files) is in the club's language (read
        # once the club's scope is entered).
        with (
            in_club(club),
            timezone.override(club.time_zone),
            translation.override(club_language()),
        ):
            return super().execute(*args, **options)
