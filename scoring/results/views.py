"""Results pages: standings, partnerships, day results, records, a player's page,
seasons, the standings settings and the league workbook.

Who sees what:

- Standings, partnerships, day results and records: anyone logged in (members and
  officers); visitors too when an officer switches on public standings
  (``ClubSettings.public_standings``). Visitors never get links to players' pages.
- A player's page (``/players/<id>/``): anyone logged in — the member themself, other
  members (it shows only the game record: results, partners, opponents, charts, bests)
  and officers. Never visitors, even with public standings on. Contact details (email,
  phone, notes) are never on this page, for anyone: members see their own on their
  profile (members:me) and officers on the people pages.
- Seasons, the standings settings and the league workbook: officers only.

Every listing is a django-tables2 table with a CSV download (``?_export=csv``); the
number of SQL queries of each page does not grow with the history. The bodies of the
results pages are cached (:func:`cached_body`) under the page address and a data
fingerprint: for the pages of finished games (standings, records, players' pages)
:func:`scoring.results.standings.results_stamp`, which changes when a game finishes or a
finished game changes; for the day pages :func:`scoring.results.standings.data_stamp`, which
changes with every hand. A repeat view skips the aggregates and the table rendering.
"""

from __future__ import annotations

import tempfile
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from members.models import ClubDay, Person
from members.permissions import officer_required, person_for
from scoring.models import ClubSettings, Season
from scoring.results import charts, exports, ratings, standings
from scoring.results import tables as t
from scoring.results.cache import cached_body
from scoring.results.filters import DayFilter, StandingsFilter
from scoring.results.forms import SeasonForm, StandingsSettingsForm

CSV = "csv"


def results_page(view):
    """Logged-in users always; visitors only when public standings are switched on
    (otherwise they are sent to the login page). Passes the club settings on."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        club = ClubSettings.load()
        if not request.user.is_authenticated and not club.public_standings:
            return redirect_to_login(request.get_full_path())
        return view(request, club, *args, **kwargs)

    return wrapper


def _export(request) -> bool:
    return request.GET.get("_export") == CSV


def _paginate(request, table):
    RequestConfig(request, paginate=True).configure(table)
    return table


def _csv(request, table, filename: str):
    """Every row of ``table`` as a CSV download, sorted as the page shows it (the
    table's own prefix picks its ``sort`` parameter)."""
    RequestConfig(request, paginate=False).configure(table)
    return t.csv_response(table, filename)


def _club_parts(club: ClubSettings) -> tuple:
    return (tuple(club.ranking_measures or ()), club.min_games_to_rank)


# ---------------------------------------------------------------------------------------
# Standings


def _standings_page(request, club, *, kind: str):
    filterset = StandingsFilter.for_request(request.GET)
    logged_in = request.user.is_authenticated
    context = {"filter": filterset, "tab": kind, "explanation": ratings.EXPLANATION}
    template = "results/standings.html"
    if not filterset.is_valid():
        context["period"] = None
        return render(request, template, context, status=400)
    period = filterset.period
    build = standings.standings if kind == "players" else standings.partnership_standings
    table_class = t.StandingsTable if kind == "players" else t.PartnershipTable

    def result():
        return build(
            period,
            include_guests=filterset.include_guests,
            players=filterset.qs,
            club=club,
        )

    if _export(request):
        name = "standings" if kind == "players" else "partnerships"
        table = table_class(result().rows, link_players=False)
        return _csv(request, table, f"{name}-{period.slug}.csv")

    def body():
        ranked = result()
        table = _paginate(request, table_class(ranked.ranked, link_players=logged_in))
        unranked = table_class(
            ranked.unranked, link_players=logged_in, exclude=("rank",), prefix="u-"
        )
        _paginate(request, unranked)
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


# ---------------------------------------------------------------------------------------
# Day results


@results_page
def day_results_view(request, club):
    filterset = DayFilter.for_request(request.GET)
    context = {"filter": filterset}
    if not filterset.is_valid():
        return render(request, "results/day_results.html", context, status=400)
    if _export(request):
        return _csv(request, t.DayTable(filterset.qs), f"club-days-{filterset.period.slug}.csv")
    period = filterset.period

    def body():
        return {"table": _paginate(request, t.DayTable(filterset.qs))}

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
    link = request.user.is_authenticated

    def games():
        return t.DayGamesTable(standings.day_games(day), link_players=link)

    def top():
        return t.TopScoresTable(standings.top_scores(day, 6), link_players=link, prefix="top-")

    if _export(request):
        which = request.GET.get("table")
        table = top() if which == "top" else games()
        stem = "top-scores" if which == "top" else "games"
        return _csv(request, table, f"{stem}-{day.date.isoformat()}.csv")

    def body():
        return {"day": day, "games": _paginate(request, games()), "top": top()}

    html = cached_body(
        request, (day.pk, link), "results/_day_result_body.html", body, finished_only=False
    )
    return render(request, "results/day_result.html", {"day": day, "body": html})


# ---------------------------------------------------------------------------------------
# Records


# key: (title, table class, rows, prefix). The page and its CSV downloads build each
# table the same way, so a download follows the sort the page shows.
RECORDS = {
    "highest_hand": ("Highest hand", t.HighestHandTable, standings.highest_hands, ""),
    "highest_game": ("Highest game", t.HighestGameTable, standings.highest_games, ""),
    "most_canastas": ("Most canastas in a game", t.MostCanastasTable, standings.most_canastas, ""),
    "four_red_threes": (
        "Four red threes in a hand",
        t.FourRedThreesTable,
        standings.four_red_threes,
        "r3-",
    ),
    "streaks": ("Longest winning streak", t.StreakTable, standings.winning_streaks, ""),
    "season_games": (
        "Most games in a season",
        t.SeasonGamesTable,
        standings.most_games_in_a_season,
        "",
    ),
}


def _record_table(key: str, link: bool):
    _title, table_class, rows, prefix = RECORDS[key]
    return table_class(rows(), link_players=link, prefix=prefix)


@results_page
def records_view(request, club):
    link = request.user.is_authenticated
    if _export(request):
        which = request.GET.get("table", "highest_hand")
        if which not in RECORDS:
            raise Http404("No such record table.")
        table = _record_table(which, link=False)
        return _csv(request, table, f"records-{which.replace('_', '-')}.csv")

    def body():
        sections = []
        for key, (title, *_rest) in RECORDS.items():
            table = _record_table(key, link)
            if key == "four_red_threes":
                _paginate(request, table)
            sections.append({"key": key, "title": title, "table": table})
        return {"sections": sections}

    html = cached_body(request, (link,), "results/_records_body.html", body)
    return render(request, "results/records.html", {"body": html})


# ---------------------------------------------------------------------------------------
# A player's page


@login_required
def player_view(request, pk):
    person = get_object_or_404(
        Person.objects.only(
            "pk", "first_name", "last_name", "kind", "membership_number", "merged_into", "joined"
        ),
        pk=pk,
    )
    if person.merged_into_id:
        return redirect("scoring:player", pk=person.merged_into_id)

    # The page and its CSV downloads build these the same way (their prefix picks
    # their sort parameter).
    def partners_table():
        return t.PartnersTable(standings.partners(person), prefix="p-")

    def opponents_table():
        return t.OpponentsTable(standings.opponents(person), prefix="o-")

    if _export(request):
        which = request.GET.get("table")
        if which == "partners":
            table = partners_table()
        elif which == "opponents":
            table = opponents_table()
        else:
            table = t.PlayerGamesTable(standings.player_games(person))
        stem = which if which in ("partners", "opponents") else "games"
        return _csv(request, table, f"{stem}-{person.pk}.csv")
    viewer = person_for(request.user)
    is_me = viewer is not None and viewer.pk == person.pk

    def body():
        season = standings.current_season()
        totals = standings.individual(person_ids=[person.pk])
        season_totals = (
            standings.individual(season.start, season.end, person_ids=[person.pk]) if season else []
        )
        return {
            "person": person,
            "is_me": is_me,
            "totals": totals[0] if totals else None,
            "season": season,
            "season_totals": season_totals[0] if season_totals else None,
            "history": _paginate(request, t.PlayerGamesTable(standings.player_games(person))),
            "partners": _paginate(request, partners_table()),
            "opponents": _paginate(request, opponents_table()),
            "bests": standings.personal_bests(person),
            "score_chart": charts.line_chart(
                standings.score_series(person),
                title=f"Game scores of {person.full_name}",
                y_label="Game score",
                noun="game",
            ),
            "rating_chart": charts.line_chart(
                standings.rating_series(person),
                title=f"Rating of {person.full_name} after each game",
                y_label="Rating",
                noun="rated game",
            ),
            "explanation": ratings.EXPLANATION,
        }

    # The current season (its totals are on the page) depends on today's date.
    parts = (person.pk, is_me, timezone.localdate())
    html = cached_body(request, parts, "results/_player_body.html", body)
    context = {"person": person, "is_me": is_me, "body": html}
    return render(request, "results/player.html", context)


# ---------------------------------------------------------------------------------------
# Officers: seasons, standings settings, the league workbook


@officer_required
def seasons_view(request):
    table = _paginate(request, t.SeasonTable(Season.objects.all()))
    current = standings.current_season()
    return render(request, "results/seasons.html", {"table": table, "current": current})


@officer_required
@require_http_methods(["GET", "POST"])
def season_edit_view(request, pk=None):
    season = get_object_or_404(Season, pk=pk) if pk else None
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        saved = form.save()
        verb = "saved" if season else "added"
        messages.success(request, f"Season “{saved.name}” {verb}.")
        if form.overlaps:
            names = ", ".join(f"“{s.name}”" for s in form.overlaps)
            messages.warning(
                request,
                f"“{saved.name}” overlaps {names}: games on the shared days count in each "
                "season. That is fine for a league inside a year; otherwise change the dates.",
            )
        return redirect("scoring:seasons")
    return render(request, "results/season_form.html", {"form": form, "season": season})


@officer_required
@require_http_methods(["GET", "POST"])
def standings_settings_view(request):
    club = ClubSettings.load()
    form = StandingsSettingsForm(
        request.POST or None, initial=StandingsSettingsForm.initial_for(club)
    )
    if request.method == "POST" and form.is_valid():
        form.save(club)
        messages.success(
            request,
            f"Saved. The standings now rank by {standings.measures_label(club.ranking_measures)}"
            f" and need {club.min_games_to_rank} games to rank a player.",
        )
        return redirect("scoring:standings")
    return render(request, "results/standings_settings.html", {"form": form})


@officer_required
def league_workbook_view(request):
    """The league workbook (.xlsx) of the period chosen on the standings page."""
    filterset = StandingsFilter.for_request(request.GET)
    if not filterset.is_valid():
        messages.error(
            request,
            "The workbook could not be made: "
            + " ".join(str(e) for errors in filterset.errors.values() for e in errors),
        )
        return redirect(reverse("scoring:standings"))
    period = filterset.period
    # FileResponse closes the file once it is sent (and a TemporaryFile then vanishes).
    handle = tempfile.TemporaryFile(suffix=".xlsx")  # noqa: SIM115
    exports.write_league_workbook(handle, period)
    handle.seek(0)
    return FileResponse(
        handle,
        as_attachment=True,
        filename=f"league-{period.slug}.xlsx",
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
