"""Going out: how a team's hand ended, and what it needed to end it that way.

``went_out`` is read first of a team's entries, because the black three rule of detailed
melds depends on it; it is kept as an index into :data:`WENT_OUT_VALUES` (the rule set's
``going_out_scores`` and ``canastas_needed`` are indexed the same way). A team that went
out must have melded and completed the canastas the rules ask for.
"""

from __future__ import annotations

from .._text import describe, num, plural
from ..results import Refusal

#: Values of ``went_out``; a team's entry keeps the index of its value.
WENT_OUT_VALUES: tuple[str, ...] = ("none", "out", "concealed")
NOT_OUT, OUT, CONCEALED = range(3)
_WENT_OUT = {"none": NOT_OUT, "out": OUT, "concealed": CONCEALED}


def read_went_out(i, who, value, errors):
    """The index of ``went_out`` (missing means none), or None when it was refused."""
    if value is None or value == "none":
        return NOT_OUT
    if isinstance(value, str) and value in _WENT_OUT:
        return _WENT_OUT[value]
    errors.append(
        Refusal(
            f"teams[{i}].went_out",
            f"{who}'s going out (went_out) must be none, out or concealed, not {describe(value)}.",
        )
    )
    return None


def check_going_out(rules, i, who, went_out, melded, nat, mix, hp, errors):
    """A team that went out needs a meld and the canastas the rules ask for; a player
    who scores alone and went out has no cards left in hand."""
    if melded is False:
        errors.append(
            Refusal(
                f"teams[{i}].went_out",
                f"{who} went out but has not melded; a team must meld, and complete "
                f"{plural(rules.canastas_needed[CONCEALED], 'canasta')}, before going out.",
            )
        )
    elif nat is not None and mix is not None:
        have = nat + mix
        need = rules.canastas_needed[went_out]
        if have < need:
            errors.append(
                Refusal(
                    f"teams[{i}].went_out",
                    f"{who} went out but has {'only ' if have else ''}"
                    f"{plural(have, 'canasta')}; {num(need)} "
                    f"{'is' if need == 1 else 'are'} needed to go out under these rules.",
                )
            )
    if rules.players_per_team == 1 and hp:
        errors.append(
            Refusal(
                f"teams[{i}].hand_points",
                f"{who} went out, so no cards were left in that player's hand; the "
                f"points left in hand must be 0, not {num(hp)}.",
            )
        )
