"""What the engine hands back: refusals, one team's result, the outcome of a hand."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Keys of a team's breakdown, in the order the contract lists them. They add up to the
#: hand score; subtractions (cards left in hand, penalties) are negative numbers.
BREAKDOWN_KEYS: tuple[str, ...] = (
    "melded_cards",
    "canastas",
    "red_threes",
    "going_out",
    "perfect_cut",
    "cards_in_hand",
    "penalties",
)

#: The message of the one refusal given when the engine itself fails (a safety net that
#: the tests make sure is never reached).
INTERNAL_MESSAGE = (
    "This hand could not be scored because of a fault in the scoring program; "
    "please report the hand to the club's officers."
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """One problem with the input: where it is and what the score keeper should fix.

    ``field`` is a path into the input such as ``"teams[1].melds[0]"`` (indexes count
    from 0, as in the JSON); ``""`` means the input as a whole. ``message`` is a full
    sentence in plain English, numbering teams from 1 ("Team 1").
    """

    field: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


@dataclass(slots=True)
class TeamResult:
    """One team's score for a hand, with the totals the engine derived from the input.

    ``breakdown`` has the keys of :data:`BREAKDOWN_KEYS` and adds up to ``hand_score``.
    ``minimum_before`` is the initial-meld requirement the team had for this hand (from
    its score before it) and ``minimum_next`` the one for the next hand.
    """

    breakdown: dict[str, int]
    hand_score: int
    score_after: int
    minimum_before: int
    minimum_next: int
    melded_points: int
    natural_canastas: int
    mixed_canastas: int
    red_threes: int
    went_out: str
    hand_points: int
    perfect_cut: bool = False
    penalty_points: int = 0
    #: Canastas of each kind of the rules (natural and mixed included), by kind.
    canastas: dict[str, int] = field(default_factory=dict)
    #: Canastas of any kind without a wild card (natural, sevens, aces, sequences), and
    #: with wild cards (mixed, wild canastas): what stored totals count as natural and
    #: mixed canastas (in classic canasta, ``natural_canastas`` and ``mixed_canastas``).
    without_wild: int = 0
    with_wild: int = 0
    #: The special hand the team went out with, if any.
    special_hand: str | None = None

    def to_dict(self, derived: bool = False) -> dict[str, object]:
        """The contract's team result; with ``derived=True`` also the derived totals."""
        result: dict[str, object] = {
            "breakdown": dict(self.breakdown),
            "hand_score": self.hand_score,
            "score_after": self.score_after,
            "minimum_before": self.minimum_before,
            "minimum_next": self.minimum_next,
        }
        if derived:
            result.update(self.derived())
        return result

    def derived(self) -> dict[str, object]:
        """The totals behind the score, e.g. for statistics or to store with the hand:
        the canastas as stored totals count them (``natural_canastas`` without a wild
        card, ``mixed_canastas`` with wild cards, of any kind) and by kind
        (``canastas_by_kind``, the kinds the team has any of)."""
        return {
            "melded_points": self.melded_points,
            "natural_canastas": self.without_wild,
            "mixed_canastas": self.with_wild,
            "canastas_by_kind": {key: n for key, n in self.canastas.items() if n},
            "red_threes": self.red_threes,
            "went_out": self.went_out,
            "hand_points": self.hand_points,
            "perfect_cut": self.perfect_cut,
            "penalty_points": self.penalty_points,
        }


@dataclass(slots=True)
class HandOutcome:
    """The outcome of scoring one hand: either refusals, or one result per team.

    When ``errors`` is not empty the hand was refused and ``teams`` is empty.
    ``game_over`` is true when this hand ends the game; ``winner`` is then the index of
    the winning team (counting from 0, in the order the teams were given).
    """

    errors: list[Refusal] = field(default_factory=list)
    teams: list[TeamResult] = field(default_factory=list)
    game_over: bool = False
    winner: int | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, object]:
        """Exactly the contract's result object, or ``{"errors": [...]}`` when refused."""
        if self.errors:
            return {"errors": [error.to_dict() for error in self.errors]}
        return {
            "teams": [team.to_dict() for team in self.teams],
            "game_over": self.game_over,
            "winner": self.winner,
        }
