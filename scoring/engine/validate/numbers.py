"""Single numbers of a team's entry, and the refusals that explain a wrong one.

Counts and points are whole numbers from 0 (points also multiples of 5); a missing one
means 0. Every reader of the package writes its number problems through here, so the
same mistake gets the same sentence wherever it is made.
"""

from __future__ import annotations

from .._text import describe, num, plural
from ..results import Refusal

#: What each team entry is called in messages ("Team 1's melded points ...").
TEAM_FIELD_WORDS = {
    "melded_points": "melded points",
    "natural_canastas": "number of natural canastas",
    "mixed_canastas": "number of mixed canastas",
    "red_threes": "number of red threes",
    "hand_points": "points left in hand",
    "failed_melds": "number of failed initial melds",
}


def bad_number(value: object, field: str, subject: str, points: bool) -> Refusal:
    """The refusal for a count or points entry that is not a whole number >= 0 (x5)."""
    if type(value) is bool:
        message = f"{subject} must be a number, not {describe(value)}."
    elif type(value) is float and value == value and value.is_integer():
        message = (
            f"{subject} must be a whole number written without a decimal point, "
            f"such as {num(int(value))}, not {describe(value)}."
            if abs(value) < 1e15
            else f"{subject} must be a whole number, not {describe(value)}."
        )
    elif type(value) is not int:
        message = f"{subject} must be a whole number, not {describe(value)}."
    elif value < 0:
        message = f"{subject} cannot be negative; {num(value)} was entered."
    else:  # a points entry that is not a multiple of 5
        message = (
            f"{subject} must be a multiple of 5, because every card counts 5, 10, 20 or "
            f"50 points; {num(value)} was entered."
        )
    return Refusal(field, message[0].upper() + message[1:])


def team_number(value, errors, i, who, key, points=False):
    """Slow path for a team's count or points: missing means 0, bad input a refusal."""
    if value is None:
        return 0
    if type(value) is int and value >= 0 and not (points and value % 5):
        return value
    subject = f"{who}'s {TEAM_FIELD_WORDS[key]}"
    errors.append(bad_number(value, f"teams[{i}].{key}", subject, points))
    return None


def disagree(i, who, key, given, found, source) -> Refusal:
    """A total entered beside the details it is worked out from, and different."""
    return Refusal(
        f"teams[{i}].{key}",
        f"{who}'s {TEAM_FIELD_WORDS[key]} says {num(given)}, but {source} give "
        f"{num(found)}; correct one of them, or leave {who}'s total empty.",
    )


def too_many_points(i, who, key, points, deck) -> Refusal:
    """A points total above what all the cards of the decks are worth."""
    return Refusal(
        f"teams[{i}].{key}",
        f"{who}'s {TEAM_FIELD_WORDS[key]} ({num(points)}) are more than all the cards of "
        f"{plural(deck.decks, 'deck')} are worth ({num(deck.card_points)}).",
    )
