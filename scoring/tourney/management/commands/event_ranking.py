"""Print a club day's event ranking as the ranking page shows it.

    python manage.py event_ranking 2026-11-28 [--json] [--club SLUG]

It prints in the club's language (as :class:`~members.clubs.commands.ClubCommand`
runs it), the sections named as the pages name them. DAY is the day's date
(YYYY-MM-DD; the club's only event that day) or its id. Bad arguments: a plain
message on standard error and exit status 1.
"""

from __future__ import annotations

import datetime as dt
import json

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from members.clubs.commands import ClubCommand
from scoring.tourney.models import Event
from scoring.tourney.standings import event_ranking, sections
from scoring.tourney.words import section_words


def find_event(day: str) -> Event:
    events = Event.objects.select_related("day")
    if day.isdigit():
        found = events.filter(day_id=int(day)).first()
    else:
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            raise CommandError(f"'{day}' is not a date (YYYY-MM-DD) or a day's number.") from None
        found = events.filter(day__date=date).order_by("pk").first()
    if found is None:
        raise CommandError(f"No event on {day}: make one on the club day's event page.")
    return found


def as_json(event: Event, rows) -> dict:
    return {
        "event": str(event),
        "day": event.day.date.isoformat(),
        "ranking": event.ranking,
        "measures": [event.ranking, event.tie_break],
        "sections": [name for name, _rows in sections(rows) if name],
        "rows": [
            {
                "section": row.section,
                "place": row.rank,
                "tied": row.tied,
                "entrant": row.label,
                "people": row.people,
                "games": row.tally.games,
                "wins": row.tally.wins,
                "vp": row.tally.vp,
                "pct": row.pct,
                "points_for": row.tally.points_for,
                "points_against": row.tally.points_against,
                "diff": row.tally.diff,
            }
            for row in rows
        ],
    }


class Command(ClubCommand):
    help = "Print a club day's event ranking (as its ranking page shows it)."

    def add_arguments(self, parser):
        parser.add_argument("day", metavar="DAY", help="The day's date (YYYY-MM-DD) or id.")
        parser.add_argument("--json", action="store_true", help="Print JSON.")

    def handle(self, *args, day, **options):
        event = find_event(day)
        rows = event_ranking(event)
        if options["json"]:
            self.stdout.write(json.dumps(as_json(event, rows), ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"{event} — {event.day}")
        for row in rows:
            if row.section and row is next(r for r in rows if r.section == row.section):
                self.stdout.write(section_words(row.section))
            place = f"{row.rank}{'=' if row.tied else ''}"
            parts = [f"{place:>4}", f"{row.people} ({row.label})"]
            parts.append(_("wins %(count)s") % {"count": row.tally.wins})
            if event.ranking != "wins":
                parts.append(_("VP %(count)s") % {"count": row.tally.vp})
            if event.ranking == "pct":
                parts.append(f"{row.pct}%")
            parts.append(_("points %(count)s") % {"count": row.tally.points_for})
            parts.append(_("difference %(count)s") % {"count": f"{row.tally.diff:+d}"})
            self.stdout.write("  ".join(parts))
