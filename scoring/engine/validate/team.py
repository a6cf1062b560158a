"""One team's entry, read a field group at a time into a :class:`~.entry.TeamEntry`.

The groups are read in a fixed order, so refusals always come in the same order:
the entry's shape, going out (the black three rule of melds depends on it), what was
melded, what was left in hand, red threes, the perfect cut, penalties, and last what
going out required. Each group has its own reader in its own module.
"""

from __future__ import annotations

from .._text import describe, key_name, quote, sentence_list
from ..results import Refusal
from .bonuses import read_perfect_cut, read_red_threes
from .entry import TeamEntry
from .going_out import NOT_OUT, OUT, check_going_out, read_special_hand, read_went_out
from .in_hand import read_hand_points
from .numbers import team_number
from .penalties import read_penalties
from .totals import read_melded

TEAM_KEYS = frozenset(
    {
        "melded_points",
        "natural_canastas",
        "mixed_canastas",
        "canastas",
        "unfinished",
        "special_hand",
        "melds",
        "red_threes",
        "went_out",
        "hand_points",
        "hand_cards",
        "perfect_cut",
        "penalties",
        "failed_melds",
    }
)
_TEAM_KEY_LIST = sentence_list(sorted(TEAM_KEYS))


def read_team(rules, deck, i, team, errors, counts):
    """Read and check one team's entry; card counts of detailed entries go to ``counts``.

    Returns None when the entry is not an object at all.
    """
    who = rules.team_label(i)
    if type(team) is not dict:
        errors.append(
            Refusal(
                f"teams[{i}]",
                f"{who} must be entered as an object of counts, such as "
                f'{{"melded_points": 120, "red_threes": 1}}, not {describe(team)}.',
            )
        )
        return None
    if not TEAM_KEYS.issuperset(team):
        _unknown_keys(i, who, team, errors)
    # The usual value of a field is taken here; its reader explains any other.
    value = team.get("went_out")
    went_out = NOT_OUT if value is None or value == "none" else read_went_out(i, who, value, errors)
    special = team.get("special_hand")
    special_given = special is not None
    if special_given:
        if value is None:
            went_out = OUT  # a special hand goes out
        special = read_special_hand(rules, i, who, special, went_out, errors)
    mp, canastas, unfinished, melded, melded_refused = read_melded(
        rules, deck, i, who, team, went_out, errors, counts
    )
    hp, hand_refused = read_hand_points(rules, deck, i, who, team, errors, counts)
    red = team.get("red_threes")
    if type(red) is not int or not 0 <= red <= deck.red_threes:
        red = read_red_threes(deck, i, who, red, errors)
    value = team.get("perfect_cut")
    cut = (
        False if value is None or value is False else read_perfect_cut(rules, i, who, value, errors)
    )
    value = team.get("penalties")
    if value is None or value == []:
        penalty, red_in_hand = 0, 0
    else:
        penalty, red_in_hand = read_penalties(rules, i, who, value, errors)
    if went_out:
        check_going_out(
            rules, i, who, went_out, melded, canastas, unfinished, hp, special_given, errors
        )
    value = team.get("failed_melds")
    failed = (
        value
        if type(value) is int and value >= 0
        else team_number(value, errors, i, who, "failed_melds")
    )
    # In the order of TeamEntry's fields; _make is the quickest way to build one, and
    # this runs for every team of every hand.
    return TeamEntry._make(
        (
            mp, canastas, unfinished, melded, red, went_out, hp, cut, penalty, red_in_hand,
            melded_refused or hand_refused, failed,
            "melds" if "melds" in team else "melded_points", special,
        )
    )  # fmt: skip


def _unknown_keys(i, who, team, errors):
    for key in team:
        if key not in TEAM_KEYS:
            errors.append(
                Refusal(
                    f"teams[{i}].{key_name(key)}",
                    f"{who} has an entry {quote(key_name(key))} that is not part of a "
                    f"hand; check its spelling (the entries are {_TEAM_KEY_LIST}).",
                )
            )
