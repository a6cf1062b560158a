"""Movements: who sits where each round, computed from the tables actually seated.

Three movements, all pure and deterministic (a given seed gives the same seating):

- :func:`mitchell` for fixed partnerships. North–South stay at their table; East–West
  move up one table each round, the last table's to table 1. With an odd number of
  partnerships the missing East–West pair is a phantom: the North–South pair it would
  meet has a bye that round (``ew`` is ``None``). With T tables East–West meet every
  North–South pair once in T rounds; a round T+1 would bring them back to the pair
  they started against, so more than T rounds are refused (:class:`MovementError`).

  Bridge directors skip a table at the halfway point of an even-table Mitchell
  (E. T. Baker's "skip Mitchell"): there, East–West would otherwise arrive at a table
  holding boards they have already played, because the boards move down while the
  pairs move up (bridgecentral.com, "Skip Mitchell"; tbb director notes, "Mitchell
  movements"). Canasta deals fresh cards at every table, there are no boards, so the
  skip buys nothing: the plain movement already has every East–West pair meet each
  North–South pair at most once in up to T rounds, with an even number of tables too.
  And the skip costs something: it makes East–West miss one North–South pair. So no
  skip here.

- :func:`swiss_round` for partnerships: round 1 a seeded draw; from round 2 the
  partnerships with the same number of wins meet (1st against 2nd inside a group), no
  rematch while one can be avoided, and with an odd number a bye for the lowest ranked
  partnership that has not had one (never twice while avoidable).

- :func:`individual` for players: tables of four, each of two partnerships, with a new
  partner and new opponents each round as far as the numbers allow. With a number of
  players that is not a multiple of four, the 1–3 left over sit out the round, those
  who sat out least first (so nobody sits out twice while someone has not).

Pairing is by maximum weight matching (``networkx.max_weight_matching`` with
``maxcardinality=True``) on a complete graph, as Tabbycat's draw generator pairs
debate teams (``draw/generator/graph.py``: a penalty per earlier meeting). Each
edge's penalty is a tuple of concerns, most important first; the tuple is packed into
one whole number so a worse concern can never be outweighed by any number of lesser
ones, and the matching is exact (networkx keeps integer weights integral).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx


class MovementError(ValueError):
    """A movement that cannot be made; the message says what to change."""


@dataclass(frozen=True)
class PairTable:
    """One table of a partnerships round: North–South against East–West (``None``: the
    North–South pair has a bye)."""

    table: int
    ns: int
    ew: int | None


@dataclass(frozen=True)
class PairRound:
    number: int
    tables: tuple[PairTable, ...]
    bye: int | None = None  # Swiss: the partnership that sits out this round

    def meetings(self) -> list[frozenset]:
        return [frozenset((t.ns, t.ew)) for t in self.tables if t.ew is not None]


@dataclass(frozen=True)
class FourTable:
    """One table of an individual round: two partnerships of two player numbers."""

    table: int
    players: tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class IndividualRound:
    number: int
    tables: tuple[FourTable, ...]
    sit_out: tuple[int, ...] = ()


def _positive(value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MovementError(f"The number of {what} must be a whole number of at least 1.")


# ---------------------------------------------------------------------------- Mitchell


def mitchell_max_rounds(pairs: int) -> int:
    """The most rounds a Mitchell of ``pairs`` partnerships can play with nobody meeting
    anyone twice: the number of tables."""
    return (pairs + 1) // 2


def mitchell(pairs: int, rounds: int) -> list[PairRound]:
    """A Mitchell movement for ``pairs`` partnerships over ``rounds`` rounds.

    North–South pair ``n`` sits at table ``n`` all event; East–West pair ``e`` starts at
    table ``e`` and moves up one table a round (the last table to table 1), so in round
    ``r`` it sits at table ``(e + r - 2) mod T + 1``. With an odd number of pairs there
    are T North–South pairs and T - 1 East–West pairs, and each round one North–South
    pair has a bye (``ew`` None)."""
    _positive(pairs, "partnerships")
    _positive(rounds, "rounds")
    if pairs < 2:
        raise MovementError("A Mitchell movement needs at least 2 partnerships.")
    tables = mitchell_max_rounds(pairs)
    if rounds > tables:
        raise MovementError(
            f"With {tables} table{'s' if tables != 1 else ''} a Mitchell movement has at "
            f"most {tables} round{'s' if tables != 1 else ''}: round {tables + 1} would "
            "seat East–West against a North–South pair they have already played. Choose "
            f"{tables} rounds or fewer, or a Swiss movement."
        )
    ew_pairs = pairs // 2  # the last East–West pair is a phantom when pairs is odd
    out = []
    for r in range(1, rounds + 1):
        at_table = {(e + r - 2) % tables + 1: e for e in range(1, ew_pairs + 1)}
        out.append(
            PairRound(r, tuple(PairTable(t, t, at_table.get(t)) for t in range(1, tables + 1)))
        )
    return out


# ---------------------------------------------------------------------------- matching


def _pack(costs: Sequence[Sequence[int]]) -> list[int]:
    """Pack each edge's tuple of costs (most important first, each >= 0) into one whole
    number, so that the sum over any matching compares like the tuples do: each place's
    base exceeds the largest total the lesser places can reach in one matching."""
    if not costs:
        return []
    width = len(costs[0])
    edges_in_a_matching = len(costs)  # a generous bound
    packed = [0] * len(costs)
    for place in range(width):
        base = edges_in_a_matching * (max(c[place] for c in costs) + 1) + 1
        packed = [p * base + c[place] for p, c in zip(packed, costs, strict=True)]
    return packed


def _min_cost_pairs(nodes: Sequence[Hashable], cost) -> list[tuple]:
    """A perfect matching of ``nodes`` (an even number) of least total cost, the cost of
    an edge being the tuple ``cost(a, b)``; each pair in the order of ``nodes``."""
    edges = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1 :]]
    packed = _pack([tuple(cost(a, b)) for a, b in edges])
    top = max(packed, default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    index = {node: i for i, node in enumerate(nodes)}
    for (a, b), weight in zip(edges, packed, strict=True):
        graph.add_edge(index[a], index[b], weight=top - weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(tuple(sorted(edge)) for edge in matching)
    assert len(pairs) * 2 == len(nodes)
    return [(nodes[i], nodes[j]) for i, j in pairs]


# ---------------------------------------------------------------------------- Swiss

BYE = "bye"


def swiss_round(
    pairs: int,
    number: int,
    *,
    played: Iterable[Iterable[int]] = (),
    wins: Mapping[int, int] | None = None,
    byes: Iterable[int] = (),
    standing: Sequence[int] | None = None,
    seed: int = 0,
) -> PairRound:
    """Round ``number`` of a Swiss movement for partnerships 1…``pairs``.

    ``played``: the pairs of partnerships that have met (one entry per meeting);
    ``wins``: each partnership's wins so far; ``byes``: the partnerships that have had a
    bye (one entry per bye); ``standing``: the partnerships best first (by default by
    wins, then number). Round 1 with no results yet is a draw seeded by ``seed``.

    What matters, most first: nobody gets a second bye while another has had none; no
    rematch while one can be avoided; the bye to the lowest ranked; partnerships with
    the same number of wins meet (the smallest gap otherwise); 1st against 2nd within a
    group. Tables are numbered best first; ``ns`` is the better placed of the two."""
    _positive(pairs, "partnerships")
    _positive(number, "the round")
    if pairs < 2:
        raise MovementError("A Swiss movement needs at least 2 partnerships.")
    everyone = list(range(1, pairs + 1))
    wins = dict.fromkeys(everyone, 0) | dict(wins or {})
    met = Counter(frozenset(m) for m in played)
    bye_count = Counter(byes)
    for key in list(wins) + list(bye_count) + [x for m in met for x in m]:
        if not isinstance(key, int) or not 1 <= key <= pairs:
            raise MovementError(f"Partnership {key} is not one of 1 to {pairs}.")
    rng = random.Random(seed)
    draw = {p: rng.random() for p in everyone}  # round 1's order
    if standing is None:
        standing = sorted(everyone, key=lambda p: (-wins[p], p))
    if sorted(standing) != everyone:
        raise MovementError("The standing must list every partnership once.")
    if number == 1 and not met and not any(wins.values()):
        standing = sorted(everyone, key=lambda p: draw[p])
    place = {p: i for i, p in enumerate(standing)}
    nodes: list = list(standing) + ([BYE] if pairs % 2 else [])
    fewest_byes = min(bye_count[p] for p in everyone)

    def place_from_bottom(p):
        return pairs - 1 - place[p]

    def cost(a, b):
        if BYE in (a, b):
            p = b if a == BYE else a
            return (bye_count[p] - fewest_byes, 0, place_from_bottom(p), 0, 0)
        gap = abs(wins[a] - wins[b])
        return (0, met[frozenset((a, b))], 0, gap * gap, abs(place[a] - place[b]))

    bye = None
    tables = []
    for a, b in _min_cost_pairs(nodes, cost):
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            tables.append((a, b) if place[a] < place[b] else (b, a))
    tables.sort(key=lambda t: place[t[0]])
    return PairRound(
        number, tuple(PairTable(i, ns, ew) for i, (ns, ew) in enumerate(tables, 1)), bye
    )


# ---------------------------------------------------------------------------- individual


def individual(players: int, rounds: int, *, seed: int = 0) -> list[IndividualRound]:
    """An individual movement for players 1…``players`` over ``rounds`` rounds.

    Each round: who sits out (only when ``players`` is not a multiple of four: those who
    have sat out least, then by the seeded draw), then partners by a least-cost matching
    (a repeated partner weighs more than anything else), then tables by a second
    matching of those partnerships (a repeated opponent counts, less). Nobody partners
    anyone twice while the numbers allow it: with 4N players, never in the first 2N
    rounds (what is left of the partner graph still has a perfect matching)."""
    _positive(players, "players")
    _positive(rounds, "rounds")
    if players < 4:
        raise MovementError("An individual movement needs at least 4 players.")
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    partnered: Counter = Counter()
    opposed: Counter = Counter()
    sat_out: Counter = Counter()
    out = []
    for r in range(1, rounds + 1):
        draw = {p: rng.random() for p in everyone}
        extra = players % 4
        resting: list[int] = []
        if extra:
            resting = sorted(everyone, key=lambda p: (sat_out[p], draw[p]))[:extra]
        seated = sorted((p for p in everyone if p not in resting), key=lambda p: draw[p])

        def partner_cost(a, b):
            return (partnered[frozenset((a, b))], opposed[frozenset((a, b))], 0)

        partnerships = _min_cost_pairs(seated, partner_cost)
        partnerships.sort(key=lambda pair: min(draw[p] for p in pair))

        def table_cost(x, y):
            repeats = sum(opposed[frozenset((a, b))] for a in x for b in y)
            return (repeats, 0)

        fours = _min_cost_pairs(partnerships, table_cost)
        tables = []
        for i, (x, y) in enumerate(sorted(fours, key=lambda f: min(f[0] + f[1])), 1):
            first, second = sorted([tuple(sorted(x)), tuple(sorted(y))])
            tables.append(FourTable(i, (first, second)))
            partnered.update([frozenset(first), frozenset(second)])
            opposed.update(frozenset((a, b)) for a in first for b in second)
        sat_out.update(resting)
        out.append(IndividualRound(r, tuple(tables), tuple(sorted(resting))))
    return out
