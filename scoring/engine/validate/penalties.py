"""A team's penalties: the fixed kinds the rules price, and "other" ones an officer sets.

The usual entry is just a kind (``{"kind": "discard_unused"}``), priced by the rule
set's ``penalty_amounts``; a penalty of kind ``other`` carries its own points and a
note. A red three kept in hand is a penalty, and also counts among the hand's red
threes (a cross-team check).
"""

from __future__ import annotations

from .._text import _, count, describe, gettext_noop, key_name, num, quote
from ..cards import card_plural
from ..results import Refusal
from ..rules.kinds import CATALOGUE_BY_KEY

PENALTY_KINDS: tuple[str, ...] = (
    "ask_to_go_out_failed",
    "discard_unused",
    "red_three_in_hand",
    "other",
)

#: Largest penalty of kind "other" an officer can enter.
MAX_OTHER_PENALTY = 100_000

_PENALTY_KEYS = frozenset({"kind", "points", "note"})
_PENALTY_WORDS = {
    "ask_to_go_out_failed": gettext_noop("failing to go out after asking"),
    "discard_unused": gettext_noop("not using the top discard"),
    "red_three_in_hand": gettext_noop("a red three kept in hand"),
}


def penalty_words(kind: str) -> str:
    """What a penalty is for, in words: "a red three kept in hand", "holding three or
    more sevens" (a kind's penalty for holding three or more of its rank)."""
    if kind.startswith("held_"):
        rank = CATALOGUE_BY_KEY[kind.removeprefix("held_")].rank
        return _("holding three or more %(cards)s") % {"cards": card_plural(rank)}
    return _(_PENALTY_WORDS[kind])


def read_penalties(rules, i, who, penalties, errors):
    """Check penalties; returns (points to subtract, red threes kept in hand)."""
    if type(penalties) is not list:
        errors.append(
            Refusal(
                f"teams[{i}].penalties",
                _(
                    '%(who)s\'s penalties must be a list such as [{"kind": '
                    '"discard_unused"}], not %(describe)s.'
                )
                % {"who": who, "describe": describe(penalties)},
            )
        )
        return 0, 0
    amounts = rules.penalty_amounts
    total = red_in_hand = 0
    for k, penalty in enumerate(penalties):
        if type(penalty) is dict and len(penalty) == 1:
            kind = penalty.get("kind")
            if type(kind) is str and kind in amounts:  # the usual case: just a kind
                total += amounts[kind]
                if kind == "red_three_in_hand":
                    red_in_hand += 1
                continue
        points, red = _explain_penalty(
            amounts, f"teams[{i}].penalties[{k}]", who, k, penalty, errors
        )
        total += points
        red_in_hand += red
    return total, red_in_hand


def _explain_penalty(amounts, where, who, k, penalty, errors):
    """Read one penalty in full, explaining every problem; returns (points, red threes
    kept in hand) it adds, 0 for what was refused."""
    if type(penalty) is not dict:
        errors.append(
            Refusal(
                where,
                _(
                    '%(who)s\'s penalty %(value)s must be an object such as {"kind": '
                    '"discard_unused"}, not %(describe)s.'
                )
                % {"who": who, "value": k + 1, "describe": describe(penalty)},
            )
        )
        return 0, 0
    if not _PENALTY_KEYS.issuperset(penalty):
        _unknown_penalty_keys(where, who, k, penalty, errors)
    kind = penalty.get("kind")
    points = penalty.get("points")
    note = penalty.get("note")
    if note is not None and not isinstance(note, str):
        errors.append(
            Refusal(
                f"{where}.note",
                _("The note of %(who)s's penalty %(value)s must be text, not %(describe)s.")
                % {"who": who, "value": k + 1, "describe": describe(note)},
            )
        )
    if not (isinstance(kind, str) and (kind in PENALTY_KINDS or kind in amounts)):
        held = "".join(
            f" {penalty_words(name)} ({name})," for name in amounts if name.startswith("held_")
        )
        errors.append(
            Refusal(
                f"{where}.kind",
                _(
                    "%(who)s's penalty %(value)s needs a kind: failing to go out "
                    "after asking (ask_to_go_out_failed), not using the top discard "
                    "(discard_unused), a red three kept in hand "
                    "(red_three_in_hand),%(held)s or another penalty (other, with "
                    "its points and a note); not %(describe)s."
                )
                % {"who": who, "value": k + 1, "held": held, "describe": describe(kind)},
            )
        )
        return 0, 0
    if kind == "other":
        return _other_penalty(where, who, k, points, note, errors), 0
    amount = amounts[kind]
    if points is not None and not (type(points) is int and points == amount):
        errors.append(
            Refusal(
                f"{where}.points",
                _(
                    "The penalty for %(penalty)s is %(points)s under these rules; leave "
                    "%(who)s's points out or enter %(amount)s."
                )
                % {
                    "penalty": penalty_words(kind),
                    "points": count(amount, "%(n)s point", "%(n)s points"),
                    "who": who,
                    "amount": num(amount),
                },
            )
        )
        return 0, 0
    return amount, 1 if kind == "red_three_in_hand" else 0


def _unknown_penalty_keys(where, who, k, penalty, errors):
    for key in penalty:
        if key not in _PENALTY_KEYS:
            errors.append(
                Refusal(
                    f"{where}.{key_name(key)}",
                    _(
                        "%(who)s's penalty %(value)s has an entry %(quote)s that a "
                        "penalty does not have; use kind, points and note."
                    )
                    % {"who": who, "value": k + 1, "quote": quote(key_name(key))},
                )
            )


def _other_penalty(where, who, k, points, note, errors):
    """A penalty of kind "other": its points (0 if refused) and a note are required."""
    if not (type(points) is int and 0 < points <= MAX_OTHER_PENALTY and not points % 5):
        errors.append(
            Refusal(
                f"{where}.points",
                _(
                    "%(who)s's other penalty %(penalty)s needs its points: a whole number "
                    "above 0 and up to %(most)s, a multiple of 5 (it is subtracted); not "
                    "%(value)s."
                )
                % {
                    "who": who,
                    "penalty": k + 1,
                    "most": num(MAX_OTHER_PENALTY),
                    "value": describe(points),
                },
            )
        )
        points = 0
    if (note is None or isinstance(note, str)) and not (note and note.strip()):
        errors.append(
            Refusal(
                f"{where}.note",
                _("%(who)s's other penalty %(penalty)s needs a note saying what it is for.")
                % {"who": who, "penalty": k + 1},
            )
        )
    return points
