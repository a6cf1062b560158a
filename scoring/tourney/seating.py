"""Who sits where in each round of an event, from :mod:`scoring.events.movements`, in
person ids: no database here.

Round 1 is the tables as seated when it starts (latecomers are welcome until then):
at each table of four, seats 1 & 3 are one partnership (North–South) and 2 & 4 the
other (East–West). The entrants are numbered from it: a Mitchell's North–South pair
``t`` sits at table ``t`` and its East–West pair ``t`` starts there; Swiss partnerships
are 1, 2 at table 1, 3, 4 at table 2 …; an individual event's players get the numbers
that make the movement's round 1 the seating as it is.

A seating is a list of tables: ``{"table": n, "sides": [[ids], [ids]], "entrants":
[[numbers], [numbers]], "came_from": [table or None, table or None]}``.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.events import movements

MITCHELL, SWISS, INDIVIDUAL = "mitchell", "swiss", "individual"


def entrants_from_tables(kind: str, tables: Sequence[Sequence[int]], rounds: int, seed: int):
    """The entrants of an event from round 1's tables (each four person ids in seat
    order): ``[{"number", "line", "people"}]``."""
    if kind == MITCHELL:
        out = [{"number": t, "line": "ns", "people": [s[0], s[2]]} for t, s in _numbered(tables)]
        out += [{"number": t, "line": "ew", "people": [s[1], s[3]]} for t, s in _numbered(tables)]
        return out
    if kind == SWISS:
        out = []
        for t, s in _numbered(tables):
            out.append({"number": 2 * t - 1, "line": "", "people": [s[0], s[2]]})
            out.append({"number": 2 * t, "line": "", "people": [s[1], s[3]]})
        return out
    first = movements.individual(4 * len(tables), rounds, seed=seed)[0]
    by_number = {}
    for four, seats in zip(first.tables, tables, strict=True):
        (a, c), (b, d) = four.players
        by_number.update({a: seats[0], c: seats[2], b: seats[1], d: seats[3]})
    return [{"number": n, "line": "", "people": [by_number[n]]} for n in sorted(by_number)]


def _numbered(tables):
    return list(enumerate(tables, start=1))


def _people(entrants, line: str = "") -> dict:
    return {e["number"]: e["people"] for e in entrants if e["line"] == line}


def seating(
    kind: str,
    entrants: list[dict],
    number: int,
    rounds: int,
    seed: int,
    *,
    played=(),
    wins=None,
    standing=None,
    previous: list[dict] | None = None,
) -> list[dict]:
    """Round ``number``'s tables (see the module's docstring). Swiss needs the meetings
    so far (``played``: pairs of entrant numbers), ``wins`` and ``standing``."""
    sides: list[tuple[list, list]] = []  # per table: (entrant numbers, entrant numbers)
    if kind == MITCHELL:
        tables = len(entrants) // 2
        for t in movements.mitchell(2 * tables, number)[number - 1].tables:
            sides.append(([("ns", t.ns)], [("ew", t.ew)]))
        people = {("ns", n): p for n, p in _people(entrants, "ns").items()}
        people |= {("ew", n): p for n, p in _people(entrants, "ew").items()}
    elif kind == SWISS:
        pairs = len(entrants)
        swiss = movements.swiss_round(
            pairs, number, played=played, wins=wins, standing=standing, seed=seed
        )
        if number == 1:
            sides = [([2 * t - 1], [2 * t]) for t in range(1, pairs // 2 + 1)]
        else:
            sides = [([t.ns], [t.ew]) for t in swiss.tables]
        people = _people(entrants)
    else:
        moves = movements.individual(len(entrants), number, seed=seed)[number - 1]
        sides = [(list(f.players[0]), list(f.players[1])) for f in moves.tables]
        people = _people(entrants)
    was_at = _tables_of(previous or [])
    out = []
    for table, (a, b) in enumerate(sides, start=1):
        out.append(
            {
                "table": table,
                "sides": [[p for e in a for p in people[e]], [p for e in b for p in people[e]]],
                "entrants": [[_plain(e) for e in a], [_plain(e) for e in b]],
                "came_from": [was_at.get(_plain(a[0])), was_at.get(_plain(b[0]))],
            }
        )
    return out


def _plain(entrant):
    """A Mitchell's ("ew", 3) is stored as "ew3"; other entrants are their number."""
    return f"{entrant[0]}{entrant[1]}" if isinstance(entrant, tuple) else entrant


def _tables_of(seating_rows: list[dict]) -> dict:
    """Where each entrant (its first number) sat in a seating."""
    found = {}
    for row in seating_rows:
        for side in row["entrants"]:
            for entrant in side:
                found[entrant] = row["table"]
    return found


def seat_order(row: dict) -> list[int]:
    """A table's people in seat order 1–4: partners at 1 & 3 and 2 & 4."""
    (a1, a2), (b1, b2) = row["sides"]
    return [a1, b1, a2, b2]


def meetings(seatings: list[list[dict]]) -> list[tuple]:
    """The pairs of entrants that have met, one per meeting (Swiss rematches)."""
    return [(row["entrants"][0][0], row["entrants"][1][0]) for rows in seatings for row in rows]
