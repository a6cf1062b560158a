"""Write the league workbook: ``manage.py export_league [--season NAME | --from DATE
--to DATE | --all] OUT.xlsx``.

Without a period it exports the current season (as the standings page shows), or every
game when the club has no seasons. Errors (unknown season, bad dates, a season and
dates together, a path that cannot be written) end with a message and exit code 1.
"""

import datetime
import os
import time

from django.core.management.base import CommandError

from members.clubs.commands import ClubCommand
from scoring.models import Season
from scoring.results import exports, standings


def _date(value: str, option: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(
            f"{option} {value!r} is not a date: write it as YYYY-MM-DD, e.g. 2025-03-31."
        ) from None


class Command(ClubCommand):
    help = (
        "Write the league workbook (sheets Standings, Games, Hands, Attendance, Members) "
        "of a season, a date range or all games to an .xlsx file."
    )

    def add_arguments(self, parser):
        parser.add_argument("out", metavar="OUT.xlsx", help="The file to write.")
        parser.add_argument("--season", metavar="NAME", help="A season, by its name.")
        parser.add_argument("--from", dest="start", metavar="DATE", help="First day (YYYY-MM-DD).")
        parser.add_argument("--to", dest="end", metavar="DATE", help="Last day (YYYY-MM-DD).")
        parser.add_argument(
            "--all", action="store_true", dest="all_games", help="Every game ever played."
        )

    def handle(self, *args, out, season, start, end, all_games, **options):
        period = self._period(season, start, end, all_games)
        out = os.path.abspath(os.path.expanduser(out))
        self._check_path(out)
        began = time.monotonic()
        try:
            counts = exports.write_league_workbook_to_path(out, period)
        except OSError as exc:
            raise CommandError(f"Could not write {out}: {exc.strerror or exc}.") from None
        took = time.monotonic() - began
        summary = ", ".join(f"{name} {counts[name]:,}" for name in exports.SHEETS)
        self.stdout.write(self.style.SUCCESS(f"Wrote {out} ({period.label}) in {took:.1f} s."))
        self.stdout.write(f"Rows: {summary}.")

    def _period(self, season_name, start, end, all_games) -> standings.Period:
        if season_name and (start or end):
            raise CommandError("Give either --season or --from/--to, not both.")
        if all_games and (season_name or start or end):
            raise CommandError("--all exports every game: give no --season, --from or --to.")
        if all_games:
            return standings.ALL_GAMES
        if season_name:
            season = Season.objects.filter(name__iexact=season_name.strip()).first()
            if season is None:
                known = ", ".join(Season.objects.order_by("-start").values_list("name", flat=True))
                raise CommandError(
                    f"There is no season called {season_name!r}. "
                    + (f"Known seasons: {known}." if known else "No seasons exist yet.")
                )
            return standings.season_period(season)
        start_date = _date(start, "--from") if start else None
        end_date = _date(end, "--to") if end else None
        if start_date and end_date and end_date < start_date:
            raise CommandError(f"--to {end_date} is before --from {start_date}.")
        if start_date or end_date:
            return standings.Period(start=start_date, end=end_date)
        return standings.default_period()

    def _check_path(self, out: str) -> None:
        folder = os.path.dirname(out)
        if not out.lower().endswith(".xlsx"):
            raise CommandError(f"{out} should end in .xlsx (spreadsheet programs rely on it).")
        if os.path.isdir(out):
            raise CommandError(f"{out} is a folder; give a file name ending in .xlsx.")
        if not os.path.isdir(folder):
            raise CommandError(f"The folder {folder} does not exist.")
        if not os.access(folder, os.W_OK) or (os.path.exists(out) and not os.access(out, os.W_OK)):
            raise CommandError(f"Cannot write to {out}: permission denied.")
