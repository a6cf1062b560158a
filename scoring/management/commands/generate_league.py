"""Generate a realistic, reproducible club history through the real services:

    python manage.py generate_league --people 400 --years 5 --seed 1

The same options give the same league (dates start on --start, default 2021-01-01,
never on today's date). See :mod:`scoring.devtools.league`.
"""

import datetime

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from members.clubs.commands import ClubCommand
from members.clubs.scope import in_club, scopes_disabled
from members.models import Club
from scoring.devtools.league.generate import generate_league
from scoring.devtools.league.options import DEFAULT_START, LeagueError, LeagueOptions
from scoring.models import Game


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise CommandError(f"--start must be a date like 2021-01-01, not {value!r}.") from exc


class Command(ClubCommand):
    help = (
        "Generate a club history (people, club days, sign-ins, seating, games and hands) "
        "through the scoring services. Same seed, same league."
    )

    def add_arguments(self, parser):
        parser.add_argument("--people", type=int, default=400, help="People (default 400).")
        parser.add_argument("--years", type=int, default=5, help="Years of play (default 5).")
        parser.add_argument("--seed", type=int, default=1, help="Random seed (default 1).")
        parser.add_argument(
            "--days-per-year", type=int, default=100, help="Club days a year (default 100)."
        )
        parser.add_argument(
            "--tables-min", type=int, default=20, help="Fewest tables on a day (default 20)."
        )
        parser.add_argument(
            "--tables-max", type=int, default=30, help="Most tables on a day (default 30)."
        )
        parser.add_argument(
            "--start",
            type=_date,
            default=DEFAULT_START,
            help=f"First day of the first year (default {DEFAULT_START.isoformat()}).",
        )
        parser.add_argument(
            "--clubs",
            type=int,
            metavar="N",
            help="Make N clubs, club-01 … club-NN (each made if missing), each with a "
            "league of its own (seed, seed + 1, …), instead of filling one club.",
        )
        parser.add_argument("--quiet", action="store_true", help="No progress lines.")
        parser.add_argument(
            "--append",
            action="store_true",
            help="Add to a database that already has games (otherwise refused).",
        )
        parser.add_argument(
            "--force", action="store_true", help="Run even in production mode (DJANGO_ENV)."
        )

    def execute(self, *args, **options):
        if options.get("clubs") is not None:  # many clubs: each one's scope is entered below
            if options.get("club"):
                raise CommandError("Give --club or --clubs, not both.")
            return BaseCommand.execute(self, *args, **options)
        return super().execute(*args, **options)

    def handle(self, *args, **o):
        if settings.PRODUCTION and not o["force"]:
            raise CommandError(
                "generate_league writes a made-up club history; it does not run in production "
                "mode. Use a development database (or add --force if you really mean it)."
            )
        if o["clubs"] is not None:
            self._many(o)
            return
        self._one(o, o["seed"])

    def _many(self, o):
        if not 1 <= o["clubs"] <= 99:
            raise CommandError("--clubs must be between 1 and 99.")
        from members.clubs.services import create_club

        for number in range(1, o["clubs"] + 1):
            slug = f"club-{number:02d}"
            with scopes_disabled():
                club = Club.objects.filter(slug=slug).first()
            if club is None:
                club = create_club(slug, f"Club {number:02d}")
            if not o["quiet"]:
                self.stdout.write(f"{club.name} ({slug}):")
            with in_club(club), timezone.override(club.time_zone):
                self._one(o, o["seed"] + number - 1)

    def _one(self, o, seed):
        if Game.objects.exists() and not o["append"]:
            raise CommandError(
                "This database already has games. generate_league only fills an empty one: "
                "point DATABASE_URL at a fresh database, or add --append to add a second "
                "made-up history to this one."
            )
        opts = LeagueOptions(
            people=o["people"],
            years=o["years"],
            seed=seed,
            days_per_year=o["days_per_year"],
            tables_min=o["tables_min"],
            tables_max=o["tables_max"],
            start=o["start"],
        )
        progress = None if o["quiet"] else self.stdout.write
        try:
            summary = generate_league(opts, progress=progress)
        except LeagueError as exc:
            raise CommandError(str(exc)) from exc
        if not o["quiet"]:
            self.stdout.write(self.style.SUCCESS(f"Generated: {summary.line()}."))
