"""The standings pages (players and partnerships) and the officers' standings settings."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from members.permissions import officer_required
from scoring.models import ClubSettings
from scoring.results import ratings
from scoring.results.cache import cached_body
from scoring.results.filters import StandingsFilter
from scoring.results.forms import StandingsSettingsForm
from scoring.results.services import set_ranking
from scoring.results.standings.individual import partnership_standings, standings
from scoring.results.standings.measures import measures_label
from scoring.results.tables.standings import PartnershipTable, StandingsTable
from scoring.results.views.common import csv_download, paginate, results_page, wants_csv


def _club_parts(club: ClubSettings) -> tuple:
    return (tuple(club.ranking_measures or ()), club.min_games_to_rank)


def _standings_page(request, club, *, kind: str):
    filterset = StandingsFilter.for_request(request.GET)
    logged_in = request.user.is_authenticated
    context = {
        "filter": filterset,
        "tab": kind,
        "rating_sentence": ratings.SENTENCE,
        "rating_how": ratings.HOW,
    }
    template = "results/standings.html"
    if not filterset.is_valid():
        context["period"] = None
        return render(request, template, context, status=400)
    period = filterset.period
    build = standings if kind == "players" else partnership_standings
    table_class = StandingsTable if kind == "players" else PartnershipTable

    def result():
        return build(
            period,
            include_guests=filterset.include_guests,
            players=filterset.qs,
            club=club,
        )

    if wants_csv(request):
        name = "standings" if kind == "players" else "partnerships"
        table = table_class(result().rows, link_players=False)
        return csv_download(request, table, f"{name}-{period.slug}.csv")

    def body():
        ranked = result()
        table = paginate(request, table_class(ranked.ranked, link_players=logged_in))
        unranked = table_class(
            ranked.unranked, link_players=logged_in, exclude=("rank",), prefix="u-"
        )
        paginate(request, unranked)
        return {
            "tab": kind,
            "result": ranked,
            "table": table,
            "unranked": unranked,
            "measures_label": ranked.measures_label,
            "min_games": ranked.min_games,
        }

    parts = (kind, logged_in, period.start, period.end, _club_parts(club))
    context.update(
        period=period,
        body=cached_body(request, parts, "results/_standings_body.html", body),
    )
    return render(request, template, context)


@results_page
def standings_view(request, club):
    return _standings_page(request, club, kind="players")


@results_page
def partnerships_view(request, club):
    return _standings_page(request, club, kind="partnerships")


@officer_required
@require_http_methods(["GET", "POST"])
def standings_settings_view(request):
    club = ClubSettings.load()
    form = StandingsSettingsForm(
        request.POST or None, initial=StandingsSettingsForm.initial_for(club)
    )
    if request.method == "POST" and form.is_valid():
        set_ranking(club, **form.ranking_values())
        messages.success(
            request,
            f"Saved. The standings now rank by {measures_label(club.ranking_measures)}"
            f" and need {club.min_games_to_rank} games to rank a player.",
        )
        return redirect("scoring:standings")
    return render(request, "results/standings_settings.html", {"form": form})
