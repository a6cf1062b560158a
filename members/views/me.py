"""A member's own page: their details, their club days and their recent tables."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from members.models import Person, Seat
from members.permissions import person_for


@login_required
@require_http_methods(["GET"])
def me(request):
    """A member's own page: their details and their club days. Nobody else's."""
    person = person_for(request.user)
    if person is not None and person.is_merged:
        person = person.merged_into
    if person is None:
        return render(request, "members/me_no_person.html")
    person = Person.objects.with_visits().get(pk=person.pk)
    signins = person.signins.select_related("day").order_by("-day__date")[:30]
    seats = (
        Seat.objects.filter(person=person)
        .select_related("round__day", "table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("person")))
        .order_by("-round__day__date", "-round__number")[:10]
    )
    tables = [
        (seat, [s.person.full_name for s in seat.table.seats.all() if s.person_id != person.pk])
        for seat in seats
    ]
    return render(
        request, "members/me.html", {"person": person, "signins": signins, "tables": tables}
    )
