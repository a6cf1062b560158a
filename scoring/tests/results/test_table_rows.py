"""The rows a results table draws in one pass are, cell for cell, what django-tables2
draws itself (links, defaults, guest badges, signed numbers, dates, linkified dates)."""

import re

import pytest
from django.template import RequestContext, Template
from django.test import RequestFactory
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django_tables2 import RequestConfig

from members.models import ClubDay
from scoring.results.standings import player as games_of
from scoring.results.standings import records as found
from scoring.results.standings.days import day_games, top_scores
from scoring.results.standings.individual import partnership_standings, standings
from scoring.results.standings.periods import ALL_GAMES
from scoring.results.tables import records
from scoring.results.tables.days import DayGamesTable, DayTable, TopScoresTable
from scoring.results.tables.player import OpponentsTable, PartnersTable, PlayerGamesTable
from scoring.results.tables.rows import draw_table
from scoring.results.tables.standings import PartnershipTable, StandingsTable
from scoring.results.views.common import paginate

pytestmark = pytest.mark.django_db


def django_tables2_cells(table):
    """The cells as django-tables2's own template would draw them."""
    return [
        [conditional_escape(c if isinstance(c, str) else localize(c)) for _col, c in row.items()]
        for row in table.paginated_rows
    ]


def fast_cells(table):
    plans = table.plans()
    return [[plan.cell(record) for plan in plans] for record in table.page_records()]


def tables_of(club):
    A, day = club["A"], club["day1"]
    yield StandingsTable(standings(ALL_GAMES, min_games=1).rows)
    yield StandingsTable(standings(ALL_GAMES, min_games=1).rows, link_players=False)
    yield PartnershipTable(partnership_standings(ALL_GAMES, min_games=1).rows)
    yield DayTable(ClubDay.objects.all())
    yield DayGamesTable(day_games(day))
    yield TopScoresTable(top_scores(day, 6))
    yield PlayerGamesTable(games_of.player_games(A))
    yield PartnersTable(games_of.partners(A))
    yield OpponentsTable(games_of.opponents(A))
    yield records.HighestHandTable(found.highest_hands())
    yield records.HighestGameTable(found.highest_games())
    yield records.MostCanastasTable(found.most_canastas())
    yield records.FourRedThreesTable(found.four_red_threes())
    yield records.StreakTable(found.winning_streaks())


def test_fast_rows_draw_what_django_tables2_draws(small_club):
    request = RequestFactory().get("/")
    for table in tables_of(small_club):
        paginate(request, table)
        expected = django_tables2_cells(table)
        assert expected, type(table).__name__
        assert fast_cells(table) == expected, type(table).__name__


RENDER_TABLE = Template("{% load django_tables2 %}{% render_table table %}")


def squeeze(html: str) -> str:
    """The HTML without the layout whitespace between and inside tags."""
    html = re.sub(r"\s+", " ", str(html))
    html = re.sub(r"\s*(<|>)\s*", r"\1", html)
    return re.sub(r"\s+(/?>)", r"\1", html)


def render_table(table, request) -> str:
    return RENDER_TABLE.render(RequestContext(request, {"table": table}))


@pytest.mark.parametrize(
    "query",
    ["", "?sort=-games&page=2", "?page=3&guests=hide&x=%3Cb%3E", "?sort=name&page=1"],
)
def test_draw_table_draws_what_render_table_draws(small_club, query):
    """Headers (sort links, aria-sort, arrows), rows, empty text and pagination (two
    rows a page, so the small club has several) are what the template draws."""
    request = RequestFactory().get("/standings/" + query)
    for table in tables_of(small_club):
        RequestConfig(request, paginate={"per_page": 2}).configure(table)
        assert squeeze(draw_table(table, request)) == squeeze(render_table(table, request)), type(
            table
        ).__name__


def test_draw_table_empty_and_unranked_prefix(small_club):
    request = RequestFactory().get("/standings/?u-sort=-wins")
    empty = StandingsTable([], empty_text="Nobody <yet>")
    unranked = StandingsTable(standings(ALL_GAMES, min_games=1).rows, prefix="u-")
    for table in (empty, unranked):
        paginate(request, table)
        assert squeeze(draw_table(table, request)) == squeeze(render_table(table, request))
    assert "Nobody &lt;yet&gt;" in draw_table(empty, request)
