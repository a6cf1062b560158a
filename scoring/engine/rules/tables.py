"""The tables a rule set derives from its settings, computed once when it is made.

Scoring a hand reads these instead of working them out again for every team: what the
decks hold, the red three scores by count, the initial-meld steps, the going-out bonus
and the canastas needed by how a team went out, the fixed penalty amounts, and the words
messages use for a side. :class:`~.ruleset.RuleSet` exposes each table through one
public property; this module only builds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..cards import (
    CARD_POINTS_PER_DECK,
    CARD_VALUES,
    CARDS_IN_DECK,
    CARDS_PER_DECK,
    RED_THREES_PER_DECK,
)
from .kinds import GROUP, SEQUENCE, WILD, build_kinds

if TYPE_CHECKING:
    from .ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class DeckTotals:
    """What the decks of a rule set hold: the limits that make a hand possible or not."""

    decks: int
    cards: int
    red_threes: int
    card_points: int
    per_natural_rank: int
    black_threes: int
    twos: int
    jokers: int

    def limit(self, card: str) -> int:
        """How many of ``card`` (a key of ``HAND_CARD_KEYS``) the decks hold."""
        return CARDS_PER_DECK[card] * self.decks


class RuleTables:
    """Tables precomputed once per rule set so that scoring a hand stays cheap.

    Read them through the rule set's properties of the same meaning (``deck_totals``,
    ``red_three_scores``, ``meld_thresholds``, ``meld_minimums``, ``going_out_scores``,
    ``canastas_needed``, ``penalty_amounts``, ``team_word``, ``teams_word``).
    """

    __slots__ = (
        "kinds",
        "kind_keys",
        "kinds_by_shape",
        "ranks_without_wild",
        "values",
        "hand_values",
        "standard_cards",
        "deck",
        "red_three_scores",
        "meld_thresholds",
        "meld_minimums",
        "going_out_scores",
        "canastas_needed",
        "penalty_amounts",
        "team_word",
        "teams_word",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.kinds = build_kinds(
            rules.natural_canasta_bonus, rules.mixed_canasta_bonus, rules.canasta_kinds
        )
        self.kind_keys = tuple(kind.key for kind in self.kinds)
        self.kinds_by_shape = {
            shape: tuple(kind for kind in self.kinds if kind.shape == shape)
            for shape in (GROUP, WILD, SEQUENCE)
        }
        self.ranks_without_wild = frozenset(
            kind.rank for kind in self.kinds if kind.rank_takes_no_wild
        )
        self.values = MappingProxyType(dict(rules.card_values))
        self.hand_values = MappingProxyType({**self.values, "3": rules.black_three_in_hand})
        self.standard_cards = dict(self.hand_values) == CARD_VALUES
        most = {key: max(self.values[key], self.hand_values[key]) for key in self.values}
        self.deck = deck_totals(rules.decks, None if self.standard_cards else most)
        self.red_three_scores = _red_three_scores(rules)
        # For bisect: the minimum of a score is meld_minimums[bisect_right(thresholds, score)].
        self.meld_thresholds = tuple(t for t, _ in rules.initial_meld_table[1:])
        self.meld_minimums = tuple(m for _, m in rules.initial_meld_table)
        # Indexed by went_out (0 none, 1 out, 2 concealed).
        self.going_out_scores = (0, rules.going_out_bonus, rules.concealed_bonus)
        # A concealed hand includes a canasta whatever the rules ask for going out.
        self.canastas_needed = (0, rules.canastas_to_go_out, max(rules.canastas_to_go_out, 1))
        amounts = {
            "ask_to_go_out_failed": rules.penalty_ask_to_go_out,
            "discard_unused": rules.penalty_discard_unused,
            "red_three_in_hand": rules.penalty_red_three_in_hand,
        }
        # A player holding three or more of a kind's rank (Modern American sevens, aces).
        amounts.update((f"held_{kind.key}", kind.held) for kind in self.kinds if kind.held)
        self.penalty_amounts = MappingProxyType(amounts)
        self.team_word = "Player" if rules.players_per_team == 1 else "Team"
        self.teams_word = "Players" if rules.players_per_team == 1 else "Teams"


def deck_totals(decks: int, values=None) -> DeckTotals:
    """What ``decks`` decks hold; ``values`` are the card values when not the usual ones
    (each card at the most it can count, melded or left in hand)."""
    if values is None:
        points = CARD_POINTS_PER_DECK
    else:
        points = sum(values[key] * n for key, n in CARDS_PER_DECK.items())
    return DeckTotals(
        decks=decks,
        cards=CARDS_IN_DECK * decks,
        red_threes=RED_THREES_PER_DECK * decks,
        card_points=points * decks,
        per_natural_rank=CARDS_PER_DECK["A"] * decks,
        black_threes=CARDS_PER_DECK["3"] * decks,
        twos=CARDS_PER_DECK["2"] * decks,
        jokers=CARDS_PER_DECK["joker"] * decks,
    )


def _red_three_scores(rules: RuleSet) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points added to a team's hand score, indexed by [melded][number of red threes]."""
    most = RED_THREES_PER_DECK * rules.decks
    schedule = dict(rules.red_three_schedule)
    without = (
        schedule
        if rules.red_three_schedule_without_meld is None
        else dict(rules.red_three_schedule_without_meld)
    )
    value = rules.red_three_value
    melded = tuple(schedule.get(n, n * value) for n in range(most + 1))
    if rules.red_threes_negative_without_meld:
        unmelded = tuple(-without.get(n, n * value) for n in range(most + 1))
    else:
        unmelded = melded
    return unmelded, melded
