"""The club records tables: highest hand and game, most canastas, four red threes,
winning streaks and most games in a season."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from scoring.results.tables.base import (
    TEMPLATE,
    DateColumn,
    GameDayColumn,
    LinkPlayers,
    NumberColumn,
    PersonColumn,
    RankColumn,
    Table,
    TeamColumn,
)


class _RecordTable(LinkPlayers, Table):
    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = _("No record yet.")


class HighestHandTable(_RecordTable):
    """Rows are team hands."""

    hand_score = NumberColumn(verbose_name=_("Hand score"))
    players = TeamColumn(accessor="team", verbose_name=_("Players"))
    date = GameDayColumn(accessor="game", verbose_name=_("Date"))
    where = tables.Column(accessor="game", verbose_name=_("Table, game, hand"), empty_values=())

    class Meta(_RecordTable.Meta):
        pass

    def render_where(self, record):
        game = record.game
        return _("Table %(table)s, game %(game)s, hand %(hand)s") % {
            "table": game.table.number,
            "game": game.number,
            "hand": record.hand.number,
        }

    value_where = render_where


class HighestGameTable(_RecordTable):
    """Rows are game teams (the players' cell reads the row; "pk" only makes it non-empty)."""

    total = NumberColumn(verbose_name=_("Game score"))
    players = TeamColumn(accessor="pk", verbose_name=_("Players"), whole_row=True)
    date = GameDayColumn(accessor="game", verbose_name=_("Date"))
    where = tables.Column(accessor="game", verbose_name=_("Table, game"))

    class Meta(_RecordTable.Meta):
        pass

    def render_where(self, value):
        return _("Table %(table)s, game %(game)s") % {
            "table": value.table.number,
            "game": value.number,
        }

    value_where = render_where


class MostCanastasTable(HighestGameTable):
    canastas = NumberColumn(verbose_name=_("Canastas"))
    natural_canastas = NumberColumn(verbose_name=_("Natural"))
    mixed_canastas = NumberColumn(verbose_name=_("Mixed"))

    class Meta(_RecordTable.Meta):
        sequence = ("canastas", "natural_canastas", "mixed_canastas", "players", "date", "where")
        exclude = ("total",)


class FourRedThreesTable(HighestHandTable):
    red_threes = NumberColumn(verbose_name=_("Red threes"))

    class Meta(_RecordTable.Meta):
        sequence = ("date", "players", "red_threes", "hand_score", "where")
        per_page = 20
        empty_text = _("Nobody has held four red threes yet.")


class StreakTable(LinkPlayers, Table):
    rank = RankColumn(ties=False)
    person = PersonColumn(verbose_name=_("Player"))
    length = NumberColumn(verbose_name=_("Wins in a row"))
    start = DateColumn(verbose_name=_("From"))
    end = DateColumn(verbose_name=_("To"))

    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = _("No wins yet.")


class SeasonGamesTable(StreakTable):
    games = NumberColumn(verbose_name=_("Games"))
    season = tables.Column(verbose_name=_("Season"))

    class Meta(StreakTable.Meta):
        exclude = ("length", "start", "end")
        sequence = ("rank", "person", "games", "season")
        empty_text = _("No seasons with finished games yet.")
