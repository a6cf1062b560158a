"""Single numbers of a team's entry, and the refusals that explain a wrong one.

Counts and points are whole numbers from 0 (points also multiples of 5); a missing one
means 0. Every reader of the package writes its number problems through here, so the
same mistake gets the same sentence wherever it is made.
"""

from __future__ import annotations

from .._text import _, count, describe, gettext_noop, num
from ..results import Refusal

#: What each team entry is called in messages ("Team 1's melded points ...").
#: (In English here; :func:`field_words` says them in the reader's language.)
TEAM_FIELD_WORDS = {
    "melded_points": gettext_noop("melded points"),
    "natural_canastas": gettext_noop("number of natural canastas"),
    "mixed_canastas": gettext_noop("number of mixed canastas"),
    "red_threes": gettext_noop("number of red threes"),
    "hand_points": gettext_noop("points left in hand"),
    "failed_melds": gettext_noop("number of failed initial melds"),
}


def field_words(who: str, key: str) -> str:
    """ "Team 1's melded points", in the reader's language."""
    return _("%(who)s's %(what)s") % {"who": who, "what": _(TEAM_FIELD_WORDS[key])}


def sentence(message: str) -> str:
    """The message with its first letter a capital: in Spanish and Portuguese the subject
    ("puntos bajados del Equipo 1") comes first and starts in a small letter."""
    return message[:1].upper() + message[1:]


def bad_number(value: object, field: str, subject: str, points: bool) -> Refusal:
    """The refusal for a count or points entry that is not a whole number >= 0 (x5)."""
    words = {"subject": subject, "value": describe(value)}
    if type(value) is bool:
        message = _("%(subject)s must be a number, not %(value)s.") % words
    elif type(value) is float and value == value and value.is_integer():
        message = (
            _(
                "%(subject)s must be a whole number written without a decimal point, "
                "such as %(example)s, not %(value)s."
            )
            % {**words, "example": num(int(value))}
            if abs(value) < 1e15
            else _("%(subject)s must be a whole number, not %(value)s.") % words
        )
    elif type(value) is not int:
        message = _("%(subject)s must be a whole number, not %(value)s.") % words
    elif value < 0:
        message = _("%(subject)s cannot be negative; %(value)s was entered.") % words
    else:  # a points entry that is not a multiple of 5
        message = (
            _(
                "%(subject)s must be a multiple of 5, because every card counts 5, 10, 20 "
                "or 50 points; %(value)s was entered."
            )
            % words
        )
    return Refusal(field, sentence(message))


def team_number(value, errors, i, who, key, points=False):
    """Slow path for a team's count or points: missing means 0, bad input a refusal."""
    if value is None:
        return 0
    if type(value) is int and value >= 0 and not (points and value % 5):
        return value
    subject = field_words(who, key)
    errors.append(bad_number(value, f"teams[{i}].{key}", subject, points))
    return None


def disagree(i, who, key, given, found, source) -> Refusal:
    """A total entered beside the details it is worked out from, and different."""
    return Refusal(
        f"teams[{i}].{key}",
        sentence(
            _(
                "%(subject)s says %(given)s, but %(source)s give %(found)s; correct one of "
                "them, or leave %(who)s's total empty."
            )
            % {
                "subject": field_words(who, key),
                "given": num(given),
                "source": source,
                "found": num(found),
                "who": who,
            }
        ),
    )


def too_many_points(i, who, key, points, deck) -> Refusal:
    """A points total above what all the cards of the decks are worth."""
    return Refusal(
        f"teams[{i}].{key}",
        sentence(
            _(
                "%(subject)s (%(points)s) are more than all the cards of %(decks)s are worth "
                "(%(all)s)."
            )
            % {
                "subject": field_words(who, key),
                "points": num(points),
                "decks": decks_words(deck.decks),
                "all": num(deck.card_points),
            }
        ),
    )


def decks_words(decks: int) -> str:
    """ "2 decks"."""
    return count(decks, "%(n)s deck", "%(n)s decks")
