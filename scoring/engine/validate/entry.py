"""What one team's entry says once read: the values scoring adds up, with names.

:func:`~.team.read_team` builds one :class:`TeamEntry` per team and
:func:`~scoring.engine.hand.score_hand` adds up the entries of a hand that passed every
check. While a hand is read, ``None`` marks a value that was refused.
"""

from __future__ import annotations

from typing import NamedTuple


class TeamEntry(NamedTuple):
    """One team's entry, read and checked; in an accepted hand no value is None."""

    #: Points of the team's melded cards (worked out from ``melds`` when given).
    melded_points: int | None
    #: Canastas of each kind, in the order of ``rules.kinds``.
    canastas: tuple[int, ...] | None
    #: Unfinished melds of each kind (only kinds whose rules care), same order.
    unfinished: tuple[int, ...] | None
    #: Whether the team has melded at all (decides the sign of its red threes).
    melded: bool | None
    #: Red threes on the team's table.
    red_threes: int | None
    #: How the team's hand ended: an index into ``WENT_OUT_VALUES`` (0 none, 1 out,
    #: 2 concealed), as the rule set's ``going_out_scores`` is indexed.
    went_out: int | None
    #: Points of the cards left in the partners' hands (from ``hand_cards`` when given).
    hand_points: int | None
    perfect_cut: bool
    #: Points the team's penalties take off, all kinds together.
    penalty_points: int
    #: Red threes kept in hand (penalties): they count among the hand's red threes.
    red_threes_in_hand: int
    #: A points total was refused as more than the decks hold, so the hand's card
    #: points are not checked again.
    points_refused: bool
    #: Failed initial melds in this hand: each raises the team's minimum.
    failed_melds: int | None
    #: Where a refusal of the melded points points to: ``melds`` or ``melded_points``.
    melded_field: str
    #: The special hand the team went out with (a key of ``rules.special_hands``).
    special_hand: str | None = None
