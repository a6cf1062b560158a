"""Drawing people at random onto numbered tables, like the club's numbered chips.

Pure functions: no Django, no database, no global randomness. The caller passes the
person ids and a `random.Random` (seeded), so a draw can be replayed and tested.

Remainder rules, for N people when N is not a multiple of four:

- ``THREES`` ("three-player tables"): as many tables of three as needed so that nobody
  sits out: N = 4k + 3 → one table of three; 4k + 2 → two; 4k + 1 → three. Impossible
  for N = 1, 2 and 5 (the draw is refused with an explanation).
- ``SIT_OUT``: tables of four only; N mod 4 people, chosen at random, sit out this round
  (preferring people who did not sit out last time, when the caller says who did).

Tables of four come first (numbers 1..), then the tables of three.

Partners (``partners``: pairs booked together) sit at the same table facing each other
(seats 1 & 3, or 2 & 4), at a table and in seats drawn at random; the others fill the
seats left. Without partners a seed draws exactly what it drew before they existed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, field

THREES = "threes"
SIT_OUT = "sit_out"
REMAINDER_CHOICES = (THREES, SIT_OUT)


class SeatingImpossible(ValueError):
    """The draw cannot be made as asked; the message says why and what to do."""


@dataclass(frozen=True)
class Draw:
    """The result of a draw: `tables[0]` is table 1, in seat order 1, 2, 3(, 4)."""

    tables: list[list[Hashable]]
    sitting_out: list[Hashable] = field(default_factory=list)

    @property
    def sizes(self) -> list[int]:
        return [len(table) for table in self.tables]

    def numbered(self) -> list[tuple[int, list[Hashable]]]:
        return list(enumerate(self.tables, start=1))


def plural(count: int, word: str) -> str:
    """'1 table', '2 tables'; 'person' becomes 'people'."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {'people' if word == 'person' else word + 's'}"


def table_sizes(count: int, remainder: str) -> tuple[list[int], int]:
    """The table sizes for `count` people and how many sit out.

    Raises SeatingImpossible when three-player tables cannot seat everyone."""
    if remainder not in REMAINDER_CHOICES:
        raise SeatingImpossible(f"Unknown choice for the remainder: {remainder!r}.")
    if count < 0:
        raise SeatingImpossible("The number of people cannot be negative.")
    fours, extra = divmod(count, 4)
    if remainder == SIT_OUT or extra == 0:
        return [4] * fours, extra
    threes = 4 - extra  # 3 → 1 table of three, 2 → 2 tables, 1 → 3 tables
    fours -= threes - 1  # each extra table of three takes one player from the fours
    if fours < 0:
        raise SeatingImpossible(
            f"{plural(count, 'person').capitalize()} cannot be seated at tables of three and four "
            "without someone sitting out. Choose “sit out”, or wait for "
            f"{'one more person' if count in (2, 5) else 'more people'}."
        )
    return [4] * fours + [3] * threes, 0


def describe(count: int, remainder: str) -> str:
    """A sentence for the officer: what this choice gives for `count` people."""
    try:
        sizes, out = table_sizes(count, remainder)
    except SeatingImpossible as refusal:
        return str(refusal)
    if not sizes:
        return (
            f"Nobody can play: {plural(out, 'person')} would sit out."
            if out
            else "Nobody is signed in yet."
        )
    parts = []
    fours, threes = sizes.count(4), sizes.count(3)
    if fours:
        parts.append(f"{plural(fours, 'table')} of four")
    if threes:
        parts.append(f"{plural(threes, 'table')} of three")
    text = " and ".join(parts)
    if out:
        text += f"; {plural(out, 'person')} sit{'s' if out == 1 else ''} out"
    return text + "."


def draw(
    people: Sequence[Hashable],
    remainder: str,
    rng: random.Random,
    *,
    avoid_sitting_out: Collection[Hashable] = (),
    spread: Collection[Hashable] = (),
    partners: Collection[tuple[Hashable, Hashable]] = (),
) -> Draw:
    """Seat `people` (distinct ids) at random on numbered tables.

    `avoid_sitting_out`: people who sat out last time; when someone must sit out, the
    others are chosen first (at random among them).

    `spread`: people to spread over the tables (the day's guests), so that no table has
    two of them while another has none (see :func:`spread_out`).

    `partners`: pairs to seat together as partners (see the module's docstring); a
    pair broken by someone sitting out, or more pairs than the tables hold, leaves the
    others drawn as everyone else."""
    people = list(people)
    if len(set(people)) != len(people):
        raise SeatingImpossible("The same person is listed twice; each person plays once.")
    sizes, out = table_sizes(len(people), remainder)
    shuffled = people[:]
    rng.shuffle(shuffled)
    sitting_out: list[Hashable] = []
    pairs = _valid_pairs(people, partners)
    paired = {p for pair in pairs for p in pair}
    if out:
        avoid = set(avoid_sitting_out)
        # Stable order after the shuffle: those not to avoid first, then the others;
        # in each, people without a partner first.
        candidates = [
            p
            for avoided in (False, True)
            for with_partner in (False, True)
            for p in shuffled
            if (p in avoid) == avoided and (p in paired) == with_partner
        ]
        sitting_out = candidates[:out]
        chosen = set(sitting_out)
        shuffled = [p for p in shuffled if p not in chosen]
        pairs = [pair for pair in pairs if not set(pair) & chosen]
    if pairs:
        tables, fixed = _seat_pairs(sizes, shuffled, pairs, rng)
    else:
        tables, fixed = [], set()
        start = 0
        for size in sizes:
            tables.append(shuffled[start : start + size])
            start += size
    if spread:
        spread_out(tables, set(spread), rng, fixed=fixed)
    return Draw(tables=tables, sitting_out=sitting_out)


def _valid_pairs(people: Sequence[Hashable], partners) -> list[tuple[Hashable, Hashable]]:
    """The pairs of two different people both playing, each person in one pair only
    (the first that names them)."""
    present, taken, pairs = set(people), set(), []
    for first, second in partners:
        if first == second or not {first, second} <= present or {first, second} & taken:
            continue
        taken |= {first, second}
        pairs.append((first, second))
    return pairs


def _seat_pairs(sizes, shuffled, pairs, rng) -> tuple[list[list[Hashable]], set]:
    """Tables of ``sizes`` with each pair facing across a table (positions 1 & 3 or
    2 & 4) in slots drawn at random, then everyone else in shuffled order. Pairs beyond
    the slots there are play as the others. Returns the tables and who is seated as a
    pair (not to be moved afterwards)."""
    slots = [(t, (0, 2)) for t in range(len(sizes))]
    slots += [(t, (1, 3)) for t, size in enumerate(sizes) if size == 4]
    rng.shuffle(slots)
    tables: list[list] = [[None] * size for size in sizes]
    fixed: set = set()
    for (table, (a, b)), (first, second) in zip(slots, pairs, strict=False):
        tables[table][a], tables[table][b] = first, second
        fixed |= {first, second}
    others = iter(p for p in shuffled if p not in fixed)
    for table in tables:
        for i, seat in enumerate(table):
            if seat is None:
                table[i] = next(others)
    return tables, fixed


def spread_out(
    tables: list[list[Hashable]], chosen: set, rng: random.Random, *, fixed: Collection = ()
) -> None:
    """Swap people between tables (in place) until the ``chosen`` (guests) are spread as
    evenly as the tables allow: the counts per table differ by at most one. Each swap
    moves a chosen person from a table with the most to a random seat of someone else
    at a table with the fewest, so the draw stays random otherwise. The ``fixed``
    (partners seated together) are never moved."""

    def count(table):
        return sum(1 for p in table if p in chosen)

    while tables:
        most = max(tables, key=count)
        fewest = min(tables, key=count)
        if count(most) - count(fewest) <= 1:
            return
        movable = [i for i, p in enumerate(most) if p in chosen and p not in fixed]
        free = [i for i, p in enumerate(fewest) if p not in chosen and p not in fixed]
        if not movable or not free:
            return
        out = rng.choice(movable)
        into = rng.choice(free)
        most[out], fewest[into] = fewest[into], most[out]
