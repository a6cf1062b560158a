"""Plausible random hands, for the generated league and the benchmark.

Pure (no database): given a rule set, the scores so far and a `random.Random`, it
returns the contract-shaped team inputs of a hand that the engine accepts. The shapes
follow real club play: one team goes out most hands, canastas are common, hands left
are small, red threes are spread at random, penalties and perfect cuts are rare.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from scoring import engine
from scoring.engine.validate.canastas import cheapest_canastas


def _team(rng: random.Random, rules: engine.RuleSet, going_out: str, red_threes: int) -> dict:
    goes_out = going_out != "none"
    melded = goes_out or rng.random() < 0.93
    if not melded:
        return {
            "melded_points": 0,
            "red_threes": red_threes,
            "went_out": "none",
            "hand_points": 5 * rng.randint(8, 40),
        }
    need = rules.canastas_to_go_out if goes_out else 0
    canastas = max(need, min(4, int(rng.expovariate(2.0))))
    # The kinds going out needs (Bolivia's escalera, Hand and Foot's books) first.
    counts = dict.fromkeys(rules.kind_keys, 0)
    if goes_out:
        counts.update(rules.going_out_kinds)
    for _ in range(canastas - sum(counts.values())):
        counts["natural" if rng.random() < 0.4 else "mixed"] += 1
    cheapest = cheapest_canastas(rules, *counts.values())
    if cheapest is None:  # more natural canastas than the ranks allow: make them mixed
        counts["mixed"] += counts["natural"] - dict(rules.going_out_kinds).get("natural", 0)
        counts["natural"] = dict(rules.going_out_kinds).get("natural", 0)
        cheapest = cheapest_canastas(rules, *counts.values()) or ()
    floor = sum(canasta.points for canasta in cheapest)  # the engine's own minimum
    melded_points = floor + 5 * rng.randint(4, 30)
    team = {
        "melded_points": melded_points,
        "natural_canastas": counts.pop("natural"),
        "mixed_canastas": counts.pop("mixed"),
        "red_threes": red_threes,
        "went_out": going_out,
        "hand_points": 0 if goes_out else 5 * rng.randint(0, 30),
    }
    others = {kind: n for kind, n in counts.items() if n}
    if others:
        team["canastas"] = others
    if rng.random() < 0.02:
        team["penalties"] = [{"kind": rng.choice(["ask_to_go_out_failed", "discard_unused"])}]
    return team


def random_hand(
    rng: random.Random, rules: engine.RuleSet, scores_before: list[int], hand: int = 1
) -> tuple[list, engine.HandOutcome]:
    """Team inputs for hand number ``hand`` that `engine.score_hand` accepts, with its
    outcome."""
    while True:
        teams = _draw(rng, rules)
        outcome = engine.score_hand(rules, teams, scores_before, hand)
        if outcome.ok:
            return teams, outcome


def play_game(
    rng: random.Random, rules: engine.RuleSet
) -> Iterator[tuple[list, list[int], engine.HandOutcome]]:
    """The hands of one game, to its end: (team inputs, scores before, outcome) each.
    A hand is drawn only when asked for, so a caller may draw from ``rng`` in between."""
    totals = [0] * rules.teams
    hand = 0
    while True:
        hand += 1
        inputs, outcome = random_hand(rng, rules, totals, hand)
        yield inputs, totals, outcome
        if outcome.game_over:
            return
        totals = [t.score_after for t in outcome.teams]


def _draw(rng: random.Random, rules: engine.RuleSet) -> list:
    n = rules.teams
    out_team = rng.randrange(n) if rng.random() < 0.92 else None
    red = [0] * n
    for _ in range(2 * rules.decks):
        if rng.random() < 0.55:
            red[rng.randrange(n)] += 1
    teams = []
    for i in range(n):
        going_out = "none"
        if i == out_team:
            going_out = "concealed" if rng.random() < 0.03 else "out"
        teams.append(_team(rng, rules, going_out, red[i]))
    if rules.perfect_cut_enabled and rng.random() < 1 / 40:
        teams[rng.randrange(n)]["perfect_cut"] = True
    return teams
