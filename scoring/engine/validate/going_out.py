"""Going out: how a team's hand ended, and what it needed to end it that way.

``went_out`` is read first of a team's entries, because the black three rule of detailed
melds depends on it; it is kept as an index into :data:`WENT_OUT_VALUES` (the rule set's
``going_out_scores`` and ``canastas_needed`` are indexed the same way). A team that went
out must have melded and completed the canastas the rules ask for.
"""

from __future__ import annotations

from .._text import _, count, describe, ngettext, num
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
            _("%(who)s's going out (went_out) must be none, out or concealed, not %(value)s.")
            % {"who": who, "value": describe(value)},
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
                _(
                    "%(who)s went out but has not melded; a team must meld, and complete "
                    "%(canastas)s, before going out."
                )
                % {
                    "who": who,
                    "canastas": count(
                        rules.canastas_needed[CONCEALED], "%(n)s canasta", "%(n)s canastas"
                    ),
                },
            )
        )
    elif nat is not None and mix is not None:
        have = nat + mix
        need = rules.canastas_needed[went_out]
        if have < need:
            errors.append(
                Refusal(
                    f"teams[{i}].went_out",
                    (
                        _("%(who)s went out but has only %(canastas)s; %(needed)s.")
                        if have
                        else _("%(who)s went out but has %(canastas)s; %(needed)s.")
                    )
                    % {
                        "who": who,
                        "canastas": count(have, "%(n)s canasta", "%(n)s canastas"),
                        "needed": ngettext(
                            "%(n)s is needed to go out under these rules",
                            "%(n)s are needed to go out under these rules",
                            need,
                        )
                        % {"n": num(need)},
                    },
                )
            )
    if rules.players_per_team == 1 and hp:
        errors.append(
            Refusal(
                f"teams[{i}].hand_points",
                _(
                    "%(who)s went out, so no cards were left in that player's hand; the "
                    "points left in hand must be 0, not %(points)s."
                )
                % {"who": who, "points": num(hp)},
            )
        )
