"""The conflict panel's words for a hand typed card by card are the reader's: a
sequence, a meld of wild cards and a special hand in Spanish and Portuguese too."""

import pytest
from django.utils import translation

from scoring.templatetags.hand_words import team_items

CARD_BY_CARD = {
    "melds": [
        {"sequence": ["4", "5", "6", "7", "8", "9", "10"]},
        {"rank": "wild", "jokers": 2, "twos": 1},
        {"rank": "K", "naturals": 5, "jokers": 1},
    ],
    "hand_cards": {},
    "special_hand": "pairs_with_wilds",
    "red_threes": 1,
    "went_out": "none",
}


@pytest.mark.parametrize(
    ("language", "melds", "special"),
    [
        (
            "en",
            ["Sequence 4–10", "Wild cards: 2 jokers + 1 twos", "Kings 5 + 1 jokers"],
            ("Special hand", "Pairs with wild cards"),
        ),
        (
            "es",
            ["Escalera 4–10", "Comodines: 2 jokers + 1 doses", "Reyes 5 + 1 jokers"],
            ("Mano especial", "Pares con comodines"),
        ),
        (
            "pt-br",
            ["Sequência 4–10", "Curingas: 2 coringas + 1 dois", "Reis 5 + 1 coringas"],
            ("Mão especial", "Pares com curingas"),
        ),
    ],
)
def test_a_hand_typed_card_by_card_in_the_readers_words(language, melds, special):
    with translation.override(language):
        items = {str(item): str(words) for item, words in team_items(CARD_BY_CARD).items()}
    assert ", ".join(melds) in items.values()
    assert items[special[0]] == special[1]
