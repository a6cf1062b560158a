"""The event's ranking and its printable prize list, seen by whoever may see the day
results (the club's people; everyone when the club's results are public)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from scoring.results.views.common import results_page
from scoring.tourney.models import Event
from scoring.tourney.standings import event_ranking, prizes, sections


def _event(pk) -> Event:
    return get_object_or_404(Event.objects.select_related("day"), pk=pk)


@require_GET
@results_page
def ranking(request, club, pk):
    event = _event(pk)
    rows = event_ranking(event)
    played = event.event_rounds.filter(ended_at__isnull=False).count()
    brackets = any(row.bracket for row in rows)
    context = {"event": event, "day": event.day, "rows": rows, "played": played}
    context["brackets"] = brackets
    context["sections"] = sections(rows)
    return render(request, "tourney/ranking.html", context)


@require_GET
@results_page
def prizes_view(request, club, pk):
    event = _event(pk)
    rows = prizes(event_ranking(event))
    return render(request, "tourney/prizes.html", {"event": event, "day": event.day, "rows": rows})
