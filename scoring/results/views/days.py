"""The day results: the club days of a period, and one day's games and top scores."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from members.models import ClubDay
from scoring.results.cache import cached_body
from scoring.results.filters import DayFilter
from scoring.results.standings.days import day_games, top_scores
from scoring.results.tables.days import DayGamesTable, DayTable, TopScoresTable
from scoring.results.views.common import csv_download, paginate, results_page, wants_csv


@results_page
def day_results_view(request, club):
    filterset = DayFilter.for_request(request.GET)
    context = {"filter": filterset}
    if not filterset.is_valid():
        return render(request, "results/day_results.html", context, status=400)
    if wants_csv(request):
        filename = f"club-days-{filterset.period.slug}.csv"
        return csv_download(request, DayTable(filterset.qs), filename)
    period = filterset.period

    def body():
        return {"table": paginate(request, DayTable(filterset.qs))}

    parts = (period.start, period.end)
    context.update(
        period=period,
        body=cached_body(
            request, parts, "results/_day_results_body.html", body, finished_only=False
        ),
    )
    return render(request, "results/day_results.html", context)


@results_page
def day_result_view(request, club, pk):
    day = get_object_or_404(ClubDay, pk=pk)
    link = request.in_club

    def games():
        return DayGamesTable(day_games(day), link_players=link)

    def top():
        return TopScoresTable(top_scores(day, 6), link_players=link, prefix="top-")

    if wants_csv(request):
        which = request.GET.get("table")
        table = top() if which == "top" else games()
        stem = "top-scores" if which == "top" else "games"
        return csv_download(request, table, f"{stem}-{day.date.isoformat()}.csv")

    def body():
        return {"day": day, "games": paginate(request, games()), "top": top()}

    html = cached_body(
        request, (day.pk, link), "results/_day_result_body.html", body, finished_only=False
    )
    return render(request, "results/day_result.html", {"day": day, "body": html})
