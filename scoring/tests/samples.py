"""The sample hands every test scores: team dicts in the scoring contract's shape.

Pure data (no Django), so the engine's tests use it as well as the database tests.
Scores are for the club's rules (``scoring/tests/engine/test_samples.py`` checks each
one with the engine):

- ``WIN``: 400 melded + 2 natural canastas (1,000) + 1 mixed (300) + 1 red three (100)
  + going out (100) = **1,900**. With ``LOSE`` alongside, three hands end a game
  (5,700 to 450).
- ``LOSE``: 200 melded − 50 left in hand = **150**.
- ``CONCEALED``: ``WIN`` gone out concealed (200) with four red threes (800) and a
  perfect cut (100) = **2,800**.
- ``BIG``: 400 melded + 1 natural (500) + 1 mixed (300) + 1 red three (100) + going
  out (100) = **1,400**; with ``SMALL`` alongside, four hands end a game (5,600 to 320).
- ``SMALL``: 120 melded − 40 left in hand = **80**.

``CONTRACT_EXAMPLE`` is the whole request of the scoring contract's worked example
(classic rules, scores before 1,490 and 3,000).
"""

from __future__ import annotations


def quick(melded=0, natural=0, mixed=0, red=0, out="none", hand=0, cut=False, penalties=()):
    """A team dict in quick form (totals, as a score keeper types them on the sheet)."""
    return {
        "melded_points": melded,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "hand_points": hand,
        "red_threes": red,
        "went_out": out,
        "perfect_cut": cut,
        "penalties": list(penalties),
    }


WIN = quick(melded=400, natural=2, mixed=1, red=1, out="out")
LOSE = quick(melded=200, hand=50)
CONCEALED = quick(melded=400, natural=2, mixed=1, red=4, out="concealed", cut=True)
BIG = quick(melded=400, natural=1, mixed=1, red=1, out="out")
SMALL = quick(melded=120, hand=40)

WIN_SCORE, LOSE_SCORE, CONCEALED_SCORE = 1900, 150, 2800
BIG_SCORE, SMALL_SCORE = 1400, 80

CONTRACT_EXAMPLE = {
    "rules": "classic",
    "scores_before": [1490, 3000],
    "teams": [
        {
            "melded_points": 420,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 2,
            "went_out": "out",
            "hand_points": 35,
            "perfect_cut": False,
            "penalties": [],
        },
        {
            "melds": [
                {"rank": "K", "naturals": 7},
                {"rank": "Q", "naturals": 5, "jokers": 1, "twos": 1},
                {"rank": "5", "naturals": 3},
            ],
            "red_threes": 0,
            "went_out": "none",
            "hand_cards": {"A": 1, "4": 1},
            "penalties": [{"kind": "discard_unused"}],
        },
    ],
}

#: What the contract's worked example says team one scores (scoring-contract.md).
CONTRACT_EXAMPLE_TEAM_ONE = {
    "breakdown": {
        "melded_cards": 420,
        "canastas": 800,
        "red_threes": 200,
        "going_out": 100,
        "perfect_cut": 0,
        "cards_in_hand": -35,
        "penalties": 0,
    },
    "hand_score": 1485,
    "score_after": 2975,
    "minimum_before": 50,
    "minimum_next": 90,
}
