"""The tables of the day pages: the club days of a period, the games of one day and
its top scores (read out at the end of the day)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from scoring.labels import rules_words
from scoring.results.tables.base import (
    TEMPLATE,
    DateColumn,
    LinkPlayers,
    NumberColumn,
    PeopleColumn,
    RankColumn,
    Table,
    day_url,
    people_links,
)


class DayTable(Table):
    date = DateColumn(verbose_name=_("Date"), linkify=lambda record: day_url(record.pk))
    title = tables.Column(verbose_name=_("Day"), default="")
    game_count = NumberColumn(verbose_name=_("Games"), default=0)
    player_count = NumberColumn(verbose_name=_("Players"), default=0)
    top_score = NumberColumn(verbose_name=_("Top score"), default="—")

    class Meta:
        template_name = TEMPLATE
        per_page = 25
        orderable = True
        empty_text = _("No club days in this period.")


class DayGamesTable(LinkPlayers, Table):
    round = NumberColumn(verbose_name=_("Round"))
    table = NumberColumn(verbose_name=_("Table"))
    number = NumberColumn(verbose_name=_("Game"))
    first_team = PeopleColumn(verbose_name=_("Winners"), people="first_people")
    first_score = NumberColumn(verbose_name=_("Score"), default="—")
    other_teams = tables.Column(verbose_name=_("Against"))
    other_score = NumberColumn(verbose_name=_("Score"), default="—")
    margin = NumberColumn(verbose_name=_("Margin"), default="—")
    hands = NumberColumn(verbose_name=_("Hands"))
    rules = tables.Column(verbose_name=_("Rules"), default="")
    status = tables.Column(verbose_name=_("Status"))

    class Meta:
        template_name = TEMPLATE
        per_page = 100
        orderable = True
        empty_text = _("No games were played on this day.")

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        if any(not row["finished"] for row in data):
            self.columns["first_team"].column.verbose_name = _("Winners or leading")
        # A day whose tables all play one game leaves its name out (the CSV keeps it);
        # a day of classic at one table and Hand and Foot at another says which is which.
        if len({row.get("rule_set") for row in data}) < 2:
            self.columns.hide("rules")

    def render_rules(self, value):
        return rules_words(value)

    def value_rules(self, value):
        return rules_words(value)

    def render_first_team(self, record):
        """The winners of a finished game; of a game still in play, the side ahead,
        marked "Leading" (they have not won yet), or "Level" when no side is ahead."""
        people = people_links(record["first_people"], self.link_players)
        if record["finished"]:
            return people
        badge = _("Leading") if record["leading"] else _("Level")
        return format_html('<span class="badge">{}</span> {}', badge, people)

    def value_first_team(self, record):
        names = record["first_team"]
        if record["finished"] or not names:
            return names
        badge = _("Leading") if record["leading"] else _("Level")
        return f"{badge}: {names}"

    def render_other_teams(self, record):
        """Every other side, " / " between sides (a table of three has two: "Bob Walsh
        / Tom Newman", never "Bob Walsh & Tom Newman", which reads as partners); their
        scores are in the same order in the next column."""
        return format_html_join(
            " / ",
            "{}",
            ((people_links(side, self.link_players),) for side in record["other_sides"]),
        )

    def value_other_teams(self, record):
        return record["other_teams"]

    def render_other_score(self, record):
        """Every other team's score ("450 / 300" at a table of three), in the reader's
        language (1.250 in Spanish and Portuguese)."""
        return " / ".join(number_format(n, force_grouping=True) for n in record["other_totals"])

    def value_other_score(self, record):
        return record["other_scores"]


class TopScoresTable(LinkPlayers, Table):
    rank = RankColumn(orderable=False, ties=False)
    players = PeopleColumn(verbose_name=_("Players"), orderable=False, people="people")
    score = NumberColumn(verbose_name=_("Score"), orderable=False)
    table = NumberColumn(verbose_name=_("Table"), orderable=False)
    game_number = NumberColumn(verbose_name=_("Game"), orderable=False)

    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = _("No finished games yet.")
