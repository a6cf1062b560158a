"""Seating on a club day: the seating page, drawing a round, starting play, moving and
swapping people, and the big-type screen view of the tables."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.params import whole_number
from members.draw import SIT_OUT, THREES, SeatingImpossible, table_sizes
from members.draw_words import describe
from members.forms import DrawForm, MoveForm, SwapForm
from members.models import Person, Round
from members.permissions import officer_required
from members.services.errors import SeatingRefused
from members.services.seating import (
    MAX_AT_TABLE,
    current_round,
    draw_round,
    move_seat,
    not_seated,
    seat_map,
    start_round,
    swap_seats,
)
from members.views.common import club_day, first_error


def _round(day, number):
    number = whole_number(number, digits=4)
    if number is None:
        return current_round(day)
    return get_object_or_404(Round, day=day, number=number)


@officer_required
@require_http_methods(["GET"])
def seating_page(request, pk):
    day = club_day(pk)
    round_ = _round(day, request.GET.get("round"))
    latest = current_round(day)
    count = day.signins.filter(person__merged_into__isnull=True).count()
    options = [
        (choice, label, describe(count, choice))
        for choice, label in DrawForm.base_fields["remainder"].choices
    ]
    tables = seat_map(round_) if round_ else []
    unseated = not_seated(round_, day)
    people = list(
        Person.objects.filter(signins__day=day, merged_into__isnull=True).order_by(
            "first_name", "last_name"
        )
    )
    movable = round_ is not None and not round_.started and round_ == latest
    context = {
        "day": day,
        "round": round_,
        "latest": latest,
        "rounds": list(day.rounds.order_by("number")),
        "count": count,
        "options": options,
        "draw_form": DrawForm(initial={"remainder": _default_remainder(latest, count)}),
        "tables": tables,
        "unseated": unseated,
        "movable": movable,
        "move_form": MoveForm(
            people=people,
            table_numbers=[t.number for t, _ in tables],
            seats=_seats_offered(tables),
        ),
        "swap_form": SwapForm(people=people),
        "seated_count": sum(len(seats) for _, seats in tables),
    }
    return render(request, "members/seating.html", context)


def _seats_offered(tables) -> int:
    """The seat numbers the move form offers: 1 to 4 (tables of four and three), or up
    to 6 when a table of the round already seats more than four (six-player rules)."""
    largest = max((len(seats) for _table, seats in tables), default=0)
    return MAX_AT_TABLE if largest > 4 else 4


def _default_remainder(latest, count):
    """The choice made last time, or three-player tables, unless impossible now."""
    choice = (latest.remainder if latest else "") or THREES
    try:
        table_sizes(count, choice)
    except SeatingImpossible:
        return SIT_OUT
    return choice


def _seating_redirect(day, round_=None):
    url = reverse("members:seating", args=[day.pk])
    if round_ is not None:
        url += f"?round={round_.number}"
    return redirect(url)


@officer_required
@require_POST
def seating_draw(request, pk):
    day = club_day(pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what to do when the count is not a multiple of four."))
        return _seating_redirect(day)
    try:
        result = draw_round(
            day,
            form.cleaned_data["remainder"],
            by=request.user,
            spread_guests=form.cleaned_data["spread_guests"],
        )
    except SeatingRefused as refusal:
        messages.warning(request, refusal.message)
        return _seating_redirect(day)
    tables = result.round.tables.count()
    if result.redrawn:
        text = ngettext(
            "Round %(number)s drawn again: %(n)s table.",
            "Round %(number)s drawn again: %(n)s tables.",
            tables,
        )
    else:
        text = ngettext(
            "Round %(number)s drawn: %(n)s table.", "Round %(number)s drawn: %(n)s tables.", tables
        )
    text %= {"number": result.round.number, "n": tables}
    if result.sitting_out:
        names = ", ".join(p.full_name for p in result.sitting_out)
        text += " " + _("Sitting out: %(names)s.") % {"names": names}
    text += " " + _(
        "Read the tables out, or show the screen view. Press “Start play in round %(number)s” "
        "when ready."
    ) % {"number": result.round.number}
    messages.success(request, text)
    return _seating_redirect(day, result.round)


def _posted_round(request, day):
    number = whole_number(request.POST.get("round"), digits=4, default=0)
    return get_object_or_404(Round, day=day, number=number)


@officer_required
@require_POST
def seating_start(request, pk):
    day = club_day(pk)
    round_ = _posted_round(request, day)
    try:
        start_round(round_)
        messages.success(
            request,
            _("Round %(number)s has started: the seats are fixed.") % {"number": round_.number},
        )
    except SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


def _round_people(day):
    return list(Person.objects.filter(signins__day=day, merged_into__isnull=True))


@officer_required
@require_POST
def seating_move(request, pk):
    day = club_day(pk)
    round_ = _posted_round(request, day)
    numbers = list(round_.tables.values_list("number", flat=True))
    form = MoveForm(request.POST, people=_round_people(day), table_numbers=numbers)
    if not form.is_valid() or form.cleaned_data.get("person_obj") is None:
        messages.error(request, _("To move someone: %(error)s") % {"error": first_error(form)})
        return _seating_redirect(day, round_)
    data = form.cleaned_data
    try:
        text = move_seat(round_, data["person_obj"], data["table_number"], data["position_number"])
        messages.success(request, text)
    except SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


@officer_required
@require_POST
def seating_swap(request, pk):
    day = club_day(pk)
    round_ = _posted_round(request, day)
    form = SwapForm(request.POST, people=_round_people(day))
    if not form.is_valid():
        messages.error(request, _("To swap two people: %(error)s") % {"error": first_error(form)})
        return _seating_redirect(day, round_)
    try:
        text = swap_seats(round_, form.cleaned_data["first_obj"], form.cleaned_data["second_obj"])
        messages.success(request, text)
    except SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


@officer_required
@require_http_methods(["GET"])
def seating_display(request, pk):
    """Big type for a screen: table number, then names. Refreshes itself."""
    day = club_day(pk)
    round_ = _round(day, request.GET.get("round"))
    tables = seat_map(round_) if round_ else []
    unseated = not_seated(round_, day) if round_ else []
    return render(
        request,
        "members/seating_display.html",
        {"day": day, "round": round_, "tables": tables, "unseated": unseated},
    )
