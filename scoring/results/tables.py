"""django-tables2 tables of every results listing (sortable, paginated) and their CSV.

Numbers are right-aligned (class ``num``) and shown with thousands separators; the CSV
download of a table (:func:`csv_response`, from the table's own rows via
``Table.as_values()``; tablib is not needed) carries the plain numbers.

Standings-type tables take a list of dict rows (one per person or pair, already
aggregated in SQL), so sorting by any column — computed ones included — is a sort of
that short list in Python. History tables take querysets and sort in SQL.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join

from clubsite.csvcells import escape_cell

TEMPLATE = "results/table.html"
PER_PAGE = 50
NUM = {"th": {"class": "num"}, "td": {"class": "num"}, "tf": {"class": "num"}}


def player_url(pid) -> str:
    return reverse("scoring:player", args=[pid])


def day_url(pk) -> str:
    return reverse("scoring:day_result", args=[pk])


def _person_link(pid, name: str, is_guest: bool, link: bool):
    label = format_html('{} <span class="badge">guest</span>', name) if is_guest else name
    if not link:
        return format_html("{}", label)
    return format_html('<a href="{}">{}</a>', player_url(pid), label)


def people_links(people: Iterable, link: bool):
    """ "Ann Able & Cat Cole" with links to their pages (when the viewer may see them)."""
    return format_html_join(
        " & ",
        "{}",
        ((_person_link(p.pk, p.full_name, p.is_guest, link),) for p in people),
    )


def _day(value) -> str:
    return date_format(value, "D j M Y") if value else ""


# ---------------------------------------------------------------------------------------
# Columns


class NumberColumn(tables.Column):
    """A right-aligned number: "5,120" on the page, 5120 in the CSV."""

    def __init__(self, *args, decimals: int = 0, **kwargs):
        kwargs.setdefault("attrs", NUM)
        self.decimals = decimals
        super().__init__(*args, **kwargs)

    def render(self, value):
        return f"{value:,.{self.decimals}f}"

    def value(self, value):
        return value


class SignedColumn(NumberColumn):
    """A difference: "+310" / "−120"."""

    def render(self, value):
        if value > 0:
            return f"+{value:,}"
        if value < 0:
            return f"−{-value:,}"
        return "0"


class RankColumn(tables.Column):
    """ "1", "=2" for a shared position."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("verbose_name", "Rank")
        super().__init__(*args, **kwargs)

    def render(self, value, record):
        tied = record.get("tied") if isinstance(record, dict) else False
        return f"={value}" if tied else str(value)

    def value(self, value):
        return value


class DateColumn(tables.Column):
    def render(self, value):
        return _day(value)

    def value(self, value):
        return value.isoformat() if value else ""


# ---------------------------------------------------------------------------------------
# Standings


class _StatsColumns(tables.Table):
    games = NumberColumn(verbose_name="Games")
    wins = NumberColumn(verbose_name="Won")
    losses = NumberColumn(verbose_name="Lost")
    win_pct = NumberColumn(verbose_name="Win %", decimals=1)
    points_for = NumberColumn(verbose_name="Points for")
    points_against = NumberColumn(verbose_name="Points against")
    differential = SignedColumn(verbose_name="Difference")
    average = NumberColumn(verbose_name="Average", decimals=1)
    hands = NumberColumn(verbose_name="Hands")
    natural_canastas = NumberColumn(verbose_name="Natural canastas")
    mixed_canastas = NumberColumn(verbose_name="Mixed canastas")
    red_threes = NumberColumn(verbose_name="Red threes")
    times_out = NumberColumn(verbose_name="Times out")
    concealed_outs = NumberColumn(verbose_name="Concealed outs")
    perfect_cuts = NumberColumn(verbose_name="Perfect cuts")
    rating = NumberColumn(verbose_name="Rating", decimals=1, default="—")

    class Meta:
        template_name = TEMPLATE
        per_page = PER_PAGE
        orderable = True
        empty_text = "No finished games in this period yet."

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)


class StandingsTable(_StatsColumns):
    rank = RankColumn()
    name = tables.Column(verbose_name="Player", order_by=("sort_name",))

    class Meta(_StatsColumns.Meta):
        sequence = ("rank", "name", "...")
        attrs = {"class": "table standings"}

    def render_name(self, record):
        return _person_link(
            record["person_id"], record["name"], record["is_guest"], self.link_players
        )

    def value_name(self, record):
        return record["display_name"]


class PartnershipTable(_StatsColumns):
    rank = RankColumn()
    name = tables.Column(verbose_name="Partners", order_by=("sort_name",))

    class Meta(_StatsColumns.Meta):
        sequence = ("rank", "name", "...")
        attrs = {"class": "table standings"}

    def render_name(self, record):
        a, b = record["a"], record["b"]
        return format_html(
            "{} &amp; {}",
            _person_link(a["person_id"], a["name"], a["is_guest"], self.link_players),
            _person_link(b["person_id"], b["name"], b["is_guest"], self.link_players),
        )

    def value_name(self, record):
        return record["display_name"]


# ---------------------------------------------------------------------------------------
# Day results


class DayTable(tables.Table):
    date = tables.Column(verbose_name="Date", linkify=lambda record: day_url(record.pk))
    title = tables.Column(verbose_name="Day", default="")
    game_count = NumberColumn(verbose_name="Games", default=0)
    player_count = NumberColumn(verbose_name="Players", default=0)
    top_score = NumberColumn(verbose_name="Top score", default="—")

    class Meta:
        template_name = TEMPLATE
        per_page = 25
        orderable = True
        empty_text = "No club days in this period."

    def render_date(self, value):
        return _day(value)

    def value_date(self, value):
        return value.isoformat()


class DayGamesTable(tables.Table):
    round = NumberColumn(verbose_name="Round")
    table = NumberColumn(verbose_name="Table")
    number = NumberColumn(verbose_name="Game")
    first_team = tables.Column(verbose_name="Winners")
    first_score = NumberColumn(verbose_name="Score", default="—")
    other_teams = tables.Column(verbose_name="Against")
    other_score = NumberColumn(verbose_name="Score", default="—")
    margin = NumberColumn(verbose_name="Margin", default="—")
    hands = NumberColumn(verbose_name="Hands")
    status = tables.Column(verbose_name="Status")

    class Meta:
        template_name = TEMPLATE
        per_page = 100
        orderable = True
        empty_text = "No games were played on this day."

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)

    def render_first_team(self, record):
        return people_links(record["first_people"], self.link_players)

    def value_first_team(self, record):
        return record["first_team"]

    def render_other_teams(self, record):
        return people_links(record["other_people"], self.link_players)

    def value_other_teams(self, record):
        return record["other_teams"]

    def render_other_score(self, record):
        return record["other_scores"]

    def value_other_score(self, record):
        return record["other_scores"]


class TopScoresTable(tables.Table):
    rank = RankColumn(orderable=False)
    players = tables.Column(verbose_name="Players", orderable=False)
    score = NumberColumn(verbose_name="Score", orderable=False)
    table = NumberColumn(verbose_name="Table", orderable=False)
    game_number = NumberColumn(verbose_name="Game", orderable=False)

    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = "No finished games yet."

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)

    def render_rank(self, value):
        return str(value)

    def render_players(self, record):
        return people_links(record["people"], self.link_players)

    def value_players(self, record):
        return record["players"]


# ---------------------------------------------------------------------------------------
# A player's page


class PlayerGamesTable(tables.Table):
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
    rating_after = NumberColumn(verbose_name="Rating after", decimals=1, default="—")

    class Meta:
        template_name = TEMPLATE
        per_page = 25
        orderable = True
        empty_text = "No games yet."

    def _others(self, record, same_team: bool):
        return [
            p.person
            for p in record.game.players.all()
            if (p.team_id == record.team_id) == same_team and p.person_id != record.person_id
        ]

    def render_partners(self, record):
        return people_links(self._others(record, True), True) or "—"

    def value_partners(self, record):
        return " & ".join(p.display_name for p in self._others(record, True))

    def render_opponents(self, record):
        return people_links(self._others(record, False), True)

    def value_opponents(self, record):
        return " & ".join(p.display_name for p in self._others(record, False))

    def render_result(self, record):
        if not record.game.is_finished:
            return "Playing"
        return "Won" if record.team.won else "Lost"

    def value_result(self, record):
        return self.render_result(record)


class PartnersTable(tables.Table):
    partner = tables.Column(verbose_name="Partner", order_by=("partner__sort_name",))
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

    def render_partner(self, value):
        return _person_link(value["person_id"], value["name"], value["is_guest"], True)

    def value_partner(self, value):
        return value["display_name"]


class OpponentsTable(tables.Table):
    name = tables.Column(verbose_name="Opponent", order_by=("sort_name",))
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

    def render_name(self, record):
        return _person_link(record["person_id"], record["name"], record["is_guest"], True)

    def value_name(self, record):
        return record["display_name"]


# ---------------------------------------------------------------------------------------
# Club records


class _RecordTable(tables.Table):
    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = "No record yet."

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)

    def _players(self, team):
        return people_links([m.person for m in team.memberships.all()], self.link_players)

    def _players_text(self, team):
        return " & ".join(m.person.display_name for m in team.memberships.all())

    def _day_link(self, game):
        return format_html('<a href="{}">{}</a>', day_url(game.day_id), _day(game.day_date))


class HighestHandTable(_RecordTable):
    hand_score = NumberColumn(verbose_name="Hand score")
    players = tables.Column(accessor="team", verbose_name="Players")
    date = tables.Column(accessor="game", verbose_name="Date")
    where = tables.Column(accessor="game", verbose_name="Table, game, hand", empty_values=())

    class Meta(_RecordTable.Meta):
        pass

    def render_players(self, value):
        return self._players(value)

    def value_players(self, value):
        return self._players_text(value)

    def render_date(self, value):
        return self._day_link(value)

    def value_date(self, value):
        return value.day_date.isoformat()

    def render_where(self, record):
        game = record.game
        return f"Table {game.table.number}, game {game.number}, hand {record.hand.number}"

    value_where = render_where


class HighestGameTable(_RecordTable):
    total = NumberColumn(verbose_name="Game score")
    players = tables.Column(accessor="pk", verbose_name="Players")
    date = tables.Column(accessor="game", verbose_name="Date")
    where = tables.Column(accessor="game", verbose_name="Table, game")

    class Meta(_RecordTable.Meta):
        pass

    def render_players(self, record):
        return self._players(record)

    def value_players(self, record):
        return self._players_text(record)

    def render_date(self, value):
        return self._day_link(value)

    def value_date(self, value):
        return value.day_date.isoformat()

    def render_where(self, value):
        return f"Table {value.table.number}, game {value.number}"

    value_where = render_where


class MostCanastasTable(HighestGameTable):
    canastas = NumberColumn(verbose_name="Canastas")
    natural_canastas = NumberColumn(verbose_name="Natural")
    mixed_canastas = NumberColumn(verbose_name="Mixed")

    class Meta(_RecordTable.Meta):
        sequence = ("canastas", "natural_canastas", "mixed_canastas", "players", "date", "where")
        exclude = ("total",)


class FourRedThreesTable(HighestHandTable):
    red_threes = NumberColumn(verbose_name="Red threes")

    class Meta(_RecordTable.Meta):
        sequence = ("date", "players", "red_threes", "hand_score", "where")
        per_page = 20
        empty_text = "Nobody has held four red threes yet."


class StreakTable(tables.Table):
    rank = RankColumn()
    person = tables.Column(verbose_name="Player")
    length = NumberColumn(verbose_name="Wins in a row")
    start = DateColumn(verbose_name="From")
    end = DateColumn(verbose_name="To")

    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = "No wins yet."

    def __init__(self, *args, link_players: bool = True, **kwargs):
        self.link_players = link_players
        super().__init__(*args, **kwargs)

    def render_rank(self, value):
        return str(value)

    def render_person(self, value):
        return _person_link(value.pk, value.full_name, value.is_guest, self.link_players)

    def value_person(self, value):
        return value.display_name


class SeasonGamesTable(StreakTable):
    games = NumberColumn(verbose_name="Games")
    season = tables.Column(verbose_name="Season")

    class Meta(StreakTable.Meta):
        exclude = ("length", "start", "end")
        sequence = ("rank", "person", "games", "season")
        empty_text = "No seasons with finished games yet."


class SeasonTable(tables.Table):
    name = tables.Column(
        verbose_name="Season", linkify=("scoring:season_edit", {"pk": tables.A("pk")})
    )
    start = DateColumn(verbose_name="Starts")
    end = DateColumn(verbose_name="Ends")
    standings = tables.Column(accessor="pk", verbose_name="", orderable=False)

    class Meta:
        template_name = TEMPLATE
        per_page = 50
        orderable = True
        empty_text = "No seasons yet: add the first one."

    def render_standings(self, value):
        return format_html(
            '<a href="{}?season={}">Standings</a>', reverse("scoring:standings"), value
        )

    def value_standings(self, value):
        return ""


# ---------------------------------------------------------------------------------------
# CSV


def csv_response(table: tables.Table, filename: str) -> HttpResponse:
    """Every row of ``table`` (not only the page shown, in the order shown) as a CSV
    download, written with the csv module from the table's own values."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # so spreadsheet programs read UTF-8 names correctly
    writer = csv.writer(response)
    for row in table.as_values():
        writer.writerow([escape_cell(v) for v in row])
    return response
