"""The tables of a player's page: their games, their partners and their opponents.
Only logged-in people see this page, so its names are always linked."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from scoring.results.tables.base import (
    NAME_CELL,
    TEMPLATE,
    DateColumn,
    LinkPlayers,
    NumberColumn,
    PersonColumn,
    RatingColumn,
    SignedColumn,
    Table,
    day_url,
    people_links,
)

# Rows a page of each of the member's three tables shows (each pages on its own; the
# CSV downloads have every row). A phone shows each row as a card, so ten is a
# screenful or two; and drawing rows is most of what a member's page costs when it is
# drawn anew (django-tables2, about 0.1 ms a cell): the club-night benchmark found
# that first draw the slowest request of a busy night (with 25, 20 and 20 rows; ten
# each draw it in about 40% less time).
ROWS = 10


class PlayerGamesTable(LinkPlayers, Table):
    date = DateColumn(
        accessor="game__day_date",
        verbose_name=_("Date"),
        linkify=lambda record: day_url(record.game.day_id),
        order_by=("game__day_date", "game__finished_at", "game_id"),
    )
    table = NumberColumn(accessor="game__table__number", verbose_name=_("Table"), orderable=False)
    game = NumberColumn(accessor="game__number", verbose_name=_("Game"), orderable=False)
    partners = tables.Column(empty_values=(), verbose_name=_("Partner"), orderable=False)
    opponents = tables.Column(empty_values=(), verbose_name=_("Opponents"), orderable=False)
    result = tables.Column(
        empty_values=(), verbose_name=_("Result"), order_by=("team__won", "game__day_date")
    )
    score = NumberColumn(accessor="team__total", verbose_name=_("Score"))
    against = NumberColumn(accessor="team__points_against", verbose_name=_("Against"))
    hands = NumberColumn(accessor="team__hands", verbose_name=_("Hands"))
    rating_after = RatingColumn(verbose_name=_("Rating after"))

    class Meta:
        template_name = TEMPLATE
        per_page = ROWS
        orderable = True
        empty_text = _("No games yet.")

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

    def _opposing_sides(self, record) -> list[list]:
        """The other sides' players, side by side (two sides at a table of three)."""
        sides: dict[int, list] = {}
        for p in record.game.players.all():
            if p.team_id != record.team_id:
                sides.setdefault(p.team_id, []).append(p.person)
        return list(sides.values())

    def render_opponents(self, record):
        """Partners joined by "&", sides by " / " (at a table of three the two others
        are not partners)."""
        return format_html_join(
            " / ",
            "{}",
            ((people_links(side, self.link_players),) for side in self._opposing_sides(record)),
        )

    def value_opponents(self, record):
        return " / ".join(
            " & ".join(p.display_name for p in side) for side in self._opposing_sides(record)
        )

    def render_result(self, record):
        if not record.game.is_finished:
            return str(_("Playing"))
        if record.team.won:
            return pgettext("a game's result", "Won")
        return pgettext("a game's result", "Lost")

    def value_result(self, record):
        return self.render_result(record)


class PartnersTable(LinkPlayers, Table):
    partner = PersonColumn(
        verbose_name=_("Partner"), order_by=("partner__sort_name",), attrs=NAME_CELL
    )
    games = NumberColumn(verbose_name=_("Games"))
    wins = NumberColumn(verbose_name=_("Won"))
    losses = NumberColumn(verbose_name=_("Lost"))
    win_pct = NumberColumn(verbose_name=_("Win %"), decimals=1)
    average = NumberColumn(verbose_name=_("Average"), decimals=1)
    differential = SignedColumn(verbose_name=_("Difference"))

    class Meta:
        template_name = TEMPLATE
        per_page = ROWS
        orderable = True
        empty_text = _("No partners yet.")


class OpponentsTable(LinkPlayers, Table):
    name = PersonColumn(
        verbose_name=_("Opponent"), order_by=("sort_name",), whole_row=True, attrs=NAME_CELL
    )
    games = NumberColumn(verbose_name=_("Games"))
    wins = NumberColumn(verbose_name=_("Won"))
    losses = NumberColumn(verbose_name=_("Lost"))
    win_pct = NumberColumn(verbose_name=_("Win %"), decimals=1)
    differential = SignedColumn(verbose_name=_("Difference"))

    class Meta:
        template_name = TEMPLATE
        per_page = ROWS
        orderable = True
        empty_text = _("No opponents yet.")
