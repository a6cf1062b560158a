"""The initial meld: a team that has melded holds at least its minimum in melded points.

A team's first meld must count at least the minimum of its score before the hand (plus
the rise for each failed attempt in the hand), and melds never leave the table, so at
the end of the hand its melded card points are at least that much. The rule set's
``initial_meld_check`` says whether this is checked: ``except_concealed`` (the classic
rules: a player who goes out concealed melds without the minimum), ``always``, or
``never`` (games started before the check, which score as they did).
"""

from __future__ import annotations

from .._text import _, count, num
from ..results import Refusal
from ..rules.ruleset import initial_meld_minimum
from .going_out import CONCEALED


def check_initial_melds(rules, entries, scores, errors, hand=None):
    """Refuse every team whose melded points are below its initial-meld minimum."""
    check = rules.initial_meld_check
    if check == "never" or scores is None:
        return
    for i, (t, before) in enumerate(zip(entries, scores, strict=False)):
        if t is None or not t.melded or t.melded_points is None or t.failed_melds is None:
            continue
        if check == "except_concealed" and t.went_out == CONCEALED:
            continue
        if t.special_hand is not None:
            continue  # a special hand is not melded
        needed = initial_meld_minimum(rules, before, t.failed_melds, hand)
        if t.melded_points < needed:
            errors.append(_below_minimum(rules, i, t, before, needed, hand))


def _below_minimum(rules, i, t, before, needed, hand):
    who = rules.team_label(i)
    if rules.initial_meld_by_hand:
        why = _("the minimum of hand %(hand)s") % {"hand": num(hand or 1)}
        base_words = _("for hand %(hand)s") % {"hand": num(hand or 1)}
    else:
        why = _("its score before the hand was %(score)s") % {"score": num(before)}
        base_words = _("for a score of %(score)s") % {"score": num(before)}
    if t.failed_melds:
        base = initial_meld_minimum(rules, before, 0, hand)
        why = _("%(base)s %(base_words)s, plus %(rise)s for %(attempts)s") % {
            "base": num(base),
            "base_words": base_words,
            "rise": num(needed - base),
            "attempts": count(t.failed_melds, "%(n)s failed attempt", "%(n)s failed attempts"),
        }
    if t.melded_field == "melds":
        fix = _("add the missing cards to its melds (at least %(needed)s points)") % {
            "needed": num(needed)
        }
    else:
        fix = _("enter at least %(needed)s melded points") % {"needed": num(needed)}
    return Refusal(
        f"teams[{i}].{t.melded_field}",
        _(
            "%(who)s's first meld needed at least %(needed)s points of cards (%(why)s), but "
            "its melded cards count only %(melded)s; melds never leave the table, so %(fix)s, "
            "or correct the score before the hand."
        )
        % {
            "who": who,
            "needed": num(needed),
            "why": why,
            "melded": num(t.melded_points),
            "fix": fix,
        },
    )
