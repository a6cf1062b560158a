"""The careful reading of a hand: every check of rules.md, each problem explained.

This is the path that writes refusals. :func:`careful_read` checks a whole hand and
returns one :class:`TeamEntry` per team (see :func:`scoring.engine.hand.score_hand`) or
the list of :class:`~scoring.engine.results.Refusal` found, collecting every problem
rather than stopping at the first. Fields are paths into the input
(``teams[1].melds[0]``, counting from 0); messages are sentences that number teams from
1 ("Team 2") or, when everyone plays alone, players ("Player 2").

Modules, in the order a hand is read:

- ``whole_hand``: :func:`careful_read`, the teams list and the scores before the hand;
- ``team``: one team's entry, a reader per field group, into a ``TeamEntry`` (``entry``);
- ``going_out``: ``went_out`` and what going out requires;
- ``totals``: melded points and canastas entered as totals (``melds``: card by card);
- ``in_hand``: the points or cards left in hand;
- ``bonuses``: red threes on the table and the perfect cut;
- ``penalties``: the fixed penalty kinds and "other" ones;
- ``cross_team``: the checks that need every team at once;
- ``numbers``: single counts and points, and the sentences for wrong ones.
"""

from ..results import INTERNAL_MESSAGE
from .entry import TeamEntry
from .going_out import WENT_OUT_VALUES
from .penalties import MAX_OTHER_PENALTY, PENALTY_KINDS
from .whole_hand import MAX_SCORE, careful_read

__all__ = [
    "INTERNAL_MESSAGE",
    "MAX_OTHER_PENALTY",
    "MAX_SCORE",
    "PENALTY_KINDS",
    "WENT_OUT_VALUES",
    "TeamEntry",
    "careful_read",
]
