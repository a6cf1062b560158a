"""The room board: its front page (type the board code), the board link, the board and
the small fragment the board fetches every few seconds."""

from __future__ import annotations

from functools import wraps

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from clubsite.devices import remember_device
from scoring.results.board import (
    BoardEnded,
    board,
    board_day,
    board_link_elsewhere,
    check_board_code,
    grant_board,
)
from scoring.results.cache import cached_body, day_has_event

BODY = "results/_board_body.html"
#: htmx stops polling when a fragment answers with this status.
HTMX_STOP_POLLING = 286


def _cached_board(request, day):
    def build(stamp):
        return board(day, event=day_has_event(stamp))

    return cached_body(request, (day.pk,), BODY, build, day_id=day.pk, build_with_stamp=True)


@require_http_methods(["GET", "POST"])
def board_entry(request):
    """The board's front page: type the day's board code (a wrong one is counted like a
    wrong room code)."""
    context = {}
    if request.method == "POST":
        code = request.POST.get("board_code", "")
        day, problem = check_board_code(request, code)
        if day is not None and day.club_id != request.club.pk:
            return redirect(board_link_elsewhere(request, day))
        if day is not None:
            grant_board(request, day)
            response = redirect("scoring:board", pk=day.pk)
            remember_device(request, response)
            return response
        context = {"board_error": problem, "board_code": str(code)[:20]}
    response = render(request, "results/board_entry.html", context)
    remember_device(request, response)
    return response


@require_http_methods(["GET"])
def board_link(request, code):
    """The board link on the day's page: this browser may now show that day's board."""
    day, problem = check_board_code(request, code)
    if day is None:
        response = render(request, "results/board_entry.html", {"board_error": problem}, status=404)
    elif day.club_id != request.club.pk:
        response = redirect(board_link_elsewhere(request, day))
    else:
        grant_board(request, day)
        response = redirect("scoring:board", pk=day.pk)
    remember_device(request, response)
    return response


def _shows_ended(*, fragment: bool):
    """A board whose day is over says so (the page with 410; the fragment with the
    status that stops htmx polling, so the screen shows the message and stops asking)."""
    template = "results/_board_ended.html" if fragment else "results/board_ended.html"
    status = HTMX_STOP_POLLING if fragment else 410

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            try:
                return view(request, *args, **kwargs)
            except BoardEnded as ended:
                return render(request, template, {"day": ended.day}, status=status)

        return wrapper

    return decorate


@_shows_ended(fragment=False)
@require_http_methods(["GET"])
def board_view(request, pk):
    day = board_day(request, pk)
    return render(request, "results/board.html", {"day": day, "body": _cached_board(request, day)})


@_shows_ended(fragment=True)
@require_http_methods(["GET"])
def board_live(request, pk):
    """The board's body alone, fetched every few seconds: a cached body under the data
    fingerprint, so an unchanged day costs a few small queries."""
    day = board_day(request, pk)
    return HttpResponse(_cached_board(request, day))
