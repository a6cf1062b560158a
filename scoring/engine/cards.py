"""Cards, their point values and how many of each a pack of decks holds.

Canasta is played with standard 52-card decks plus two jokers each (54 cards a deck).
Per deck: 4 of each natural rank (A, K ... 4), 2 black threes, 2 red threes, 4 twos and
2 jokers. Red threes are bonus cards and never have a card value; every other card has
one, and the card points of one deck (red threes left out) add up to 590, so 1,180 for
the usual two decks.
"""

from __future__ import annotations

from ._text import _, gettext_noop

#: Point value of every card that can be melded or left in a hand. "3" is a black three.
CARD_VALUES: dict[str, int] = {
    "joker": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
    "3": 5,
}

#: Ranks a meld can have, highest first. "3" is a meld of black threes (only when going out).
MELD_RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")

#: The natural ranks: every meld rank except black threes.
NATURAL_RANKS: tuple[str, ...] = MELD_RANKS[:-1]

#: Keys of a team's ``hand_cards`` object: the cards a player can be caught holding.
HAND_CARD_KEYS: tuple[str, ...] = (
    "joker",
    "2",
    "A",
    "K",
    "Q",
    "J",
    "10",
    "9",
    "8",
    "7",
    "6",
    "5",
    "4",
    "3",
)

#: How many of each card one deck holds (red threes are counted separately).
CARDS_PER_DECK: dict[str, int] = dict.fromkeys(NATURAL_RANKS, 4)
CARDS_PER_DECK.update({"3": 2, "2": 4, "joker": 2})

#: Red threes in one deck.
RED_THREES_PER_DECK = 2

#: Cards in one deck, jokers included.
CARDS_IN_DECK = 54

#: Card points of one deck, red threes left out: 1,180 for two decks.
CARD_POINTS_PER_DECK: int = sum(CARD_VALUES[key] * n for key, n in CARDS_PER_DECK.items())


#: Plural names used in messages to score keepers, in English (:func:`card_plural`
#: says them in the reader's language).
CARD_PLURALS: dict[str, str] = {
    "joker": gettext_noop("jokers"),
    "2": gettext_noop("twos"),
    "A": gettext_noop("aces"),
    "K": gettext_noop("kings"),
    "Q": gettext_noop("queens"),
    "J": gettext_noop("jacks"),
    "10": gettext_noop("tens"),
    "9": gettext_noop("nines"),
    "8": gettext_noop("eights"),
    "7": gettext_noop("sevens"),
    "6": gettext_noop("sixes"),
    "5": gettext_noop("fives"),
    "4": gettext_noop("fours"),
    "3": gettext_noop("black threes"),
}


def card_plural(key: str) -> str:
    """``"kings"`` in the reader's language."""
    return _(CARD_PLURALS[key])


assert CARD_POINTS_PER_DECK == 590
