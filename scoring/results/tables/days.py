"""The tables of the day pages: the club days of a period, the games of one day and
its top scores (read out at the end of the day)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html, format_html_join

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
    date = DateColumn(verbose_name="Date", linkify=lambda record: day_url(record.pk))
    title = tables.Column(verbose_name="Day", default="")
    game_count = NumberColumn(verbose_name="Games", default=0)
    player_count = NumberColumn(verbose_name="Players", default=0)
    top_score = NumberColumn(verbose_name="Top score", default="—")

    class Meta:
        template_name = TEMPLATE
        per_page = 25
        orderable = True
        empty_text = "No club days in this period."


class DayGamesTable(LinkPlayers, Table):
    round = NumberColumn(verbose_name="Round")
    table = NumberColumn(verbose_name="Table")
    number = NumberColumn(verbose_name="Game")
    first_team = PeopleColumn(verbose_name="Winners", people="first_people")
    first_score = NumberColumn(verbose_name="Score", default="—")
    other_teams = tables.Column(verbose_name="Against")
    other_score = NumberColumn(verbose_name="Score", default="—")
    margin = NumberColumn(verbose_name="Margin", default="—")
    hands = NumberColumn(verbose_name="Hands")
    rules = tables.Column(verbose_name="Rules", default="")
    status = tables.Column(verbose_name="Status")

    class Meta:
        template_name = TEMPLATE
        per_page = 100
        orderable = True
        empty_text = "No games were played on this day."

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        if any(not row["finished"] for row in data):
            self.columns["first_team"].column.verbose_name = "Winners or leading"
        # A day whose tables all play one game leaves its name out (the CSV keeps it);
        # a day of classic at one table and Hand and Foot at another says which is which.
        if len({row.get("rules") for row in data}) < 2:
            self.columns.hide("rules")

    def render_first_team(self, record):
        """The winners of a finished game; of a game still in play, the side ahead,
        marked "Leading" (they have not won yet), or "Level" when no side is ahead."""
        people = people_links(record["first_people"], self.link_players)
        if record["finished"]:
            return people
        badge = "Leading" if record["leading"] else "Level"
        return format_html('<span class="badge">{}</span> {}', badge, people)

    def value_first_team(self, record):
        names = record["first_team"]
        if record["finished"] or not names:
            return names
        return f"{'Leading' if record['leading'] else 'Level'}: {names}"

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
        """Every other team's score ("450 / 300" at a table of three), as written."""
        return record["other_scores"]

    def value_other_score(self, record):
        return record["other_scores"]


class TopScoresTable(LinkPlayers, Table):
    rank = RankColumn(orderable=False, ties=False)
    players = PeopleColumn(verbose_name="Players", orderable=False, people="people")
    score = NumberColumn(verbose_name="Score", orderable=False)
    table = NumberColumn(verbose_name="Table", orderable=False)
    game_number = NumberColumn(verbose_name="Game", orderable=False)

    class Meta:
        template_name = TEMPLATE
        orderable = False
        empty_text = "No finished games yet."
