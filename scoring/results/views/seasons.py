"""The officers' seasons: the list and the form that adds or changes one."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.permissions import officer_required
from scoring.models import Season
from scoring.results.forms import SeasonForm
from scoring.results.services import save_season
from scoring.results.standings.periods import current_season
from scoring.results.tables.seasons import SeasonTable
from scoring.results.views.common import paginate


@officer_required
def seasons_view(request):
    table = paginate(request, SeasonTable(Season.objects.all()))
    return render(request, "results/seasons.html", {"table": table, "current": current_season()})


@officer_required
@require_http_methods(["GET", "POST"])
def season_edit_view(request, pk=None):
    season = get_object_or_404(Season, pk=pk) if pk else None
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        saved = save_season(form.instance)
        if season:
            messages.success(request, _("Season “%(name)s” saved.") % {"name": saved.name})
        else:
            messages.success(request, _("Season “%(name)s” added.") % {"name": saved.name})
        if form.overlaps:
            names = ", ".join(f"“{s.name}”" for s in form.overlaps)
            messages.warning(
                request,
                _(
                    "“%(name)s” overlaps %(others)s: games on the shared days count in each "
                    "season. That is fine for a league inside a year; otherwise change the "
                    "dates."
                )
                % {"name": saved.name, "others": names},
            )
        return redirect("scoring:seasons")
    return render(request, "results/season_form.html", {"form": form, "season": season})
