"""The fewest card points a team's canastas can hold, for hands entered as totals.

Totals cannot be checked card by card, so melded points must at least hold the canastas
claimed. A team has one meld per rank (A down to 4), so several canastas need as many
ranks, and the least they hold is the cheapest choice of distinct ranks, each canasta
built from the cheapest cards the meld rules allow: seven 4s (35) for a natural one, six
4s and a two (50) for a mixed one; 8 to K need 70 and 80, aces 140 either way. So five
natural canastas hold at least 4 x 35 + 70 = 210, and a natural and a mixed one 85.

Each canasta is checked with :func:`~.melds.meld_keeps_rules`, the checks of detailed
entry, so totals and melds accept the same canastas under any rule set. Wild cards come
twos first (20 each) while the decks have twos for every canasta, then jokers.
"""

from __future__ import annotations

from typing import NamedTuple

from .._text import _, count, ngettext, sentence_list
from ..cards import CARD_VALUES, NATURAL_RANKS, card_plural
from .melds import meld_keeps_rules

#: Canastas a team can have at most: one per natural rank (A down to 4).
MOST_CANASTAS = len(NATURAL_RANKS)


class Canasta(NamedTuple):
    """The cheapest canasta of one rank: its cards and their points."""

    rank: str
    naturals: int
    twos: int
    jokers: int
    points: int

    def as_meld(self) -> dict[str, object]:
        """The canasta as a detailed entry's meld."""
        meld: dict[str, object] = {"rank": self.rank, "naturals": self.naturals}
        if self.twos:
            meld["twos"] = self.twos
        if self.jokers:
            meld["jokers"] = self.jokers
        return meld

    def words(self) -> str:
        """``"6 fours and a two"``."""
        cards = [f"{self.naturals} {card_plural(self.rank)}"]
        if self.twos:
            cards.append(ngettext("a two", "%(n)s twos", self.twos) % {"n": self.twos})
        if self.jokers:
            cards.append(ngettext("a joker", "%(n)s jokers", self.jokers) % {"n": self.jokers})
        return sentence_list(cards)


class CanastaTable(NamedTuple):
    """The cheapest canastas of a team, by (natural, mixed) count; absent if impossible."""

    cheapest: dict[tuple[int, int], tuple[Canasta, ...]]
    most_natural: int
    most_mixed: int
    most: int


_TABLES: dict[tuple, CanastaTable] = {}


def canasta_table(rules) -> CanastaTable:
    """The rules' table of cheapest canastas (worked out once per kind of rules)."""
    deck = rules.deck_totals
    key = (
        deck.decks,
        rules.min_naturals_per_meld,
        rules.max_wild_per_meld,
        rules.wilds_may_not_outnumber_naturals,
    )
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _build(rules, deck)
    return table


def cheapest_canastas(rules, natural: int, mixed: int) -> tuple[Canasta, ...] | None:
    """The cheapest canastas a team with ``natural`` and ``mixed`` canastas can hold
    (their points are the least its melded points can be), or None if it cannot."""
    return canasta_table(rules).cheapest.get((natural, mixed))


def describe_canastas(canastas: tuple[Canasta, ...]) -> str:
    """``"7 fours, 7 fives and 6 sixes and a two"`` as a list of each canasta's cards."""
    return "; ".join(canasta.words() for canasta in canastas)


def _options(rules, deck, rank: str) -> list[tuple[bool, Canasta]]:
    """The cheapest natural canasta of ``rank`` and, for each number of twos, the
    cheapest mixed one: (natural?, canasta) pairs, only those the rules allow."""
    value = CARD_VALUES[rank]
    found: list[tuple[bool, Canasta]] = []
    natural = _fewest_naturals(rules, deck, 7, 0)
    if natural is not None:
        found.append((True, Canasta(rank, natural, 0, 0, natural * value)))
    by_twos: dict[int, Canasta] = {}
    for wild in range(1, rules.max_wild_per_meld + 1):
        naturals = _fewest_naturals(rules, deck, max(7 - wild, 1), wild)
        if naturals is None:
            continue
        for twos in range(wild + 1):
            jokers = wild - twos
            points = naturals * value + twos * CARD_VALUES["2"] + jokers * CARD_VALUES["joker"]
            if twos not in by_twos or points < by_twos[twos].points:
                by_twos[twos] = Canasta(rank, naturals, twos, jokers, points)
    found.extend((False, canasta) for canasta in by_twos.values())
    return found


def _fewest_naturals(rules, deck, low: int, wild: int) -> int | None:
    for naturals in range(low, deck.per_natural_rank + 1):
        if meld_keeps_rules(rules, naturals, wild):
            return naturals
    return None


def _build(rules, deck) -> CanastaTable:
    """Choose the cheapest distinct ranks for every count of canastas (a small dynamic
    programme over the ranks, keeping the twos used within what the decks hold)."""
    states: dict[tuple[int, int, int], tuple[int, tuple[Canasta, ...]]] = {(0, 0, 0): (0, ())}
    for rank in reversed(NATURAL_RANKS):  # 4 up to A: equal costs keep the lower rank
        options = _options(rules, deck, rank)
        after = dict(states)
        for (nat, mix, twos), (points, canastas) in states.items():
            if nat + mix == MOST_CANASTAS:
                continue
            for natural, canasta in options:
                key = (nat + natural, mix + (not natural), twos + canasta.twos)
                if key[2] > deck.twos:
                    continue
                total = points + canasta.points
                if key not in after or total < after[key][0]:
                    after[key] = (total, (*canastas, canasta))
        states = after
    cheapest: dict[tuple[int, int], tuple[int, tuple[Canasta, ...]]] = {}
    for (nat, mix, _twos), found in states.items():
        if (nat, mix) not in cheapest or found[0] < cheapest[(nat, mix)][0]:
            cheapest[(nat, mix)] = found
    return CanastaTable(
        cheapest={key: canastas for key, (_points, canastas) in cheapest.items()},
        most_natural=max(nat for nat, _mix in cheapest),
        most_mixed=max(mix for _nat, mix in cheapest),
        most=max(nat + mix for nat, mix in cheapest),
    )


def canasta_count_words(natural: int, mixed: int) -> str:
    """``"1 natural canasta and 2 mixed canastas"``."""
    natural_words = count(natural, "%(n)s natural canasta", "%(n)s natural canastas")
    mixed_words = count(mixed, "%(n)s mixed canasta", "%(n)s mixed canastas")
    if natural and mixed:
        return _("%(first)s and %(last)s") % {"first": natural_words, "last": mixed_words}
    return natural_words if natural else mixed_words
