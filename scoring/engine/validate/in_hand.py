"""What a team was left holding: the points of the cards in its players' hands.

Entered as a total (``hand_points``) or card by card (``hand_cards``, e.g.
``{"A": 1, "4": 2}``); the cards of a detailed entry are counted, so the whole hand can
be checked against what the decks hold, and a total entered beside them must agree.
"""

from __future__ import annotations

from .._text import _, describe, gettext_noop, key_name, quote
from ..cards import CARD_VALUES, card_plural
from ..results import Refusal
from .numbers import bad_number, disagree, team_number, too_many_points

_HAND_CARD_LIST = gettext_noop("joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)")


def read_hand_points(rules, deck, i, who, team, errors, counts):
    """(points left in hand or None if refused, points refused as too many)."""
    raw_hp = team.get("hand_points")
    if type(raw_hp) is int and raw_hp >= 0 and not raw_hp % 5:
        hp = raw_hp
    else:
        hp = team_number(raw_hp, errors, i, who, "hand_points", True)
    hand_cards = team.get("hand_cards")
    if hand_cards is not None:
        found = _read_hand_cards(rules, i, who, hand_cards, errors, counts)
        if found is None:
            return None, False
        if type(raw_hp) is int and raw_hp >= 0 and raw_hp != found:
            errors.append(disagree(i, who, "hand_points", raw_hp, found, _("the cards in hand")))
        return found, False
    if hp is not None and hp > deck.card_points:
        errors.append(too_many_points(i, who, "hand_points", hp, deck))
        return hp, True
    return hp, False


def _read_hand_cards(rules, i, who, hand_cards, errors, counts):
    """Check ``hand_cards`` ({"A": 1, "4": 1}); returns their points or None."""
    if type(hand_cards) is not dict:
        errors.append(
            Refusal(
                f"teams[{i}].hand_cards",
                _(
                    "%(who)s's cards in hand (hand_cards) must be an object of counts by card, "
                    'such as {"A": 1, "4": 2}, not %(value)s.'
                )
                % {"who": who, "value": describe(hand_cards)},
            )
        )
        return None
    errors_before = len(errors)
    values = rules.hand_values
    points = 0
    found = []
    for key, value in hand_cards.items():
        if key not in CARD_VALUES:
            errors.append(
                Refusal(
                    f"teams[{i}].hand_cards.{key_name(key)}",
                    _(
                        "%(who)s's cards in hand list %(key)s, which is not a card a hand can "
                        "hold; use %(cards)s. A red three kept in hand is entered as %(who)s's "
                        "penalty for a red three kept in hand."
                    )
                    % {"who": who, "key": quote(key_name(key)), "cards": _(_HAND_CARD_LIST)},
                )
            )
            continue
        if value is None:
            continue
        if type(value) is not int or value < 0:
            errors.append(
                bad_number(
                    value,
                    f"teams[{i}].hand_cards.{key}",
                    _("%(who)s's count of %(cards)s in hand")
                    % {"who": who, "cards": card_plural(key)},
                    False,
                )
            )
            continue
        points += values[key] * value
        found.append((key, value))
    for key, value in found:
        counts[key] = counts.get(key, 0) + value
    if len(errors) > errors_before:
        return None
    return points
