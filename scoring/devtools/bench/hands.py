"""The hands the benchmark's tables type: pure Python (the Locust process imports it
without Django).

A hand where the stock ran out (nobody went out), each team's melds worth 120 to 200
and its cards left in hand 100 to 225: valid under the club rules whatever the score,
and about zero on average, so a game goes on all night and every save records a hand.
"""

from __future__ import annotations

import random


def random_hand(rng: random.Random, teams: int = 2) -> list[dict]:
    """The quick-entry team inputs of one hand."""
    return [
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
