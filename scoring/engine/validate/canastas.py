"""The fewest card points a team's canastas can hold, for hands entered as totals.

Totals cannot be checked card by card, so melded points must at least hold the canastas
claimed. Where a team has one meld per rank (A down to 4), several canastas need as
many ranks, and the least they hold is the cheapest choice of distinct ranks, each
canasta built from the cheapest cards the meld rules allow: seven 4s (35) for a natural
one, six 4s and a two (50) for a mixed one; 8 to K need 70 and 80, aces 140 either way.
So five natural canastas hold at least 4 x 35 + 70 = 210, and a natural and a mixed one
85. Where a team may have several melds of a rank (Samba, Hand and Foot), a rank holds
as many canastas as the decks have cards of it for.

Every kind of canasta of the rule set is counted (:mod:`..rules.kinds`): a canasta of
sevens is seven sevens (35), a wild canasta of twos seven twos (140), a sequence the
cheapest seven ranks of one suit (4 to 10, 50). Each canasta of a rank is checked with
:func:`~.melds.meld_keeps_rules`, the checks of detailed entry, and its kind found as
detailed entry finds it, so totals and melds accept the same canastas under any rule
set. Wild cards come twos first (20 each) while the decks have twos, then jokers.

The cheapest choice is worked out exactly for up to :data:`EXACT_UP_TO` canastas of a
team; beyond that (possible only where a rank may hold several canastas) each canasta
counts at its own cheapest, which is still a least.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

from .._text import _, count, plural, sentence_list
from ..cards import NATURAL_RANKS, card_plural
from ..rules.kinds import CANASTA_CARDS, GROUP, SEQUENCE, SEQUENCE_ORDER, WILD, kind_index
from .melds import meld_keeps_rules

#: Canastas a team can have at most with one meld per rank: one per natural rank.
MOST_CANASTAS = len(NATURAL_RANKS)

#: Canastas of one team for which the cheapest choice is worked out exactly.
EXACT_UP_TO = 12


class Canasta(NamedTuple):
    """The cheapest canasta of one kind: its cards and their points.

    ``rank`` is the rank of a canasta of one rank, ``"wild"`` for wild cards only, and
    the lowest rank of a sequence (whose ranks are ``run``)."""

    rank: str
    naturals: int
    twos: int
    jokers: int
    points: int
    kind: int = 0
    run: tuple[str, ...] = ()

    def as_meld(self) -> dict[str, object]:
        """The canasta as a detailed entry's meld."""
        if self.run:
            return {"sequence": list(self.run)}
        meld: dict[str, object] = {"rank": self.rank}
        if self.naturals:
            meld["naturals"] = self.naturals
        if self.twos:
            meld["twos"] = self.twos
        if self.jokers:
            meld["jokers"] = self.jokers
        return meld

    def words(self) -> str:
        """``"6 fours and a two"``, ``"7 twos"``, ``"4 to 10 of one suit"``."""
        if self.run:
            return _("%(low)s to %(high)s of one suit") % {"low": self.run[0], "high": self.run[-1]}
        cards = [f"{self.naturals} {card_plural(self.rank)}"] if self.naturals else []
        if self.twos:
            if self.twos == 1 and cards:
                cards.append(_("a two"))
            else:
                cards.append(count(self.twos, "%(n)s two", "%(n)s twos"))
        if self.jokers:
            if self.jokers == 1 and cards:
                cards.append(_("a joker"))
            else:
                cards.append(count(self.jokers, "%(n)s joker", "%(n)s jokers"))
        return sentence_list(cards)


class CanastaTable(NamedTuple):
    """The cheapest canastas of a team, by counts of each kind (in ``rules.kinds``
    order); absent if impossible. Above ``exact_up_to`` canastas see
    :func:`cheapest_canastas`."""

    cheapest: dict[tuple[int, ...], tuple[Canasta, ...]]
    most_natural: int
    most_mixed: int
    most: int
    most_by_kind: tuple[int, ...]
    exact_up_to: int
    #: Each kind's cheapest single canasta (None: no canasta can be of it).
    single: tuple[Canasta | None, ...]
    #: Wild cards the decks hold, and the mixed-type kinds that need one each.
    wild_cards: int
    needs_wild: tuple[bool, ...]


_TABLES: dict[tuple, CanastaTable] = {}


def canasta_table(rules) -> CanastaTable:
    """The rules' table of cheapest canastas (worked out once per kind of rules)."""
    deck = rules.deck_totals
    key = (
        deck.decks,
        rules.min_naturals_per_meld,
        rules.max_wild_per_meld,
        rules.wilds_may_not_outnumber_naturals,
        rules.kind_keys,
        rules.one_meld_per_rank,
        rules.max_meld_cards,
        rules.card_values,
    )
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _Builder(rules).table()
    return table


def cheapest_canastas(rules, *counts: int) -> tuple[Canasta, ...] | None:
    """The cheapest canastas a team with ``counts`` canastas of each kind (in the order
    of ``rules.kinds``: natural, mixed for classic canasta) can hold (their points are
    the least its melded points can be), or None if it cannot have them."""
    table = canasta_table(rules)
    counts = tuple(counts) + (0,) * (len(rules.kinds) - len(counts))
    total = sum(counts)
    if total <= table.exact_up_to:
        return table.cheapest.get(counts)
    if total > table.most or any(
        n > most for n, most in zip(counts, table.most_by_kind, strict=False)
    ):
        return None
    mixed_like = sum(n for n, wild in zip(counts, table.needs_wild, strict=False) if wild)
    wild_canastas = sum(
        n for n, kind in zip(counts, rules.kinds, strict=False) if kind.shape == WILD
    )
    if mixed_like + CANASTA_CARDS * wild_canastas > table.wild_cards:
        return None
    found: list[Canasta] = []
    for n, single in zip(counts, table.single, strict=False):
        if n and single is None:
            return None
        found.extend([single] * n)
    return tuple(found)


def describe_canastas(canastas: tuple[Canasta, ...]) -> str:
    """``"7 fours, 7 fives and 6 sixes and a two"`` as a list of each canasta's cards."""
    return "; ".join(canasta.words() for canasta in canastas)


def kind_plural(kind) -> str:
    """ "natural canastas", "canastas of sevens", "sambas"."""
    return kind.plural


def count_words(kinds, counts) -> str:
    """``"1 natural canasta and 2 mixed canastas"``."""
    parts = [_kind_count(kind, n) for kind, n in zip(kinds, counts, strict=True) if n]
    return sentence_list(parts) or _("no canasta")


def _kind_count(kind, n: int) -> str:
    if kind.key == "natural":
        return count(n, "%(n)s natural canasta", "%(n)s natural canastas")
    if kind.key == "mixed":
        return count(n, "%(n)s mixed canasta", "%(n)s mixed canastas")
    return plural(n, kind.word, kind_plural(kind))


def canasta_count_words(natural: int, mixed: int) -> str:
    """``"1 natural canasta and 2 mixed canastas"`` (the two default kinds)."""
    natural_words = count(natural, "%(n)s natural canasta", "%(n)s natural canastas")
    mixed_words = count(mixed, "%(n)s mixed canasta", "%(n)s mixed canastas")
    if natural and mixed:
        return _("%(first)s and %(last)s") % {"first": natural_words, "last": mixed_words}
    return natural_words if natural else mixed_words


class _Builder:
    """Works out a rule set's :class:`CanastaTable` (a small dynamic programme over the
    ranks, then the wild and sequence canastas)."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.kinds = rules.kinds
        self.deck = rules.deck_totals
        self.values = rules.values
        self.twos, self.jokers = self.deck.twos, self.deck.jokers
        self.wild_supply = self.twos + self.jokers
        self.wild_kinds = [k for k, kind in enumerate(self.kinds) if kind.shape == WILD]
        self.sequence = next(
            (k for k, kind in enumerate(self.kinds) if kind.shape == SEQUENCE), None
        )
        self.per_rank = self.deck.per_natural_rank

    # -- one rank -----------------------------------------------------------------

    def options(self, rank: str) -> list[tuple[int, int, int, int]]:
        """The cheapest canasta of ``rank`` for each number of wild cards, as (kind,
        naturals, wild cards, points of the naturals); only those the rules allow."""
        found = []
        for wild in range(self.rules.max_wild_per_meld + 1):
            naturals = self._fewest_naturals(max(CANASTA_CARDS - wild, 1), wild, rank)
            if naturals is None:
                continue
            kind = kind_index(self.kinds, GROUP, rank, wild, 0)
            if kind is not None:
                found.append((kind, naturals, wild, naturals * self.values[rank]))
        return found

    def _fewest_naturals(self, low: int, wild: int, rank: str) -> int | None:
        for naturals in range(low, self.per_rank + 1):
            if meld_keeps_rules(self.rules, naturals, wild, rank):
                return naturals
        return None

    def choices(self, options) -> list[tuple[tuple[int, int, int, int], ...]]:
        """The canastas one rank can hold at once: one of them with one meld per rank,
        else any that the rank's cards suffice for."""
        if self.rules.one_meld_per_rank:
            return [(option,) for option in options]
        found = []
        most = self.per_rank // max(1, min((o[1] for o in options), default=1))
        for size in range(1, most + 1):
            for choice in itertools.combinations_with_replacement(options, size):
                if sum(o[1] for o in choice) <= self.per_rank:
                    found.append(choice)
        return found

    # -- wild cards -------------------------------------------------------------------

    def joker_range(self, k: int) -> tuple[int, int]:
        """The jokers a wild canasta of kind ``k`` can hold and still be of that kind."""
        kind = self.kinds[k]
        low = kind.min_jokers
        high = CANASTA_CARDS if kind.max_jokers is None else kind.max_jokers
        for other in self.kinds[:k]:
            if other.shape != WILD:
                continue
            o_low = other.min_jokers
            o_high = CANASTA_CARDS if other.max_jokers is None else other.max_jokers
            if o_low <= low <= o_high:
                low = o_high + 1
            if o_low <= high <= o_high:
                high = o_low - 1
        return low, min(high, CANASTA_CARDS)

    def wild_cost(self, group_wild: int, combo: tuple[int, ...]) -> tuple[int, int] | None:
        """(points, jokers) of the wild cards of canastas holding ``group_wild`` wild
        cards in canastas of a rank and ``combo`` wild canastas of each wild kind, the
        cheapest the decks allow; None if they do not hold enough."""
        total = group_wild + CANASTA_CARDS * sum(combo)
        low = high = 0
        for k, n in zip(self.wild_kinds, combo, strict=True):
            k_low, k_high = self.joker_range(k)
            if n and k_low > k_high:
                return None
            low += k_low * n
            high += k_high * n
        high += group_wild
        low = max(low, total - self.twos)
        high = min(high, self.jokers)
        if low > high:
            return None
        two, joker = self.values["2"], self.values["joker"]
        jokers = low if joker >= two else high
        return (total - jokers) * two + jokers * joker, jokers

    def wild_combos(self) -> list[tuple[int, ...]]:
        most = self.wild_supply // CANASTA_CARDS
        ranges = [range(most + 1)] * len(self.wild_kinds)
        return [c for c in itertools.product(*ranges) if sum(c) <= most]

    # -- sequences --------------------------------------------------------------------

    def cheapest_run(self) -> tuple[str, ...]:
        runs = [
            SEQUENCE_ORDER[start : start + CANASTA_CARDS]
            for start in range(len(SEQUENCE_ORDER) - CANASTA_CARDS + 1)
        ]
        return min(runs, key=lambda run: sum(self.values[rank] for rank in run))

    # -- the table --------------------------------------------------------------------

    def table(self) -> CanastaTable:
        groups, group_most, group_total = self._groups()
        combos = self.wild_combos() if self.wild_kinds else [()]
        run = self.cheapest_run()
        run_points = sum(self.values[rank] for rank in run)
        # Every sequence has an 8, a 9 and a 10 of its suit.
        most_runs = 4 * self.deck.decks if self.sequence is not None else 0
        cheapest: dict[tuple[int, ...], tuple[int, tuple]] = {}
        for (counts, wild), (points, canastas) in groups.items():
            for combo in combos:
                cost = self.wild_cost(wild, combo)
                if cost is None:
                    continue
                with_wild = list(counts)
                for k, n in zip(self.wild_kinds, combo, strict=True):
                    with_wild[k] += n
                for runs in range(most_runs + 1):
                    full = list(with_wild)
                    if self.sequence is not None:
                        full[self.sequence] += runs
                    if sum(full) > EXACT_UP_TO:
                        break
                    key = tuple(full)
                    total = points + cost[0] + runs * run_points
                    if key not in cheapest or total < cheapest[key][0]:
                        cheapest[key] = (total, (canastas, combo, runs, cost[1]))
        built = {key: self._canastas(*found, run) for key, (_total, found) in cheapest.items()}
        most_by_kind = self._most_by_kind(group_most, most_runs, built)
        most = max(sum(key) for key in built)
        most_wild = self.wild_supply // CANASTA_CARDS if self.wild_kinds else 0
        loose = group_total + most_wild + most_runs
        if loose > EXACT_UP_TO:
            most = loose
        natural, mixed = self.kind_keys_index("natural"), self.kind_keys_index("mixed")
        return CanastaTable(
            cheapest=built,
            most_natural=most_by_kind[natural],
            most_mixed=most_by_kind[mixed],
            most=most,
            most_by_kind=most_by_kind,
            exact_up_to=EXACT_UP_TO,
            single=self._singles(run, run_points),
            wild_cards=self.wild_supply,
            needs_wild=tuple(kind.shape == GROUP and kind.natural is False for kind in self.kinds),
        )

    def kind_keys_index(self, key: str) -> int:
        return self.rules.kind_keys.index(key)

    def _groups(self):
        """Canastas of a rank: the cheapest for each count of every kind and wild cards
        used, and how many of each kind the ranks hold at most."""
        n_kinds = len(self.kinds)
        states: dict[tuple, tuple[int, tuple]] = {((0,) * n_kinds, 0): (0, ())}
        group_most = dict.fromkeys(range(n_kinds), 0)
        group_total = 0
        for rank in reversed(NATURAL_RANKS):  # 4 up to A: equal costs keep the lower rank
            options = self.options(rank)
            choices = self.choices(options)
            group_total += max((len(choice) for choice in choices), default=0)
            for k in range(n_kinds):
                group_most[k] += max(
                    (sum(1 for o in choice if o[0] == k) for choice in choices), default=0
                )
            after = dict(states)
            for (counts, wild), (points, canastas) in states.items():
                total = sum(counts)
                for choice in choices:
                    if total + len(choice) > EXACT_UP_TO:
                        continue
                    new = list(counts)
                    new_wild, new_points = wild, points
                    for kind, _nat, extra, cost in choice:
                        new[kind] += 1
                        new_wild += extra
                        new_points += cost
                    if new_wild > self.wild_supply:
                        continue
                    key = (tuple(new), new_wild)
                    if key not in after or new_points < after[key][0]:
                        made = tuple((rank, kind, nat, extra) for kind, nat, extra, _cost in choice)
                        after[key] = (new_points, canastas + made)
            states = after
        return states, {k: n for k, n in group_most.items() if n}, group_total

    def _most_by_kind(self, group_most, most_runs, built) -> tuple[int, ...]:
        found = [0] * len(self.kinds)
        for key in built:
            for k, n in enumerate(key):
                found[k] = max(found[k], n)
        for k, n in group_most.items():
            if n > EXACT_UP_TO:
                found[k] = n
        if self.sequence is not None and most_runs > EXACT_UP_TO:
            found[self.sequence] = most_runs
        return tuple(found)

    def _canastas(self, group, combo, runs, jokers, run) -> tuple[Canasta, ...]:
        """The canastas of one cheapest choice, with their twos and jokers: each wild
        canasta its fewest jokers, the jokers left over where wild cards may be."""
        lows = []
        for k, n in zip(self.wild_kinds, combo, strict=True):
            low, high = self.joker_range(k)
            lows.extend([(k, low, high)] * n)
        spare = jokers - sum(low for _k, low, _high in lows)
        made: list[Canasta] = []
        for rank, kind, naturals, wild in group:
            j = min(wild, spare)
            spare -= j
            points = naturals * self.values[rank] + (wild - j) * self.values["2"]
            points += j * self.values["joker"]
            made.append(Canasta(rank, naturals, wild - j, j, points, kind))
        for k, low, high in lows:
            j = low + min(high - low, spare)
            spare -= j - low
            made.append(self._wild_canasta(k, CANASTA_CARDS - j, j))
        if runs:
            points = sum(self.values[rank] for rank in run)
            made.extend([Canasta(run[0], len(run), 0, 0, points, self.sequence, run)] * runs)
        return tuple(made)

    def _wild_canasta(self, k: int, twos: int, jokers: int) -> Canasta:
        points = twos * self.values["2"] + jokers * self.values["joker"]
        return Canasta("wild", 0, twos, jokers, points, k)

    def _singles(self, run, run_points) -> tuple[Canasta | None, ...]:
        """Each kind's cheapest canasta on its own."""
        found: list[Canasta | None] = [None] * len(self.kinds)

        def keep(k, canasta):
            if found[k] is None or canasta.points < found[k].points:
                found[k] = canasta

        for rank in reversed(NATURAL_RANKS):
            for kind, naturals, wild, cost in self.options(rank):
                twos = min(wild, self.twos)
                points = cost + twos * self.values["2"] + (wild - twos) * self.values["joker"]
                keep(kind, Canasta(rank, naturals, twos, wild - twos, points, kind))
        for k in self.wild_kinds:
            low, high = self.joker_range(k)
            if low <= high:
                jokers = max(low, CANASTA_CARDS - self.twos)
                if jokers <= min(high, self.jokers):
                    keep(k, self._wild_canasta(k, CANASTA_CARDS - jokers, jokers))
        if self.sequence is not None:
            found[self.sequence] = Canasta(run[0], len(run), 0, 0, run_points, self.sequence, run)
        return tuple(found)
