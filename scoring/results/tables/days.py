"""The tables of the day pages: the club days of a period, the games of one day and
its top scores (read out at the end of the day)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html

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
    other_teams = PeopleColumn(verbose_name="Against", people="other_people")
    other_score = NumberColumn(verbose_name="Score", default="—")
    margin = NumberColumn(verbose_name="Margin", default="—")
    hands = NumberColumn(verbose_name="Hands")
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

    def render_first_team(self, record):
        """The winners of a finished game; of a game still in play, the team ahead,
        marked "Leading" (they have not won yet)."""
        people = people_links(record["first_people"], self.link_players)
        if record["finished"]:
            return people
        return format_html('<span class="badge">Leading</span> {}', people)

    def value_first_team(self, record):
        names = record["first_team"]
        return names if record["finished"] or not names else f"Leading: {names}"

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
