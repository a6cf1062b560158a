"""The hands the benchmark's tables type: pure Python (the Locust process imports it
without Django).

In about two hands of five a team goes out (two canastas, as the club rules ask, and
its melds), which scores it 1,000 to 1,200; otherwise the stock ran out (nobody went
out), each team's melds worth 120 to 200 and its cards left in hand 100 to 225, about
zero on average. Valid under the club rules whatever the score; a game reaches 5,000
after about 18 hands (10 to 28 in nine games of ten), nearly an hour at a hand every
three minutes, so a busy night finishes a game about every two seconds at 2,000
tables, as a real one does.
"""

from __future__ import annotations

import random
import re

#: The share of hands in which a team goes out.
OUT_SHARE = 0.4
#: What a phone reads on the pages: the next-game page's partner draw (the first
#: choice of who drew the higher card), and the game the table page's hand form saves to.
HIGH_CARD = re.compile(r'name="high_card" value="(\d+)"')
# The hand form's address, at / or under a club's /<slug>/ on a shared site.
HAND_FORM = re.compile(r'action="(?:/[a-z0-9-]+)?/games/(\d+)/hands/new/"')


def random_hand(rng: random.Random, teams: int = 2) -> list[dict]:
    """The quick-entry team inputs of one hand."""
    hand = [
        {
            "melded_points": 5 * rng.randint(24, 40),
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "hand_points": 5 * rng.randint(20, 45),
            "red_threes": 0,
            "went_out": "none",
        }
        for _ in range(teams)
    ]
    if rng.random() < OUT_SHARE:
        hand[rng.randrange(teams)].update(
            melded_points=5 * rng.randint(30, 50),
            natural_canastas=1,
            mixed_canastas=1,
            hand_points=0,
            went_out="out",
        )
    return hand


def form_data(teams: list[dict], number: int, action: str = "save", key: str = "") -> dict:
    """What the table page's hand form posts for these inputs (quick entry)."""
    data = {"number": str(number), "action": action}
    if key:
        data["key"] = key
    for i, team in enumerate(teams):
        data[f"t{i}-mode"] = "quick"
        for name, value in team.items():
            if value not in (0, "", None):
                data[f"t{i}-{name}"] = str(value)
    return data
