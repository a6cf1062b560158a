"""A team's bonus entries: red threes on the table and the perfect cut mark.

Red threes cannot be more than the decks hold; the perfect cut (a club house rule) may
only be marked when the rules give a bonus for it. Whether the whole table has too many
red threes, or more than one perfect cut, is a cross-team check.
"""

from __future__ import annotations

from .._text import _, describe, num
from ..results import Refusal
from .numbers import decks_words, team_number


def read_red_threes(deck, i, who, value, errors):
    """The number of red threes on the team's table, or None if refused."""
    if type(value) is int and value >= 0:
        red = value
    else:
        red = team_number(value, errors, i, who, "red_threes")
    if red is not None and red > deck.red_threes:
        errors.append(
            Refusal(
                f"teams[{i}].red_threes",
                _("%(who)s has %(red)s red threes, but %(decks)s hold only %(most)s.")
                % {
                    "who": who,
                    "red": num(red),
                    "decks": decks_words(deck.decks),
                    "most": deck.red_threes,
                },
            )
        )
        return None
    return red


def read_perfect_cut(rules, i, who, value, errors):
    """Whether the team is marked for a perfect cut (False when the mark is refused)."""
    if value is None or value is False:
        return False
    if value is True:
        if not rules.perfect_cut_enabled:
            errors.append(
                Refusal(
                    f"teams[{i}].perfect_cut",
                    _(
                        "%(who)s is marked for a perfect cut, but these rules (%(rules)s) have "
                        "no perfect cut bonus; clear the perfect cut mark."
                    )
                    % {"who": who, "rules": rules.label},
                )
            )
        return True
    errors.append(
        Refusal(
            f"teams[{i}].perfect_cut",
            _("%(who)s's perfect cut mark must be true or false, not %(value)s.")
            % {"who": who, "value": describe(value)},
        )
    )
    return False
