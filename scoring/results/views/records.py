"""The club records page and its CSV downloads."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.results.cache import cached_body
from scoring.results.standings import records as found
from scoring.results.tables import records as tables
from scoring.results.views.common import csv_download, paginate, results_page, wants_csv

# key: (title, table class, rows, prefix). The page and its CSV downloads build each
# table the same way, so a download follows the sort the page shows.
RECORDS = {
    "highest_hand": (_("Highest hand"), tables.HighestHandTable, found.highest_hands, ""),
    "highest_game": (_("Highest game"), tables.HighestGameTable, found.highest_games, ""),
    "most_canastas": (
        _("Most canastas in a game"),
        tables.MostCanastasTable,
        found.most_canastas,
        "",
    ),
    "four_red_threes": (
        _("Four red threes in a hand"),
        tables.FourRedThreesTable,
        found.four_red_threes,
        "r3-",
    ),
    "streaks": (_("Longest winning streak"), tables.StreakTable, found.winning_streaks, ""),
    "season_games": (
        _("Most games in a season"),
        tables.SeasonGamesTable,
        found.most_games_in_a_season,
        "",
    ),
}


def _record_table(key: str, link: bool):
    _title, table_class, rows, prefix = RECORDS[key]
    return table_class(rows(), link_players=link, prefix=prefix)


@results_page
def records_view(request, club):
    link = request.in_club
    if wants_csv(request):
        which = request.GET.get("table", "highest_hand")
        if which not in RECORDS:
            raise Http404(gettext("No such record table."))
        table = _record_table(which, link=False)
        return csv_download(request, table, f"records-{which.replace('_', '-')}.csv")

    def body():
        sections = []
        for key, (title, *_rest) in RECORDS.items():
            table = _record_table(key, link)
            if key == "four_red_threes":
                paginate(request, table)
            sections.append({"key": key, "title": title, "table": table})
        return {"sections": sections}

    html = cached_body(request, (link,), "results/_records_body.html", body)
    return render(request, "results/records.html", {"body": html})
