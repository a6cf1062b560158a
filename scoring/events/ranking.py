"""Rankings of an event, fair across tables; exact arithmetic (ints and Fractions).

An event's games are :class:`Game` rows: two sides, each a tuple of entrants (one
partnership in a pairs event; the two people of a partnership in an individual event,
so each person is ranked), and each side's points. :func:`tally` adds them up per
entrant; :func:`rank` orders the tallies by the measures the club chooses, tie-aware
(rows equal on every measure share a place and the next place is skipped: 1, 1, 3, the
rule of ``scoring/results/standings/ranking.py``, written again here because that
module reads the Django-translated measure names).

Measures (all higher is better except ``points_against``): ``wins``, ``vp`` (victory
points), ``pct`` (victory points as a share of the most a side could have had),
``points_for``, ``diff`` (points for less against), ``points_against``, ``games``.
Sections (:func:`rank_in_sections`): a Mitchell's North–South and East–West lines never
play within their own line, so each line is ranked on its own, as bridge clubs give a
Mitchell two sets of winners.
The usual orders: wins then points (``["wins", "points_for"]``, pinochle), victory
points (``["vp", "diff"]``, burraco), percentage (``["pct", "vp"]``).

Victory points come from the point difference of a game through a
:class:`VictoryPointTable`: rows of (largest difference, VP to the winner, VP to the
loser), the last row's largest difference ``None`` (any more). The preset
:data:`BURRACO_3_HANDS` is the 0–20 scale of Italian burraco for turns of three deals
(a difference of 0–50 gives 10–10, 55–150 gives 11–9 … over 1500 gives 20–0), as
published by puntiburraco.it ("Partite e Punti Vittoria nei Tornei di Burraco",
https://www.puntiburraco.it/partite_e_punti_vittoria_burraco_nei_tornei.html) and
eburraco.com ("Victory Points, i termini del Burraco"), after FIBur's Codice di Gara,
article 17; :data:`BURRACO_4_HANDS` is the same source's table for four deals. The
bounds are inclusive: burraco and canasta scores are multiples of 5, so "0–50, 55–150"
means a difference of 50 still gives 10–10 and 51 (which cannot happen) would give 11–9.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


class RankingError(ValueError):
    """A ranking that cannot be made; the message says what to change."""


@dataclass(frozen=True)
class VictoryPointTable:
    """Rows of (largest point difference, VP to the winner, VP to the loser), the
    differences increasing, the last one ``None`` (no limit)."""

    rows: tuple[tuple[int | None, int, int], ...]

    def __post_init__(self):
        check_vp_table(self.rows)

    @property
    def maximum(self) -> int:
        """The most victory points one side can get from one game."""
        return max(max(w, lo) for _bound, w, lo in self.rows)

    def points(self, difference: int) -> tuple[int, int]:
        """(VP to the side ahead, VP to the side behind) for a point difference."""
        difference = abs(difference)
        for bound, winner, loser in self.rows:
            if bound is None or difference <= bound:
                return winner, loser
        raise AssertionError("the last row has no bound")  # check_vp_table makes sure


def check_vp_table(rows: Sequence[Sequence]) -> None:
    """Refuse a victory point table that cannot be used, saying which row to fix."""
    if not rows:
        raise RankingError("The victory point table needs at least one row.")
    previous = -1
    previous_winner = None
    for number, row in enumerate(rows, 1):
        if len(row) != 3:
            raise RankingError(
                f"Row {number} of the victory point table needs three numbers: the "
                "largest difference, the winner's points and the loser's points."
            )
        bound, winner, loser = row
        last = number == len(rows)
        for value in (winner, loser) + (() if bound is None else (bound,)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RankingError(
                    f"Row {number} of the victory point table: use whole numbers of 0 or more."
                )
        if last and bound is not None:
            raise RankingError(
                "The last row of the victory point table must cover any larger difference "
                "(leave its largest difference empty)."
            )
        if not last and bound is None:
            raise RankingError(
                f"Row {number} of the victory point table needs its largest difference."
            )
        if bound is not None and bound <= previous:
            raise RankingError(
                f"Row {number} of the victory point table: the largest differences must "
                "go up from row to row."
            )
        if winner < loser:
            raise RankingError(
                f"Row {number} of the victory point table gives the loser more than the winner."
            )
        if number == 1 and winner != loser:
            raise RankingError(
                "The first row of the victory point table covers a draw (a difference "
                "of 0), so it must give both sides the same points."
            )
        if previous_winner is not None and winner < previous_winner:
            raise RankingError(
                f"Row {number} of the victory point table gives the winner less for a "
                "bigger difference than the row above."
            )
        previous = bound if bound is not None else previous
        previous_winner = winner


BURRACO_3_HANDS = VictoryPointTable(
    (
        (50, 10, 10),
        (150, 11, 9),
        (250, 12, 8),
        (350, 13, 7),
        (500, 14, 6),
        (650, 15, 5),
        (800, 16, 4),
        (1000, 17, 3),
        (1250, 18, 2),
        (1500, 19, 1),
        (None, 20, 0),
    )
)

BURRACO_4_HANDS = VictoryPointTable(
    (
        (100, 10, 10),
        (300, 11, 9),
        (500, 12, 8),
        (700, 13, 7),
        (900, 14, 6),
        (1100, 15, 5),
        (1300, 16, 4),
        (1500, 17, 3),
        (1700, 18, 2),
        (2000, 19, 1),
        (None, 20, 0),
    )
)


@dataclass(frozen=True)
class Game:
    """One finished game of an event: each side's entrants and points."""

    side_a: tuple[Hashable, ...]
    side_b: tuple[Hashable, ...]
    points_a: int
    points_b: int


@dataclass
class Tally:
    entrant: Hashable
    games: int = 0
    wins: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    vp: int = 0
    vp_max: int = 0

    @property
    def diff(self) -> int:
        return self.points_for - self.points_against

    @property
    def pct(self) -> Fraction:
        """Victory points as a share of the most this entrant could have had (exact)."""
        return Fraction(self.vp, self.vp_max) if self.vp_max else Fraction(0)


@dataclass
class Place:
    rank: int
    tied: bool
    tally: Tally
    bracket: str = ""  # "upper" / "lower" when ranked in brackets
    section: str = ""  # the section it is ranked in (a Mitchell's "ns" / "ew" line)
    key: tuple = field(default=(), repr=False)


MEASURES = {
    "wins": True,
    "vp": True,
    "pct": True,
    "points_for": True,
    "diff": True,
    "games": True,
    "points_against": False,
}


def check_measures(measures: Sequence[str]) -> list[str]:
    names = list(measures)
    if not names:
        raise RankingError("Choose at least one measure to rank by.")
    for name in names:
        if name not in MEASURES:
            raise RankingError(
                f"'{name}' is not a measure to rank by; choose from {', '.join(MEASURES)}."
            )
    if len(set(names)) != len(names):
        raise RankingError("Each measure to rank by may be chosen once.")
    return names


def tally(games: Iterable[Game], vp_table: VictoryPointTable | None = None) -> list[Tally]:
    """Each entrant's totals over ``games`` (victory points when a table is given), in
    the order entrants first appear."""
    tallies: dict[Hashable, Tally] = {}
    for game in games:
        if set(game.side_a) & set(game.side_b) or not game.side_a or not game.side_b:
            raise RankingError("A game needs two sides with nobody on both.")
        if vp_table is not None:
            high, low = vp_table.points(game.points_a - game.points_b)
            vp_a, vp_b = (high, low) if game.points_a >= game.points_b else (low, high)
        sides = (
            (game.side_a, game.points_a, game.points_b),
            (game.side_b, game.points_b, game.points_a),
        )
        for index, (side, mine, theirs) in enumerate(sides):
            for entrant in side:
                t = tallies.setdefault(entrant, Tally(entrant))
                t.games += 1
                t.wins += mine > theirs
                t.ties += mine == theirs
                t.points_for += mine
                t.points_against += theirs
                if vp_table is not None:
                    t.vp += vp_a if index == 0 else vp_b
                    t.vp_max += vp_table.maximum
    return list(tallies.values())


def _entrant_order(entrant: Hashable) -> tuple:
    return (type(entrant).__name__, entrant)


def _key(t: Tally, measures: Sequence[str]) -> tuple:
    # Smallest first: a measure where more is better counts negated.
    return tuple(-getattr(t, n) if MEASURES[n] else getattr(t, n) for n in measures)


def rank(tallies: Iterable[Tally], measures: Sequence[str]) -> list[Place]:
    """The tallies best first by ``measures`` (the first decides, the next breaks its
    ties …), tie-aware: equal on every measure, equal place, and the next place skipped
    (1, 1, 3). Equals are listed by entrant, so the result does not depend on the order
    of the input."""
    names = check_measures(measures)
    keyed = sorted(
        ((_key(t, names), t) for t in tallies),
        key=lambda item: (item[0], _entrant_order(item[1].entrant)),
    )
    counts = Counter(key for key, _t in keyed)
    out = []
    place = 0
    previous = None
    for i, (key, t) in enumerate(keyed, 1):
        if i == 1 or key != previous:
            place, previous = i, key
        out.append(Place(place, counts[key] > 1, t, key=key))
    return out


def rank_games(
    games: Iterable[Game], measures: Sequence[str], vp_table: VictoryPointTable | None = None
) -> list[Place]:
    """:func:`tally` then :func:`rank`; ranking by ``vp`` or ``pct`` needs a table."""
    names = check_measures(measures)
    if vp_table is None and {"vp", "pct"} & set(names):
        raise RankingError("Ranking by victory points needs a victory point table.")
    return rank(tally(games, vp_table), names)


def upper_bracket(places: Sequence[Place], size: int) -> set:
    """The entrants of the upper bracket: the first ``size`` places of a ranking made
    before the last rounds; entrants tied with the last of them come up with it (a tie
    is never split by the bracket line)."""
    if isinstance(size, bool) or not isinstance(size, int) or not 0 < size < len(places):
        raise RankingError(f"The upper bracket needs between 1 and {len(places) - 1} places.")
    last = places[size - 1].rank
    return {p.tally.entrant for p in places if p.rank <= last}


def rank_in_brackets(
    games: Iterable[Game],
    measures: Sequence[str],
    upper: set,
    vp_table: VictoryPointTable | None = None,
) -> list[Place]:
    """The final ranking with brackets: everyone in ``upper`` above everyone else, each
    bracket ranked by ``measures`` over all games; places run on from the upper bracket
    into the lower one."""
    places = rank_games(games, measures, vp_table)
    top = [p for p in places if p.tally.entrant in upper]
    bottom = [p for p in places if p.tally.entrant not in upper]
    out = []
    for bracket, group, start in (("upper", top, 0), ("lower", bottom, len(top))):
        previous = None
        place = 0
        counts = Counter(p.key for p in group)
        for i, p in enumerate(group, 1):
            if i == 1 or p.key != previous:
                place, previous = start + i, p.key
            out.append(Place(place, counts[p.key] > 1, p.tally, bracket, key=p.key))
    return out


def rank_in_sections(
    games: Iterable[Game],
    measures: Sequence[str],
    sections: Mapping[Hashable, str],
    vp_table: VictoryPointTable | None = None,
) -> list[Place]:
    """Each section ranked on its own by ``measures`` (tie-aware, places from 1 in each),
    as a Mitchell ranks its North–South and East–West lines: ``sections`` maps each
    entrant to its section's name; the sections come in the order their names first
    appear in ``sections``, and an entrant not in it is in a section "" after them."""
    names = check_measures(measures)
    if vp_table is None and {"vp", "pct"} & set(names):
        raise RankingError("Ranking by victory points needs a victory point table.")
    tallies = tally(games, vp_table)
    order = list(dict.fromkeys(sections.values()))
    if "" not in order:
        order.append("")
    out = []
    for section in order:
        group = [t for t in tallies if sections.get(t.entrant, "") == section]
        for place in rank(group, names):
            place.section = section
            out.append(place)
    return out
