"""The officer's event page: the settings, the round in play with its clock and its
controls (start, pause, resume, a minute more or less, end), the schedule of the
later rounds and the next seating. Views parse, check, call a service and redirect."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubsite.params import whole_number
from members.models import ClubDay
from members.permissions import officer_required
from scoring.tourney import reads, timing
from scoring.tourney.display import clock_context, seating_rows
from scoring.tourney.forms import EventForm
from scoring.tourney.models import Event
from scoring.tourney.services import clock, rounds
from scoring.tourney.services.errors import AlreadyDone, EventRefused
from scoring.tourney.services.setup import create_event, edit_event
from scoring.tourney.words import done_words

ACTIONS = {
    "start": lambda e, **kw: rounds.start_next_round(e, **kw),
    "end": lambda e, **kw: rounds.end_current_round(e, **kw),
    "pause": lambda e, **kw: clock.pause(e, **kw),
    "resume": lambda e, **kw: clock.resume(e, **kw),
    "add": lambda e, **kw: clock.shift(e, minutes=1, **kw),
    "remove": lambda e, **kw: clock.shift(e, minutes=-1, **kw),
}


def _round_view(event: Event, now) -> dict:
    state = reads.day_state(event.day_id)
    row = reads.current_round(state)
    if row is None:
        clock = {"number": 1, "rounds": event.rounds, "state": timing.WAITING, "remaining": ""}
        return {"clock": clock, "number": 1, "waiting": True, "seating": []}
    clock = clock_context(state, row, now)
    later = []
    if clock["deadline"] is not None:
        later = timing.schedule(
            clock["deadline"], row["number"], event.rounds, event.round_minutes, event.move_minutes
        )
    return {
        "clock": clock,
        "number": row["number"],
        "later": later,
        "seating": seating_rows(row),
        "waiting": clock["state"] == timing.WAITING,
        "paused": clock["state"] == timing.PAUSED,
    }


@officer_required
@require_GET
def event_page(request, day_pk):
    day = get_object_or_404(ClubDay, pk=day_pk)
    event = Event.objects.filter(day=day).select_related("rule_set").first()
    if event is None:
        return redirect("scoring:event_edit", day_pk=day.pk)
    context = {"day": day, "event": event, "key": secrets.token_urlsafe(16)}
    context.update(_round_view(event, timezone.now()))
    words = {"number": context["number"]}
    context["start_label"] = _("Start round %(number)s") % words
    context["end_label"] = _("End round %(number)s") % words
    return render(request, "tourney/event.html", context)


@officer_required
@require_http_methods(["GET", "POST"])
def event_edit(request, day_pk):
    day = get_object_or_404(ClubDay, pk=day_pk)
    event = Event.objects.filter(day=day).first()
    form = EventForm(request.POST or None, instance=event or Event(day=day))
    if request.method == "POST" and form.is_valid():
        try:
            if event is None:
                create_event(day, **form.settings())
            else:
                edit_event(event, **form.settings())
        except AlreadyDone:
            pass  # made a moment ago by the same form: show it
        except EventRefused as exc:
            form.add_error(None, exc.message)
            return render(request, "tourney/event_form.html", {"day": day, "form": form})
        return redirect("scoring:event", day_pk=day.pk)
    return render(request, "tourney/event_form.html", {"day": day, "form": form, "event": event})


@officer_required
@require_POST
def event_action(request, pk, action):
    event = get_object_or_404(Event, pk=pk)
    do = ACTIONS.get(action)
    number = whole_number(request.POST.get("number"), digits=2, default=0)
    if do is None or not number:
        messages.error(request, done_words("unknown"))
        return redirect("scoring:event", day_pk=event.day_id)
    try:
        do(event, number=number, key=request.POST.get("key"), by=request.user, now=timezone.now())
    except AlreadyDone as exc:
        messages.info(request, exc.message)
    except EventRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done_words(action, number))
    return redirect("scoring:event", day_pk=event.day_id)
