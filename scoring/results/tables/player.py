"""The tables of a player's page: their games, their partners and their opponents.
Only logged-in people see this page, so its names are always linked.

Each table draws its page of rows with its own cell functions (:class:`_FastRows`):
the same cells as :class:`~scoring.results.tables.rows.Table` draws (a test compares
them), but the links made from one ``reverse`` per table and the numbers formatted
directly, so a page of rows costs a few hundred microseconds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from html import escape as _escape  # django's escape, without its lazy-text wrapper

import django_tables2 as tables
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django_tables2.rows import BoundRows

from scoring.results.ratings import display_rating
from scoring.results.standings.player import games_page, with_rating_after
from scoring.results.tables.base import (
    NAME_CELL,
    TEMPLATE,
    DateColumn,
    LinkPlayers,
    NumberColumn,
    PersonColumn,
    RatingColumn,
    SignedColumn,
    day_label,
    day_url,
    people_links,
)
from scoring.results.tables.rows import Table

_MARK = 987654321  # an id no row has: the place of the id in a reversed URL


def url_maker(name: str) -> Callable[[int], str]:
    """``pk -> reverse(name, args=[pk])`` with one ``reverse`` per URLconf and script
    prefix while the process runs (they do not change)."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    head, tail = _url_parts(name, urlconf, get_script_prefix())
    return lambda pk: f"{head}{pk}{tail}"


@functools.cache
def _url_parts(name: str, urlconf, prefix: str) -> tuple[str, str]:
    head, tail = reverse(name, args=[_MARK], urlconf=urlconf).split(str(_MARK))
    return head, tail


class _FastRows:
    """Draws the page's rows with ``cell_<column>(record, links)`` methods returning
    escaped HTML (every column of these tables has one); ``<td>`` attributes as
    :class:`~scoring.results.tables.rows.Table` writes them."""

    def body_rows(self) -> list[SafeString]:
        if not self.link_players:  # never on this page; drawn the general way
            return super().body_rows()
        player = url_maker("scoring:player")
        cells = [(_td(self, col), getattr(self, f"cell_{col.name}")) for col in self.columns]
        out = []
        for record in self.page_records():
            row = "".join([f"{td}{draw(record, player)}</td>" for td, draw in cells])
            out.append(mark_safe(f"<tr>{row}</tr>"))
        return out


_TDS: dict[tuple[type, str], str] = {}


def _td(table, bound_column) -> str:
    """The opening ``<td>`` of a column's cells (a phone shows ``data-label`` beside
    the value), as rows.Table writes it: the same for every table of a class, so
    worked out once."""
    key = (type(table), bound_column.name)
    if key not in _TDS:
        td = bound_column.attrs["td"]
        td["data-label"] = str(bound_column.header)
        _TDS[key] = f"<td {td.as_html()}>"
    return _TDS[key]


def _link(url: Callable[[int], str], pid: int, name: str, is_guest: bool) -> str:
    """:func:`~scoring.results.tables.base.person_link` of a linked name."""
    badge = ' <span class="badge">guest</span>' if is_guest else ""
    return f'<a href="{url(pid)}">{_escape(name)}{badge}</a>'


def _row_person(record: dict, url) -> str:
    return _link(url, record["person_id"], record["name"], record["is_guest"])


def _signed(value) -> str:
    if value > 0:
        return f"+{value:,}"
    if value < 0:
        return f"−{-value:,}"
    return "0"


def _count(key: str):
    return lambda self, record, url: f"{record[key]:,}"


def _decimal(key: str):
    return lambda self, record, url: f"{record[key]:,.1f}"


@functools.lru_cache(maxsize=4096)
def _day_label(day, language: str | None) -> str:
    """:func:`day_label`, escaped, in ``language`` (the active one): made once per day."""
    return escape(day_label(day))


class PlayerGamesTable(_FastRows, LinkPlayers, Table):
    date = DateColumn(
        accessor="game__day_date",
        verbose_name="Date",
        linkify=lambda record: day_url(record.game.day_id),
        order_by=("game__day_date", "game__finished_at", "game_id"),
    )
    table = NumberColumn(accessor="game__table__number", verbose_name="Table", orderable=False)
    game = NumberColumn(accessor="game__number", verbose_name="Game", orderable=False)
    partners = tables.Column(empty_values=(), verbose_name="Partner", orderable=False)
    opponents = tables.Column(empty_values=(), verbose_name="Opponents", orderable=False)
    result = tables.Column(
        empty_values=(), verbose_name="Result", order_by=("team__won", "game__day_date")
    )
    score = NumberColumn(accessor="team__total", verbose_name="Score")
    against = NumberColumn(accessor="team__points_against", verbose_name="Against")
    hands = NumberColumn(accessor="team__hands", verbose_name="Hands")
    rating_after = RatingColumn(verbose_name="Rating after")

    class Meta:
        template_name = TEMPLATE
        per_page = 25
        orderable = True
        empty_text = "No games yet."

    def _others(self, record, same_team: bool):
        """The other players of the game: partners (same team) or opponents."""
        return [
            p.person
            for p in record.game.players.all()
            if (p.team_id == record.team_id) == same_team and p.person_id != record.person_id
        ]

    def render_partners(self, record):
        return people_links(self._others(record, True), self.link_players) or "—"

    def value_partners(self, record):
        return " & ".join(p.display_name for p in self._others(record, True))

    def render_opponents(self, record):
        return people_links(self._others(record, False), self.link_players)

    def value_opponents(self, record):
        return " & ".join(p.display_name for p in self._others(record, False))

    def render_result(self, record):
        if not record.game.is_finished:
            return "Playing"
        return "Won" if record.team.won else "Lost"

    def value_result(self, record):
        return self.render_result(record)

    def order_rating_after(self, queryset, is_descending):
        """The page's rows read the rating with the seats (:func:`games_page`): the
        queryset is given it only to sort by it."""
        if "rating_after" not in queryset.query.annotations:
            queryset = with_rating_after(queryset)
        return queryset.order_by(("-" if is_descending else "") + "rating_after"), True

    def __init__(self, *args, games: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if games is not None:  # the number of rows, known (stored): not counted again
            self.data._length = games

    @property
    def page(self):
        return self.__dict__.get("_page")

    @page.setter
    def page(self, page):
        """A page's rows are read as light records (:func:`games_page`), once, however
        it was chosen (by ``paginate``, or by RequestConfig after a page out of range);
        the page holds them, so drawing it (or asking whether it has rows) reads
        nothing more."""
        if page is not None:
            page.object_list = BoundRows(games_page(page.object_list.data), self)
        self.__dict__["_page"] = page

    # The fast cells (see _FastRows).
    def body_rows(self) -> list[SafeString]:
        self._day = url_maker("scoring:day_result")
        return super().body_rows()

    def cell_date(self, record, url):
        game = record.game
        label = _day_label(game.day_date, get_language())
        return f'<a href="{self._day(game.day_id)}">{label}</a>'

    def cell_table(self, record, url):
        return f"{record.game.table.number:,}"

    def cell_game(self, record, url):
        return f"{record.game.number:,}"

    def _people(self, record, url, same_team: bool) -> str:
        return " &amp; ".join(
            _link(url, p.pk, p.full_name, p.is_guest) for p in self._others(record, same_team)
        )

    def cell_partners(self, record, url):
        return self._people(record, url, True) or "—"

    def cell_opponents(self, record, url):
        return self._people(record, url, False)

    def cell_result(self, record, url):
        return self.render_result(record)

    def cell_score(self, record, url):
        return f"{record.team.total:,}"

    def cell_against(self, record, url):
        return f"{record.team.points_against:,}"

    def cell_hands(self, record, url):
        return f"{record.team.hands:,}"

    def cell_rating_after(self, record, url):
        value = record.rating_after
        return "—" if value is None else f"{display_rating(value):,}"


class _RecordCells(_FastRows):
    """The fast cells partners and opponents share: games, won, lost, win % and the
    difference."""

    cell_games = _count("games")
    cell_wins = _count("wins")
    cell_losses = _count("losses")
    cell_win_pct = _decimal("win_pct")

    def cell_differential(self, record, url):
        return _signed(record["differential"])


class PartnersTable(_RecordCells, LinkPlayers, Table):
    partner = PersonColumn(
        verbose_name="Partner", order_by=("partner__sort_name",), attrs=NAME_CELL
    )
    games = NumberColumn(verbose_name="Games")
    wins = NumberColumn(verbose_name="Won")
    losses = NumberColumn(verbose_name="Lost")
    win_pct = NumberColumn(verbose_name="Win %", decimals=1)
    average = NumberColumn(verbose_name="Average", decimals=1)
    differential = SignedColumn(verbose_name="Difference")

    class Meta:
        template_name = TEMPLATE
        per_page = 20
        orderable = True
        empty_text = "No partners yet."

    def cell_partner(self, record, url):
        return _row_person(record["partner"], url)

    cell_average = _decimal("average")


class OpponentsTable(_RecordCells, LinkPlayers, Table):
    name = PersonColumn(
        verbose_name="Opponent", order_by=("sort_name",), whole_row=True, attrs=NAME_CELL
    )
    games = NumberColumn(verbose_name="Games")
    wins = NumberColumn(verbose_name="Won")
    losses = NumberColumn(verbose_name="Lost")
    win_pct = NumberColumn(verbose_name="Win %", decimals=1)
    differential = SignedColumn(verbose_name="Difference")

    class Meta:
        template_name = TEMPLATE
        per_page = 20
        orderable = True
        empty_text = "No opponents yet."

    def cell_name(self, record, url):
        return _row_person(record, url)
