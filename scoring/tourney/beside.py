"""The event's own ranking beside a day's results: the day sheet and the results
e-mail (:func:`day_event_ranking`) and the league workbook's Events sheet
(:func:`events_rows`). The event's games count in the day's results like any other
game; these show, next to them, how the event ranked its entrants.

A day without an event costs nothing: :func:`day_event_ranking` looks only when the
day's ``has_event`` is set (loaded with the day), so the ordinary pages make no query
for events; the workbook writes its Events sheet only for a period with an event.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from django.utils.translation import gettext as _

from members.models import ClubDay
from scoring.tourney.models import Event
from scoring.tourney.standings import event_ranking, sections
from scoring.tourney.words import section_words


def day_event_ranking(day: ClubDay) -> dict | None:
    """The day's event and its ranking by section (``{"event", "sections": [(name,
    rows)]}``), or None for a day without an event (no query)."""
    if not day.has_event:
        return None
    event = Event.objects.filter(day_id=day.pk).first()
    if event is None:
        return None
    rows = event_ranking(event)
    return {"event": event, "sections": sections(rows), "count": len(rows)}


def events_in(period) -> list[Event]:
    """The period's events, by date (one query)."""
    return list(
        Event.objects.filter(period.limits("day__date"))
        .select_related("day")
        .order_by("day__date", "day_id")
    )


def events_rows(events: list[Event], labels: dict[int, str]) -> Iterator[list]:
    """The Events sheet's rows: each event's ranking, row by row, as its page shows it."""
    for event in events:
        for row in event_ranking(event):
            yield [
                event.day.date,
                labels.get(event.day_id, ""),
                str(event),
                section_words(row.section or row.bracket),
                row.rank,
                _("Yes") if row.tied else "",
                row.label,
                row.people,
                row.tally.games,
                row.tally.wins,
                row.tally.vp if event.ranking != Event.Ranking.WINS else None,
                Decimal(row.pct) if event.ranking == Event.Ranking.PCT else None,
                row.tally.points_for,
                row.tally.points_against,
                row.tally.diff,
            ]
