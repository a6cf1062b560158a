"""An event's ranking from its games, as the ranking page, the prize list and
``manage.py event_ranking`` show it: :mod:`scoring.events.ranking` over the event's
games read in three queries.

A game counts once finished, or once its round has ended (a game left level when the
round ended counts as a draw at its totals). Pairs events rank partnerships; an
individual event ranks people (each side's two players are ranked one by one).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from members.models import Person
from scoring.events import ranking
from scoring.models import Game, GameTeam, TeamPlayer
from scoring.tourney.models import Event

MEASURES = {
    "wins": ["wins", "points_for"],
    "vp": ["vp"],
    "pct": ["pct"],
}


def measures_of(event: Event) -> list[str]:
    """The event's measures: its ranking, then its tie break (when not already in)."""
    names = list(MEASURES[event.ranking])
    if event.tie_break not in names:
        names.append(event.tie_break)
    return names


def vp_table_of(event: Event) -> ranking.VictoryPointTable:
    return ranking.VictoryPointTable(tuple(tuple(row) for row in event.vp_table))


def event_games(event: Event) -> list[Game]:
    """The event's games that count, with their teams and players."""
    players = TeamPlayer.objects.select_related("person").order_by("seat")
    teams = GameTeam.objects.order_by("index").prefetch_related(
        Prefetch("memberships", queryset=players)
    )
    games = (
        Game.objects.filter(table__round__event_round__event=event)
        .select_related("table__round__event_round")
        .prefetch_related(Prefetch("teams", queryset=teams))
        .order_by("table__round__number", "table__number")
    )
    return [g for g in games if g.is_finished or g.table.round.event_round.ended_at is not None]


@dataclass
class Row:
    rank: int
    tied: bool
    label: str
    people: str
    tally: ranking.Tally
    bracket: str = ""

    @property
    def pct(self) -> str:
        return f"{float(self.tally.pct) * 100:.2f}"


def entrant_label(event: Event, entrant: dict) -> str:
    if event.is_individual:
        return _("Player %(number)s") % {"number": entrant["number"]}
    if entrant["line"] == "ns":
        return _("North–South %(number)s") % {"number": entrant["number"]}
    if entrant["line"] == "ew":
        return _("East–West %(number)s") % {"number": entrant["number"]}
    return _("Pair %(number)s") % {"number": entrant["number"]}


def entrant_key(entrant: dict):
    return f"{entrant['line']}{entrant['number']}" if entrant["line"] else entrant["number"]


def event_ranking(event: Event) -> list[Row]:
    """The ranking rows, best first, tie-aware (1, 1, 3)."""
    entrants = {entrant_key(e): e for e in event.entrants}
    by_people = {frozenset(e["people"]): entrant_key(e) for e in event.entrants}
    games = []
    for game in event_games(event):
        teams = list(game.teams.all())
        if len(teams) != 2:
            continue
        sides = []
        for team in teams:
            ids = [m.person_id for m in team.memberships.all()]
            if event.is_individual:
                sides.append(tuple(by_people.get(frozenset([i]), f"p{i}") for i in ids))
            else:
                sides.append((by_people.get(frozenset(ids), f"t{team.pk}"),))
        games.append(ranking.Game(sides[0], sides[1], teams[0].total, teams[1].total))
    vp_table = vp_table_of(event) if event.ranking in ("vp", "pct") else None
    if event.ranking == "wins" and event.tie_break in ("vp", "pct"):
        vp_table = vp_table_of(event)
    places = ranking.rank_games(games, measures_of(event), vp_table)
    ids = [p for e in event.entrants for p in e["people"]]
    full = {p.pk: p.full_name for p in Person.objects.filter(pk__in=ids)}
    rows = []
    for place in places:
        entrant = entrants.get(place.tally.entrant)
        if entrant is None:
            continue  # a game at an event table by people not in the event
        people = " & ".join(full.get(p, "?") for p in entrant["people"])
        rows.append(Row(place.rank, place.tied, entrant_label(event, entrant), people, place.tally))
    return rows


def prizes(rows: list[Row]) -> list[Row]:
    """Places 1–3 (more when tied for third)."""
    return [row for row in rows if row.rank <= 3]
