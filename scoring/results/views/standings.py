"""The standings pages (players and partnerships) and the officers' standings settings."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from members.permissions import officer_required, person_for
from scoring.models import ClubSettings
from scoring.results import ratings
from scoring.results.cache import cached_parts
from scoring.results.filters import StandingsFilter
from scoring.results.forms import StandingsSettingsForm
from scoring.results.services import set_ranking
from scoring.results.standings.individual import partnership_standings, standings
from scoring.results.standings.measures import measures_label
from scoring.results.standings.periods import Period
from scoring.results.tables.base import PER_PAGE
from scoring.results.tables.standings import PartnershipTable, StandingsTable, hidden_columns
from scoring.results.views.common import csv_download, paginate, stated_results_page, wants_csv

UNRANKED_PREFIX = "u-"
# Rows a page of "Not ranked yet" shows: the players under the minimum number of games,
# whose list grows with the league (38 of a 600-person league's season, none of a
# 60-person one's) while the ranked table shows a page of PER_PAGE in either. Ten keep
# the page's cost flat when the league is ten times larger (the benchmark's page costs).
UNRANKED_ROWS = 10
TABLES = {"players": StandingsTable, "partnerships": PartnershipTable}
PAGE = "results/standings"  # the name of the cached parts
TOP = "results/_standings_top.html"
BODY = "results/_standings_body.html"


def _club_parts(club: ClubSettings) -> tuple:
    return (tuple(club.ranking_measures or ()), club.min_games_to_rank)


def _table(kind: str, rows, *, link: bool, measures, show_all: bool, unranked=False, **kw):
    """A standings table of ``rows``: the main columns, or every one with ``show_all``;
    the rows not yet ranked have no rank (and the ``u-`` prefix for their sort and page)."""
    table_class = TABLES[kind]
    exclude = () if show_all else hidden_columns(table_class, measures)
    if unranked:
        exclude += ("rank",)
        kw["prefix"] = UNRANKED_PREFIX
    table = table_class(rows, link_players=link, exclude=exclude, **kw)
    table.cards = not show_all  # every column: one wide table to swipe, not cards
    return table


def _show_all(request, kind: str, measures) -> bool:
    """Every column when asked for, or when the table is sorted by one of the others."""
    if request.GET.get("columns") == "all":
        return True
    hidden = hidden_columns(TABLES[kind], measures)
    sorts = (request.GET.get("sort", ""), request.GET.get(f"{UNRANKED_PREFIX}sort", ""))
    return any(key.lstrip("-") in hidden for key in sorts if key)


def _empty_text(result) -> str:
    if result.unranked:
        return ngettext(
            "Nobody is ranked yet: a player needs %(games)s game in this period. Everyone "
            "who has played is listed below, under “Not ranked yet”.",
            "Nobody is ranked yet: a player needs %(games)s games in this period. Everyone "
            "who has played is listed below, under “Not ranked yet”.",
            result.min_games,
        ) % {"games": result.min_games}
    return _("No finished games in this period yet.")


def _body_context(request, kind: str, result, link: bool) -> dict:
    """What the cached part of a standings page shows."""
    show_all = _show_all(request, kind, result.measures)
    cols = {"link": link, "measures": result.measures, "show_all": show_all}
    table = _table(kind, result.ranked, empty_text=_empty_text(result), **cols)
    unranked = _table(kind, result.unranked, unranked=True, **cols)
    columns = type(table).base_columns
    hidden = hidden_columns(type(table), result.measures)
    paginate(request, table)
    RequestConfig(request, paginate={"per_page": UNRANKED_ROWS}).configure(unranked)
    return {
        "tab": kind,
        "result": result,
        "table": table,
        "unranked": unranked,
        "show_all": show_all,
        "hidden": [] if show_all else [str(columns[name].verbose_name) for name in hidden],
        "measures_label": result.measures_label,
        "min_games": result.min_games,
    }


def _my_row_url(request, kind: str, result, person) -> str | None:
    """The address of the page and row of ``person`` in these standings (a player's
    row; the first of their pairs), sorted as shown; None when they have no row."""
    show_all = _show_all(request, kind, result.measures)
    cols = {"link": False, "measures": result.measures, "show_all": show_all}
    for rows, unranked in ((result.ranked, False), (result.unranked, True)):
        table = _table(kind, rows, unranked=unranked, **cols)
        RequestConfig(request, paginate=False).configure(table)
        per_page = UNRANKED_ROWS if unranked else PER_PAGE
        for index, row in enumerate(table.data):
            if table.has_person(row, person.pk):
                query = request.GET.copy()
                query.pop("find", None)
                query[f"{table.prefix}page"] = index // per_page + 1
                return f"{request.path}?{query.urlencode()}#{table.row_id(row)}"
    return None


def _find_me(request, kind: str, result):
    """Send a member to their own row (one tap from the standings)."""
    person = person_for(request.user)
    url = _my_row_url(request, kind, result, person) if person else None
    if url:
        return redirect(url)
    if kind == "players":
        text = _("You have no finished games in this period, so you have no row here.")
    else:
        text = _("You have no finished games in this period, so you have no pair here.")
    messages.info(request, text)
    query = request.GET.copy()
    query.pop("find", None)
    return redirect(f"{request.path}?{query.urlencode()}")


def _result(kind: str, period, filterset, club):
    """The standings of the chosen period (a season's read from its stored totals, so
    the filtered seats are not even built)."""
    build = standings if kind == "players" else partnership_standings
    players = filterset.qs if period.season is None else None
    return build(period, include_guests=filterset.include_guests, players=players, club=club)


def _standings_action(request, club, kind: str):
    """The CSV download and "Find my row": always from the data, never cached."""
    filterset = StandingsFilter.for_request(request.GET)
    if not filterset.is_valid():
        return _page(request, kind, _draw(request, club, kind)[0], None)
    period = filterset.period
    result = _result(kind, period, filterset, club)
    if wants_csv(request):
        name = "standings" if kind == "players" else "partnerships"
        table = TABLES[kind](result.rows, link_players=False)
        return csv_download(request, table, f"{name}-{period.slug}.csv")
    return _find_me(request, kind, result)


def _draw(request, club, kind: str) -> tuple[dict, bool]:
    """The drawn parts of a standings page: the top (heading, tabs, period and its form)
    and the body (the tables), with the period's dates for the "not final yet" note;
    and whether they may be cached (not when the form has errors)."""
    filterset = StandingsFilter.for_request(request.GET)
    if not filterset.is_valid():
        top = {"filter": filterset, "tab": kind, "period": None}
        return {"top": render_to_string(TOP, top, request=request), "period": None}, False
    period = filterset.period
    result = _result(kind, period, filterset, club)
    body = _body_context(request, kind, result, request.in_club)
    top = {"filter": filterset, "tab": kind, "period": period}
    return {
        "top": render_to_string(TOP, top, request=request),
        "body": render_to_string(BODY, body, request=request),
        "period": Period(start=period.start, end=period.end),
    }, True


def _officer_urls() -> dict[str, str]:
    """The officers' links under the standings."""
    names = ("league_workbook", "standings_settings", "seasons")
    return {name: reverse(f"scoring:{name}") for name in names}


def _page(request, kind: str, page: dict, state) -> HttpResponse:
    """The page around its drawn parts: what depends on the viewer (Find my row, the
    officers' links), and the note on hands not yet confirmed, which changes with every
    hand (looked for only when some hand anywhere waits)."""
    context = {
        "tab": kind,
        "page": page,
        "find_me": bool(state and state.has_person),
        "open_hands": state is None or state.open_hands,
        "rating_sentence": _(ratings.SENTENCE),
        "rating_how": _(ratings.HOW),
        "officer_urls": _officer_urls(),
    }
    status = 200 if page["period"] is not None else 400
    return render(request, "results/standings.html", context, status=status)


def _standings_page(request, state, *, kind: str):
    """A standings page: its drawn parts are cached under the address, the results
    stamp, the day (the current season is today's) and the ranking settings, so a
    cached page costs one query for the settings and stamp and one cache read."""
    club = state.club
    in_club = request.in_club
    if wants_csv(request) or (in_club and request.GET.get("find") == "me"):
        return _standings_action(request, club, kind)
    parts = (kind, in_club, timezone.localdate(), _club_parts(club))
    page = cached_parts(request, PAGE, state.stamp, parts, lambda: _draw(request, club, kind))
    return _page(request, kind, page, state)


@stated_results_page
def standings_view(request, state):
    return _standings_page(request, state, kind="players")


@stated_results_page
def partnerships_view(request, state):
    return _standings_page(request, state, kind="partnerships")


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
            _(
                "Saved. The standings now rank by %(measures)s and need %(games)s games to "
                "rank a player."
            )
            % {
                "measures": measures_label(club.ranking_measures),
                "games": club.min_games_to_rank,
            },
        )
        return redirect("scoring:standings")
    return render(request, "results/standings_settings.html", {"form": form})
