"""Going out: how a team's hand ended, and what it needed to end it that way.

``went_out`` is read first of a team's entries, because the black three rule of detailed
melds depends on it; it is kept as an index into :data:`WENT_OUT_VALUES` (the rule set's
``going_out_scores`` and ``canastas_needed`` are indexed the same way). A team that went
out must have melded and completed the canastas the rules ask for.
"""

from __future__ import annotations

from .._text import _, count, describe, ngettext, num, plural, quote, sentence_list
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


def check_going_out(rules, i, who, went_out, melded, canastas, unfinished, hp, special, errors):
    """A team that went out needs a meld and the canastas the rules ask for (of the
    kinds they ask for, none of a kind that stops it unfinished), unless it went out
    with a special hand (``special``: one was entered); a player who scores alone and
    went out has no cards left in hand."""
    if not special and melded is False:
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
    elif not special and canastas is not None:
        _check_canastas(rules, i, who, went_out, canastas, errors)
    if unfinished:
        for kind, n in zip(rules.kinds, unfinished, strict=True):
            if n and kind.blocks_going_out:
                errors.append(
                    Refusal(
                        f"teams[{i}].went_out",
                        _(
                            "%(who)s went out with %(melds)s for a %(kind)s; under these "
                            "rules a team cannot go out until it is a canasta."
                        )
                        % {
                            "who": who,
                            "melds": count(n, "%(n)s unfinished meld", "%(n)s unfinished melds"),
                            "kind": kind.word,
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


def _check_canastas(rules, i, who, went_out, canastas, errors):
    have = sum(canastas)
    need = rules.canastas_needed[went_out]
    if have < need:
        errors.append(
            Refusal(
                f"teams[{i}].went_out",
                (
                    _("%(who)s went out but has only %(canastas)s; %(needed)s.")
                    if have
                    # Never "0 canastas": Portuguese says "0 canastra" (its plural rule).
                    else _("%(who)s went out but has no canasta; %(needed)s.")
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
    for key, wanted in rules.going_out_kinds:
        k = rules.kind_keys.index(key)
        kind = rules.kinds[k]
        if canastas[k] < wanted:
            many = kind.plural
            got = (
                _("only %(canastas)s") % {"canastas": plural(canastas[k], kind.word, many)}
                if canastas[k]
                else _("no %(kind)s") % {"kind": kind.word}
            )
            errors.append(
                Refusal(
                    f"teams[{i}].went_out",
                    _(
                        "%(who)s went out with %(got)s; under these rules (%(label)s) "
                        "going out needs %(plural)s among its canastas."
                    )
                    % {
                        "who": who,
                        "got": got,
                        "label": rules.label,
                        "plural": plural(wanted, kind.word, many),
                    },
                )
            )


def read_special_hand(rules, i, who, value, went_out, errors):
    """The special hand a team went out with (its key), or None."""
    hands = dict(rules.special_hands)
    if not hands:
        errors.append(
            Refusal(
                f"teams[{i}].special_hand",
                _(
                    "%(who)s is marked for a special hand, but these rules "
                    "(%(label)s) have none; clear the special hand."
                )
                % {"who": who, "label": rules.label},
            )
        )
        return None
    if not isinstance(value, str) or value not in hands:
        errors.append(
            Refusal(
                f"teams[{i}].special_hand",
                _("%(who)s's special hand must be one of %(sentence_list)s, not %(value)s.")
                % {
                    "who": who,
                    "sentence_list": sentence_list(list(hands), "or"),
                    "value": describe(value) if not isinstance(value, str) else quote(value),
                },
            )
        )
        return None
    if went_out == NOT_OUT:
        errors.append(
            Refusal(
                f"teams[{i}].went_out",
                _("%(who)s has a special hand, which goes out; mark %(who)s as gone out.")
                % {"who": who},
            )
        )
    return value
