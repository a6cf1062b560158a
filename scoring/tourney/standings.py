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
    """The event's games that count (one per table and round), with their teams and
    players."""
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
    # The round's game at each table is its first: a game started after it at the same
    # table (the phone's "Next game") is an ordinary game, not the event's.
    first: dict[int, Game] = {}
    for game in games:
        if game.table_id not in first or game.number < first[game.table_id].number:
            first[game.table_id] = game
    return [
        g for g in first.values() if g.is_finished or g.table.round.event_round.ended_at is not None
    ]


@dataclass
class Row:
    rank: int
    tied: bool
    label: str
    people: str
    tally: ranking.Tally
    bracket: str = ""
    section: str = ""  # "ns" / "ew": a Mitchell's line, ranked on its own
    prize_place: int = 0

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


def _plain_games(event: Event, games) -> list[tuple[int, ranking.Game]]:
    """(round number, game) for the ranking module: each side as entrant keys."""
    by_people = {frozenset(e["people"]): entrant_key(e) for e in event.entrants}
    out = []
    for game in games:
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
        number = game.table.round.event_round.number
        out.append((number, ranking.Game(sides[0], sides[1], teams[0].total, teams[1].total)))
    return out


def _places(event: Event, numbered: list[tuple[int, ranking.Game]]) -> list[ranking.Place]:
    """The ranking; a Mitchell's lines each on its own when the club ranks them so;
    with brackets, once the bracket rounds are under way, the upper bracket (the best
    places of the ranking before them) ranks above the lower one."""
    measures = measures_of(event)
    vp_table = vp_table_of(event) if {"vp", "pct"} & set(measures) else None
    games = [g for _n, g in numbered]
    if event.ranks_lines:
        lines = {entrant_key(e): e["line"] for e in event.entrants if e["line"]}
        return ranking.rank_in_sections(games, measures, lines, vp_table)
    cut = event.rounds - event.bracket_rounds
    if event.upper_bracket and event.bracket_rounds and any(n > cut for n, _g in numbered):
        before = ranking.rank_games([g for n, g in numbered if n <= cut], measures, vp_table)
        size = min(event.upper_bracket, len(before) - 1)
        if size >= 1:
            upper = ranking.upper_bracket(before, size)
            return ranking.rank_in_brackets(games, measures, upper, vp_table)
    return ranking.rank_games(games, measures, vp_table)


def event_ranking(event: Event) -> list[Row]:
    """The ranking rows, best first, tie-aware (1, 1, 3)."""
    entrants = {entrant_key(e): e for e in event.entrants}
    places = _places(event, _plain_games(event, event_games(event)))
    ids = [p for e in event.entrants for p in e["people"]]
    full = {p.pk: p.full_name for p in Person.objects.filter(pk__in=ids)}
    rows = []
    for place in places:
        entrant = entrants.get(place.tally.entrant)
        if entrant is None:
            continue  # a game at an event table by people not in the event
        people = " & ".join(full.get(p, "?") for p in entrant["people"])
        label = entrant_label(event, entrant)
        rows.append(
            Row(place.rank, place.tied, label, people, place.tally, place.bracket, place.section)
        )
    return rows


def sections(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """The rows by section, in order: ``[("ns", rows), ("ew", rows)]`` for a Mitchell
    ranked by lines, ``[("", rows)]`` for one ranking."""
    out: dict[str, list[Row]] = {}
    for row in rows:
        out.setdefault(row.section, []).append(row)
    return list(out.items()) or [("", [])]


def prizes(rows: list[Row]) -> list[tuple[str, list[Row]]]:
    """Places 1–3 of each section or bracket (more when tied for third), as (its name:
    "ns", "ew", "upper", "lower" or "", rows) with each row's ``prize_place`` counted
    within it; one group for one ranking without brackets."""
    groups: list[tuple[str, list[Row]]] = []
    for group in dict.fromkeys(row.section or row.bracket for row in rows):
        members = [row for row in rows if (row.section or row.bracket) == group]
        start = members[0].rank - 1 if members else 0
        won = []
        for row in members:
            row.prize_place = row.rank - start
            if row.prize_place <= 3:
                won.append(row)
        groups.append((group, won))
    return groups
