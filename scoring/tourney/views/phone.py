"""A table phone's two taps in an event: "open the next round at this table" (the
phone moves with its table to the round's new row) and "we are here" (the arriving
players confirm they sit at the table). Who may tap: whoever may use the table page
(:func:`scoring.play.access.table_for_request`)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.params import whole_number
from scoring.play.access import grant_table, shows_closed_day, table_for_request
from scoring.tourney.services.arrivals import arrive as record_arrival
from scoring.tourney.services.arrivals import next_table
from scoring.tourney.services.errors import AlreadyDone, EventRefused


@shows_closed_day
@require_POST
def follow(request, table_pk):
    """This phone stays with its table: open the same table of the event's next round."""
    access = table_for_request(request, table_pk)
    target = next_table(access.table)
    if target is None:
        messages.info(request, _("The next round is not seated yet; this page says when it is."))
        return redirect("scoring:table", table_pk=access.table.pk)
    if access.how == "link":
        grant_table(request, target)
    return redirect("scoring:table", table_pk=target.pk)


@shows_closed_day
@require_POST
def arrive(request, table_pk):
    access = table_for_request(request, table_pk, edit=True)
    side = whole_number(request.POST.get("side"), digits=1, default=9)
    try:
        record_arrival(access.table, side, now=timezone.now())
    except AlreadyDone as exc:
        messages.info(request, exc.message)
    except EventRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Thank you: the director sees that you are here."))
    return redirect("scoring:table", table_pk=access.table.pk)
