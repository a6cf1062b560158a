"""Ladders: the list, a ladder's standings and fund (whoever may see the results), and
an officer's form to make or change one."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from members.permissions import is_officer, officer_required
from scoring.results.views.common import results_page
from scoring.tourney.ladder_forms import LadderForm
from scoring.tourney.ladders import ladder_standings
from scoring.tourney.models import Ladder
from scoring.tourney.services.errors import AlreadyDone
from scoring.tourney.services.ladders import save_ladder


@require_GET
@results_page
def ladder_list(request, club):
    ladders = Ladder.objects.all()
    context = {"ladders": ladders, "officer": is_officer(request.user)}
    return render(request, "tourney/ladders.html", context)


@require_GET
@results_page
def ladder_view(request, club, pk):
    ladder = get_object_or_404(Ladder, pk=pk)
    context = {"ladder": ladder, "officer": is_officer(request.user), **ladder_standings(ladder)}
    context["day_count"] = ladder.ladder_days.count()
    return render(request, "tourney/ladder.html", context)


@officer_required
@require_http_methods(["GET", "POST"])
def ladder_edit(request, pk=None):
    ladder = get_object_or_404(Ladder, pk=pk) if pk else None
    initial = {"days": list(ladder.days.all())} if ladder else None
    form = LadderForm(request.POST or None, instance=ladder, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            ladder = save_ladder(ladder, days=form.cleaned_data["days"], **form.fields_to_save())
        except AlreadyDone as exc:
            if exc.ladder is not None and ladder is None:
                messages.info(request, exc.message)
                return redirect("scoring:ladder", pk=exc.ladder.pk)
            form.add_error("name", exc.message)
        else:
            return redirect("scoring:ladder", pk=ladder.pk)
    return render(request, "tourney/ladder_form.html", {"form": form, "ladder": ladder})
