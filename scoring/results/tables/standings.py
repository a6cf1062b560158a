"""The standings tables: players and partnerships, ranked, with every statistic.

They take a list of dict rows (one per person or pair, already aggregated in SQL), so
sorting by any column — computed ones included — is a sort of that short list in Python.
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.results.tables.base import (
    NAME_CELL,
    PER_PAGE,
    TEMPLATE,
    LinkPlayers,
    NumberColumn,
    PersonColumn,
    RankColumn,
    RatingColumn,
    SignedColumn,
    Table,
    person_html,
    person_text,
)

# The columns shown first (with the club's ranking measures before the rating): what
# fits on a phone. The rest are one tap away ("All columns"), and always in the CSV.
MAIN_COLUMNS = ("rank", "name", "games", "wins", "win_pct")


def main_columns(measures) -> tuple[str, ...]:
    """The main columns of a standings table ranked by ``measures``."""
    extra = tuple(m for m in measures if m not in MAIN_COLUMNS and m != "rating")
    return (*MAIN_COLUMNS, *extra, "rating")


def hidden_columns(table_class, measures) -> tuple[str, ...]:
    """The columns of ``table_class`` left out of its main set."""
    shown = main_columns(measures)
    return tuple(name for name in table_class.base_columns if name not in shown)


class _StatsColumns(LinkPlayers, Table):
    games = NumberColumn(verbose_name=_("Games"))
    wins = NumberColumn(verbose_name=_("Won"))
    losses = NumberColumn(verbose_name=_("Lost"))
    win_pct = NumberColumn(verbose_name=_("Win %"), decimals=1)
    points_for = NumberColumn(verbose_name=_("Points for"))
    points_against = NumberColumn(verbose_name=_("Points against"))
    differential = SignedColumn(verbose_name=_("Difference"))
    average = NumberColumn(verbose_name=_("Average"), decimals=1)
    hands = NumberColumn(verbose_name=_("Hands"))
    natural_canastas = NumberColumn(verbose_name=_("Natural canastas"))
    mixed_canastas = NumberColumn(verbose_name=_("Mixed canastas"))
    red_threes = NumberColumn(verbose_name=_("Red threes"))
    times_out = NumberColumn(verbose_name=_("Times out"))
    concealed_outs = NumberColumn(verbose_name=_("Concealed outs"))
    perfect_cuts = NumberColumn(verbose_name=_("Perfect cuts"))
    rating = RatingColumn(verbose_name=_("Rating"))

    class Meta:
        template_name = TEMPLATE
        per_page = PER_PAGE
        orderable = True
        empty_text = _("No finished games in this period yet.")


class StandingsTable(_StatsColumns):
    rank = RankColumn()
    name = PersonColumn(
        verbose_name=_("Player"), order_by=("sort_name",), whole_row=True, attrs=NAME_CELL
    )

    class Meta(_StatsColumns.Meta):
        sequence = ("rank", "name", "...")
        attrs = {"class": "table standings"}

    def row_id(self, record) -> str:
        """The anchor of a player's row ("Find my row" links to it)."""
        return f"p-{record['person_id']}"

    def has_person(self, record, person_id: int) -> bool:
        return record["person_id"] == person_id


class PartnershipTable(_StatsColumns):
    rank = RankColumn()
    name = tables.Column(verbose_name=_("Partners"), order_by=("sort_name",), attrs=NAME_CELL)

    class Meta(_StatsColumns.Meta):
        sequence = ("rank", "name", "...")
        attrs = {"class": "table standings"}

    def row_id(self, record) -> str:
        """The anchor of a pair's row ("Find my first pair" links to it)."""
        return "pair-{}-{}".format(*record["pair"])

    def has_person(self, record, person_id: int) -> bool:
        return person_id in record["pair"]

    def render_name(self, record):
        return format_html(
            "{} &amp; {}",
            person_html(record["a"], self.link_players),
            person_html(record["b"], self.link_players),
        )

    def value_name(self, record):
        return f"{person_text(record['a'])} & {person_text(record['b'])}"
