"""The rule set: every setting in which the sources of canasta disagree, in one value.

A :class:`RuleSet` is frozen and always valid: constructing one with impossible values
raises ``ValueError`` (the checks are in :mod:`.checks`). It computes its derived tables
once (:mod:`.tables`) and offers each through one property, so scoring reads them
instead of rebuilding them. A game keeps a copy of its rule set (:meth:`RuleSet.to_dict`),
so later changes never rescore old games.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field

from .._text import _, key_name, sentence_list
from .checks import check_values
from .fields import FIELDS_BY_NAME, RULESET_FIELD_NAMES
from .kinds import Kind, KindEntry
from .tables import DeckTotals, RuleTables


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every setting the scoring rules depend on. See :data:`RULESET_FIELDS` for help.

    ``red_three_schedule`` is a tuple of ``(count, total)`` pairs for the numbers of red
    threes that do not score ``count * red_three_value`` (e.g. ``((4, 800),)``).
    ``initial_meld_table`` is a tuple of ``(from_score, minimum)`` rows in rising order;
    the first row's ``from_score`` is ``None`` and covers every lower score, e.g.
    ``((None, 15), (0, 50), (1500, 90), (3000, 120))``: below 0 the minimum is 15.
    ``canasta_kinds`` is a tuple of :class:`~.kinds.KindEntry` (kinds besides natural
    and mixed); ``card_values`` a tuple of ``(card, points)`` pairs for every card;
    ``going_out_kinds`` and ``special_hands`` tuples of ``(name, number)`` pairs;
    ``initial_meld_by_hand`` a tuple of minimums, one per hand.
    """

    name: str
    label: str
    players: int
    teams: int
    players_per_team: int
    decks: int
    cards_dealt: int
    natural_canasta_bonus: int
    mixed_canasta_bonus: int
    red_three_value: int
    red_three_schedule: tuple[tuple[int, int], ...]
    red_three_schedule_without_meld: tuple[tuple[int, int], ...] | None
    red_threes_negative_without_meld: bool
    going_out_bonus: int
    concealed_bonus: int
    canastas_to_go_out: int
    initial_meld_table: tuple[tuple[int | None, int], ...]
    failed_meld_increase: int
    initial_meld_check: str
    target_score: int
    perfect_cut_enabled: bool
    perfect_cut_bonus: int
    penalty_ask_to_go_out: int
    penalty_discard_unused: int
    penalty_red_three_in_hand: int
    max_wild_per_meld: int
    min_naturals_per_meld: int
    wilds_may_not_outnumber_naturals: bool
    black_three_meld: bool
    card_values: tuple[tuple[str, int], ...] = ()
    canasta_kinds: tuple[KindEntry, ...] = ()
    red_threes_need_canastas: int = 0
    going_out_kinds: tuple[tuple[str, int], ...] = ()
    special_hands: tuple[tuple[str, int], ...] = ()
    initial_meld_by_hand: tuple[int, ...] = ()
    hands_in_game: int = 0
    max_meld_cards: int = 0
    one_meld_per_rank: bool = True
    black_three_in_hand: int = 5
    _tables: RuleTables | None = field(
        default=None, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in RULESET_FIELD_NAMES}
        normalised, errors = check_values(values)
        if errors:
            raise ValueError(" ".join(error.message for error in errors))
        for name, value in normalised.items():
            if value is not values[name]:
                object.__setattr__(self, name, value)
        object.__setattr__(self, "_tables", RuleTables(self))

    # -- conversions -------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """All settings as plain JSON values; :meth:`from_dict` gives the rule set back."""
        result: dict[str, object] = {}
        for name in RULESET_FIELD_NAMES:
            value = getattr(self, name)
            kind = FIELDS_BY_NAME[name].type
            if kind == "kinds":
                value = [entry.to_dict() for entry in value]
            elif kind == "card_values":
                value = dict(value)
            elif kind == "minimums":
                value = list(value)
            elif isinstance(value, tuple):
                value = [list(pair) for pair in value]
            result[name] = value
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """Strictly rebuild a stored rule set: every field present, nothing unknown.

        Raises ``ValueError`` naming every problem; use :func:`rules_from_spec` for input
        typed by people.
        """
        if not isinstance(data, Mapping):
            raise ValueError("A stored rule set must be an object of settings.")
        problems = []
        missing = [name for name in RULESET_FIELD_NAMES if name not in data]
        if missing:
            problems.append(f"The stored rule set lacks {sentence_list(missing)}.")
        unknown = [key_name(key) for key in data if key not in FIELDS_BY_NAME]
        if unknown:
            problems.append(f"The stored rule set has unknown settings {sentence_list(unknown)}.")
        if problems:
            raise ValueError(" ".join(problems))
        values, errors = check_values(dict(data))
        if errors:
            raise ValueError(" ".join(error.message for error in errors))
        return cls(**values)

    # -- derived tables (computed once, in .tables) ------------------------------------

    @property
    def kinds(self) -> tuple[Kind, ...]:
        """The game's kinds of canasta, natural and mixed included, in the order a
        canasta is matched against them (see :mod:`.kinds`)."""
        return self._tables.kinds

    @property
    def kind_keys(self) -> tuple[str, ...]:
        """The keys of :attr:`kinds`, in the same order."""
        return self._tables.kind_keys

    def kinds_by_shape(self, shape: str) -> tuple[Kind, ...]:
        """The game's kinds of one shape: ``"group"``, ``"wild"`` or ``"sequence"``."""
        return self._tables.kinds_by_shape[shape]

    @property
    def ranks_without_wild(self) -> frozenset[str]:
        """Ranks whose melds take no wild card (sevens in Modern American canasta)."""
        return self._tables.ranks_without_wild

    @property
    def values(self) -> Mapping[str, int]:
        """The points of each card, melded (by the keys of ``HAND_CARD_KEYS``)."""
        return self._tables.values

    @property
    def hand_values(self) -> Mapping[str, int]:
        """The points each card left in hand takes off (a black three: its own setting)."""
        return self._tables.hand_values

    @property
    def standard_cards(self) -> bool:
        """Whether every card counts as in classic canasta (the common case)."""
        return self._tables.standard_cards

    @property
    def deck_totals(self) -> DeckTotals:
        """What the decks hold: cards, red threes (2 a deck), card points (590 a deck),
        cards of each natural rank (4 a deck), black threes, twos and jokers."""
        return self._tables.deck

    @property
    def red_three_scores(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Points red threes add to a team's hand score (negative if a malus), indexed
        by ``[melded][number of red threes]``; :meth:`red_three_score` reads one."""
        return self._tables.red_three_scores

    @property
    def meld_thresholds(self) -> tuple[int, ...]:
        """The scores from which each row of ``initial_meld_table`` after the first
        applies, for ``bisect_right``; see :func:`initial_meld_minimum`."""
        return self._tables.meld_thresholds

    @property
    def meld_minimums(self) -> tuple[int, ...]:
        """The minimums of ``initial_meld_table``'s rows, in order: the minimum for a
        score is ``meld_minimums[bisect_right(meld_thresholds, score)]``."""
        return self._tables.meld_minimums

    @property
    def going_out_scores(self) -> tuple[int, int, int]:
        """The going-out bonus by ``went_out`` index (none, out, concealed)."""
        return self._tables.going_out_scores

    @property
    def canastas_needed(self) -> tuple[int, int, int]:
        """Canastas a team must have to go out, by ``went_out`` index (none, out,
        concealed): a concealed hand includes at least one whatever the setting."""
        return self._tables.canastas_needed

    @property
    def penalty_amounts(self) -> Mapping[str, int]:
        """Points each fixed penalty kind takes off (every kind but "other")."""
        return self._tables.penalty_amounts

    @property
    def perfect_cut_cards(self) -> int:
        """Cards a perfect cut must hold: the cards of the deal (44 for 4 players x 11)."""
        return self.players * self.cards_dealt

    @property
    def alone(self) -> bool:
        """Whether everyone plays alone (sides are players, not teams)."""
        return self._tables.team_word == "Player"

    @property
    def team_word(self) -> str:
        """How messages name a side: "Player" when everyone plays alone, else "Team"
        (in the reader's language)."""
        return _("Player") if self.alone else _("Team")

    @property
    def teams_word(self) -> str:
        """How messages name the sides together: "Players" or "Teams"."""
        return _("Players") if self.alone else _("Teams")

    def team_label(self, index: int) -> str:
        """How pages and messages name side ``index`` (0-based): "Team 1", "Player 2"."""
        label = _("Player %(number)s") if self.alone else _("Team %(number)s")
        return label % {"number": index + 1}

    def red_three_score(self, count: int, melded: bool) -> int:
        """Points ``count`` red threes add to a team's hand score (negative if a malus)."""
        return self._tables.red_three_scores[melded][count]

    def minimum(
        self, cumulative_score: int, failed_attempts: int = 0, hand: int | None = None
    ) -> int:
        """Shortcut for :func:`initial_meld_minimum`."""
        return initial_meld_minimum(self, cumulative_score, failed_attempts, hand)


def initial_meld_minimum(
    rules: RuleSet, cumulative_score: int, failed_attempts: int = 0, hand: int | None = None
) -> int:
    """The minimum count of a team's first meld, from its cumulative score before the hand.

    With the classic table: below 0 -> 15, 0 to 1,495 -> 50, 1,500 to 2,995 -> 90,
    3,000 and over -> 120. A game with minimums by hand (``initial_meld_by_hand``, such
    as Hand and Foot's 50, 90, 120, 150) takes the minimum of hand number ``hand``
    (counting from 1; the first when not given; the last for later hands) instead.
    Each failed initial meld in the hand raises the minimum for the rest of that hand
    by ``rules.failed_meld_increase`` (10).
    """
    by_hand = rules.initial_meld_by_hand
    if by_hand:
        minimum = by_hand[min(max(hand or 1, 1), len(by_hand)) - 1]
    else:
        minimum = rules.meld_minimums[bisect_right(rules.meld_thresholds, cumulative_score)]
    if failed_attempts > 0:
        minimum += failed_attempts * rules.failed_meld_increase
    return minimum
