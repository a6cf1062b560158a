"""Tie-aware ranking, written once: rows equal on every measure share a position and
the next position is skipped (1, 1, 3).

:func:`positions` is the rule itself, over keys already sorted best first; the
standings (:func:`rank`, by the officers' ordered measures), the top scores of a day and
the club records (:func:`set_positions`) and the finishing order of a game's teams for
the ratings all use it. Pure Python: no query here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from scoring.results.standings.measures import MEASURES, clean_measures

_NOTHING = object()


def positions(keys: Iterable) -> list[int]:
    """The tie-aware position of each of ``keys``, which are sorted best first: a key
    equal to the one before shares its position, the next different key takes its own
    place in the list (1, 1, 3)."""
    out = []
    position = 0
    previous = _NOTHING
    for i, key in enumerate(keys, start=1):
        if key != previous:
            position = i
            previous = key
        out.append(position)
    return out


def set_positions(rows: list[dict], key: str) -> None:
    """Set ``rank`` on rows already sorted best first by ``row[key]``, tie-aware."""
    for row, position in zip(rows, positions(row[key] for row in rows), strict=True):
        row["rank"] = position


# The ratios (win %, average) are compared as the quotient of their two whole numbers,
# never as the rounded figure shown (33.3 % of 3 games is not 33.3 % of 1,000). The
# quotient is a float, and that is exact enough to rank: a division is correctly rounded,
# so equal ratios give the same float (1/3 equals 2/6, a tie), and two different ratios
# of whole numbers under 2^19 games each (wins, or points up to 2^14 a game) differ by
# more than a float's step there, so they never round to the same float. A Fraction
# gives the same order, and took most of the time of ranking a big league.
_RATIOS = {"win_pct": "wins", "average": "points_for"}


def _measure_value(row: dict, name: str):
    """Value of a measure for comparing; a ratio as the quotient of its whole numbers."""
    games = row.get("games") or 0
    if name in _RATIOS:
        return row[_RATIOS[name]] / games if games else 0
    return row.get(name)


def _sort_key(row: dict, measures: Sequence[str]) -> tuple:
    key = []
    for name in measures:
        value = _measure_value(row, name)
        if value is None:  # no rating yet: after everyone who has one
            key.append((1, 0))
        else:
            key.append((0, -value if MEASURES[name].higher_is_better else value))
    return tuple(key)


def rank(rows: list[dict], measures: Sequence[str] | None = None) -> list[dict]:
    """Sort ``rows`` by the ordered ``measures`` (best first) and give each row a
    tie-aware position: rows equal on every measure share it and the next position is
    skipped (1, 1, 3). Sets ``rank`` and ``tied`` on each row; returns the rows in order
    (name order among equals)."""
    names = clean_measures(measures)
    keyed = sorted(
        ((_sort_key(row, names), row.get("sort_name", ""), row) for row in rows),
        key=lambda item: item[:2],
    )
    keys = [key for key, _name, _row in keyed]
    counts = Counter(keys)
    out = []
    for (key, _name, row), position in zip(keyed, positions(keys), strict=True):
        row["rank"] = position
        row["tied"] = counts[key] > 1
        out.append(row)
    return out


def split_and_rank(rows: list[dict], measures: Sequence[str] | None, min_games: int):
    """(ranked, unranked): rows with at least ``min_games`` games ranked by
    ``measures``; the others, most games first, with rank None."""
    ranked = [r for r in rows if r["games"] >= min_games]
    unranked = [r for r in rows if r["games"] < min_games]
    unranked.sort(key=lambda r: (-r["games"], r.get("sort_name", "")))
    for row in unranked:
        row["rank"] = None
        row["tied"] = False
    return rank(ranked, measures), unranked
