"""The worked examples of rules.md and the contract, and how hands end games."""

from __future__ import annotations

import copy
import json

import pytest

from scoring.engine import (
    PRESET_SLUGS,
    PRESETS,
    HandOutcome,
    TeamResult,
    game_result,
    rules_from_spec,
    score_hand,
    score_request,
)
from scoring.engine.results import BREAKDOWN_KEYS
from scoring.tests.samples import CONTRACT_EXAMPLE, CONTRACT_EXAMPLE_TEAM_ONE

from .helpers import (
    CLASSIC,
    CLUB,
    SIX_PLAYER,
    THREE_TEAMS,
    TWO_PLAYER,
    melded,
    scored,
    team,
)


def breakdown(result: TeamResult) -> dict[str, int]:
    assert list(result.breakdown) == list(BREAKDOWN_KEYS)
    assert sum(result.breakdown.values()) == result.hand_score
    return result.breakdown


# -- the contract's example ------------------------------------------------------------


def test_contract_example_team_one_matches_the_contract():
    result, ok = score_request(copy.deepcopy(CONTRACT_EXAMPLE))
    assert ok is True
    assert result["teams"][0] == CONTRACT_EXAMPLE_TEAM_ONE
    assert result["game_over"] is False and result["winner"] is None
    assert set(result) == {"teams", "game_over", "winner"}


def test_contract_example_team_two_worked_by_hand():
    # Kings: 7 x 10 = 70, a natural canasta (+500).
    # Queens: 5 x 10 + joker 50 + two 20 = 120, 7 cards with wilds: a mixed canasta (+300).
    # Fives: 3 x 5 = 15. Melded cards 70 + 120 + 15 = 205; canastas 800.
    # In hand: an ace (20) and a four (5) = -25. Discard not used: -50.
    # 205 + 800 - 25 - 50 = 930; 3,000 + 930 = 3,930. Minimum 120 before and after.
    result, _ = score_request(copy.deepcopy(CONTRACT_EXAMPLE))
    assert result["teams"][1] == {
        "breakdown": {
            "melded_cards": 205,
            "canastas": 800,
            "red_threes": 0,
            "going_out": 0,
            "perfect_cut": 0,
            "cards_in_hand": -25,
            "penalties": -50,
        },
        "hand_score": 930,
        "score_after": 3930,
        "minimum_before": 120,
        "minimum_next": 120,
    }


def test_contract_example_through_the_typed_api_gives_the_derived_totals():
    outcome = score_hand(CLASSIC, copy.deepcopy(CONTRACT_EXAMPLE["teams"]), [1490, 3000])
    assert isinstance(outcome, HandOutcome) and outcome.ok
    second = outcome.teams[1]
    assert (second.melded_points, second.natural_canastas, second.mixed_canastas) == (205, 1, 1)
    assert (second.hand_points, second.red_threes, second.went_out) == (25, 0, "none")
    assert second.penalty_points == 50
    assert outcome.teams[0].went_out == "out"
    assert outcome.to_dict() == score_request(copy.deepcopy(CONTRACT_EXAMPLE))[0]
    assert second.to_dict(derived=True)["melded_points"] == 205
    json.dumps(outcome.to_dict())


def test_a_list_of_hands_gives_a_list_of_results():
    results, ok = score_request([copy.deepcopy(CONTRACT_EXAMPLE)] * 2)
    assert ok is True and len(results) == 2 and results[0] == results[1]
    assert score_request([]) == ([], True)


# -- worked examples of rules.md --------------------------------------------------------


def test_seven_natural_kings_score_570():
    outcome = scored(CLASSIC, team(melds=[{"rank": "K", "naturals": 7}]), team())
    first = outcome.teams[0]
    assert first.hand_score == 570
    assert breakdown(first)["melded_cards"] == 70 and first.breakdown["canastas"] == 500
    assert first.natural_canastas == 1 and first.mixed_canastas == 0


def test_adding_a_wild_card_makes_a_canasta_mixed():
    outcome = scored(CLASSIC, team(melds=[{"rank": "K", "naturals": 7, "twos": 1}]), team())
    first = outcome.teams[0]
    assert (first.natural_canastas, first.mixed_canastas) == (0, 1)
    assert first.hand_score == 90 + 300


def test_six_cards_are_not_a_canasta():
    outcome = scored(CLASSIC, team(melds=[{"rank": "A", "naturals": 6}]), team())
    assert outcome.teams[0].hand_score == 120


def test_totals_and_melds_give_the_same_score():
    melds = [{"rank": "J", "naturals": 4, "jokers": 1, "twos": 2}, {"rank": "8", "naturals": 3}]
    as_melds = scored(CLASSIC, team(melds=melds), team()).teams[0]
    # Jacks: 4 x 10 + 50 + 2 x 20 = 130 (7 cards with wilds: mixed); eights: 30.
    as_totals = scored(CLASSIC, melded(160, 0, 1), team()).teams[0]
    both = scored(CLASSIC, team(melds=melds, melded_points=160, mixed_canastas=1), team())
    assert as_melds.hand_score == as_totals.hand_score == both.teams[0].hand_score == 460


def test_cards_in_hand_count_minus_even_if_they_could_meld():
    cards = {"K": 3, "joker": 1, "2": 1, "A": 1, "7": 1, "3": 1}
    outcome = scored(CLASSIC, melded(100, hand_cards=cards), team())
    assert outcome.teams[0].breakdown["cards_in_hand"] == -(30 + 50 + 20 + 20 + 5 + 5)
    assert outcome.teams[0].hand_points == 130


def test_hand_scores_and_totals_can_be_negative():
    outcome = scored(CLASSIC, team(hand_points=200, red_threes=1), team(), before=[-100, 0])
    first = outcome.teams[0]
    assert first.hand_score == -300 and first.score_after == -400
    assert first.minimum_before == 15 and first.minimum_next == 15


def test_going_out_scores_100():
    outcome = scored(CLASSIC, melded(70, 1, went_out="out"), team())
    assert outcome.teams[0].breakdown["going_out"] == 100
    assert outcome.teams[0].hand_score == 70 + 500 + 100


def test_going_out_concealed_scores_200_in_all():
    outcome = scored(CLASSIC, melded(35, 1, went_out="concealed"), team())
    assert outcome.teams[0].breakdown["going_out"] == 200
    assert outcome.teams[0].hand_score == 35 + 500 + 200


def test_stock_ran_out_nobody_goes_out():
    outcome = scored(CLASSIC, melded(200, 1), melded(150, 0, 1, hand_points=40))
    assert [t.breakdown["going_out"] for t in outcome.teams] == [0, 0]


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 100), (2, 200), (3, 300), (4, 800)])
def test_red_threes_of_a_team_that_melded(count, points):
    outcome = scored(CLASSIC, melded(50, red_threes=count), team())
    assert outcome.teams[0].breakdown["red_threes"] == points


@pytest.mark.parametrize(("count", "points"), [(1, -100), (2, -200), (3, -300), (4, -800)])
def test_red_threes_of_a_team_that_has_not_melded(count, points):
    outcome = scored(CLASSIC, team(red_threes=count), melded(50))
    assert outcome.teams[0].breakdown["red_threes"] == points
    assert outcome.teams[0].hand_score == points


@pytest.mark.parametrize("slug", ["six-player", "three-teams"])
@pytest.mark.parametrize(
    ("count", "with_meld", "without"),
    [(3, 300, -300), (4, 400, -400), (5, 1000, -1000), (6, 1200, -1200)],
)
def test_red_threes_with_three_decks(slug, count, with_meld, without):
    rules = PRESETS[slug]
    others = [team()] * (rules.teams - 2)
    outcome = scored(rules, melded(50, red_threes=count), team(), *others)
    assert outcome.teams[0].breakdown["red_threes"] == with_meld
    outcome = scored(rules, team(red_threes=count), melded(50), *others)
    assert outcome.teams[0].breakdown["red_threes"] == without


def test_all_six_red_threes_score_1200():
    outcome = scored(SIX_PLAYER, melded(50, red_threes=6), team())
    assert outcome.teams[0].breakdown["red_threes"] == 1200
    outcome = scored(SIX_PLAYER, team(red_threes=6), team())
    assert outcome.teams[0].breakdown["red_threes"] == -1200


def test_red_threes_count_plus_without_a_meld_when_the_rule_is_off():
    rules, _ = rules_from_spec({"red_threes_negative_without_meld": False})
    outcome = scored(rules, team(red_threes=2), team())
    assert outcome.teams[0].breakdown["red_threes"] == 200


def test_a_team_with_only_detailed_melds_has_melded_for_red_threes():
    outcome = scored(CLASSIC, team(melds=[{"rank": "A", "naturals": 3}], red_threes=1), team())
    assert outcome.teams[0].breakdown["red_threes"] == 100


def test_penalties_are_subtracted():
    penalties = [
        {"kind": "ask_to_go_out_failed"},
        {"kind": "discard_unused", "points": 50},
        {"kind": "red_three_in_hand", "note": "found after the count"},
        {"kind": "other", "points": 25, "note": "exposed a card"},
    ]
    outcome = scored(CLASSIC, melded(100, penalties=penalties), team())
    first = outcome.teams[0]
    assert first.breakdown["penalties"] == -(100 + 50 + 500 + 25)
    assert first.penalty_points == 675
    assert first.hand_score == 100 - 675


def test_perfect_cut_scores_100_under_club_rules():
    outcome = scored(CLUB, melded(60, perfect_cut=True), team())
    assert outcome.teams[0].breakdown["perfect_cut"] == 100
    assert outcome.teams[0].perfect_cut is True
    assert outcome.teams[0].hand_score == 160
    assert outcome.teams[1].breakdown["perfect_cut"] == 0


def test_minimums_before_and_next():
    outcome = scored(CLASSIC, melded(200, 1), team(hand_points=50), before=[1300, 20])
    first, second = outcome.teams
    assert (first.minimum_before, first.score_after, first.minimum_next) == (50, 2000, 90)
    assert (second.minimum_before, second.score_after, second.minimum_next) == (50, -30, 15)


def test_every_value_is_a_multiple_of_five():
    outcome = scored(CLASSIC, *copy.deepcopy(CONTRACT_EXAMPLE["teams"]), before=[1490, 3000])
    for result in outcome.teams:
        values = [*result.breakdown.values(), result.hand_score, result.score_after]
        assert all(value % 5 == 0 for value in values)


# -- a hand under each preset ----------------------------------------------------------


def test_club_hand_needs_two_canastas_to_go_out():
    outcome = scored(
        CLUB,
        melded(400, 1, 1, red_threes=4, went_out="out", perfect_cut=True),
        melded(120, hand_points=45, penalties=[{"kind": "ask_to_go_out_failed"}]),
        before=[4000, 4500],
    )
    first, second = outcome.teams
    assert first.hand_score == 400 + 800 + 800 + 100 + 100
    assert second.hand_score == 120 - 45 - 100
    assert outcome.game_over is True and outcome.winner == 0


def test_two_player_hand():
    outcome = scored(
        TWO_PLAYER,
        team(
            melds=[
                {"rank": "A", "naturals": 7},
                {"rank": "9", "naturals": 5, "twos": 2},
                {"rank": "3", "naturals": 3},
            ],
            went_out="out",
        ),
        team(melds=[{"rank": "6", "naturals": 3}], hand_cards={"joker": 1, "K": 2}),
        before=[0, -100],
    )
    first, second = outcome.teams
    assert first.hand_score == 140 + 500 + 90 + 300 + 15 + 100
    assert second.hand_score == 15 - 70


def test_six_player_hand():
    outcome = scored(
        SIX_PLAYER,
        melded(300, 1, 1, red_threes=5, went_out="out"),
        melded(150, 1, hand_points=120),
        before=[7500, 7400],
    )
    first, second = outcome.teams
    assert first.hand_score == 300 + 800 + 1000 + 100
    assert first.minimum_before == 150 and second.minimum_before == 120
    assert second.score_after == 7930 and second.minimum_next == 150
    assert outcome.game_over is False  # target 10,000


def test_three_teams_hand():
    outcome = scored(
        THREE_TEAMS,
        melded(300, 1, 1, went_out="concealed"),
        melded(200, 1, red_threes=6),
        team(hand_points=100),
        before=[7000, 6000, 7600],
    )
    first, second, third = outcome.teams
    assert first.hand_score == 300 + 800 + 200
    assert second.hand_score == 200 + 500 + 1200
    assert third.hand_score == -100
    assert [t.score_after for t in outcome.teams] == [8300, 7900, 7500]
    assert outcome.game_over is True and outcome.winner == 0


def test_classic_hand_through_the_contract_with_overrides():
    hand = {
        "rules": {"preset": "classic", "target_score": 1000, "going_out_bonus": 150},
        "teams": [melded(120, went_out="none"), melded(70, 1, went_out="out")],
        "scores_before": [400, 500],
    }
    result, ok = score_request(hand)
    assert ok
    assert [t["hand_score"] for t in result["teams"]] == [120, 720]
    assert result["game_over"] is True and result["winner"] == 1


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_an_empty_hand_under_every_preset(slug):
    rules = PRESETS[slug]
    result, ok = score_request({"rules": slug, "teams": [{}] * rules.teams})
    assert ok and [t["hand_score"] for t in result["teams"]] == [0] * rules.teams


# -- the end of the game ---------------------------------------------------------------


def test_the_game_ends_when_a_team_reaches_the_target():
    assert game_result(CLASSIC, [5000, 4000]) == (True, 0)
    assert game_result(CLASSIC, [4995, 4000]) == (False, None)
    outcome = scored(CLASSIC, melded(120, 1, went_out="out"), team(), before=[4400, 100])
    assert outcome.teams[0].score_after == 5120
    assert (outcome.game_over, outcome.winner) == (True, 0)


def test_both_teams_past_the_target_the_higher_wins():
    assert game_result(CLASSIC, [5100, 5600]) == (True, 1)
    outcome = scored(CLASSIC, melded(200), melded(600, 1), before=[4900, 4900])
    assert (outcome.game_over, outcome.winner) == (True, 1)


def test_equal_totals_at_the_target_play_another_hand():
    assert game_result(CLASSIC, [5200, 5200]) == (False, None)
    outcome = scored(CLASSIC, melded(200), melded(200), before=[5000, 5000])
    assert (outcome.game_over, outcome.winner) == (False, None)


def test_three_teams_the_highest_total_wins_if_unique():
    assert game_result(THREE_TEAMS, [7600, 7800, 7000]) == (True, 1)
    assert game_result(THREE_TEAMS, [7800, 7800, 7600]) == (False, None)
    assert game_result(THREE_TEAMS, [7400, 7500, 7500]) == (False, None)
    assert game_result(THREE_TEAMS, [7400, 7400, 7500]) == (True, 2)
    assert game_result(THREE_TEAMS, [7000, 7000, 7000]) == (False, None)


def test_below_the_target_nobody_wins_even_when_ahead():
    assert game_result(SIX_PLAYER, [9995, 0]) == (False, None)
    assert game_result(SIX_PLAYER, [10000, 0]) == (True, 0)
