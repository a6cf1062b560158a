"""Impossible hands are refused: one refusal per problem, naming the field, in a sentence."""

from __future__ import annotations

import pytest

from scoring.engine import rules_from_spec, score_hand, score_request

from .helpers import (
    CLASSIC,
    CLUB,
    SIX_PLAYER,
    THREE_TEAMS,
    TWO_PLAYER,
    is_sentence,
    melded,
    one,
    only,
    refused,
    team,
)

# -- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key", ["melded_points", "natural_canastas", "mixed_canastas", "red_threes", "hand_points"]
)
def test_negative_counts(key):
    errors = refused(CLASSIC, team(**{key: -5}), team())
    only(errors, f"teams[0].{key}", "Team 1", "negative")


def test_negative_count_in_a_meld():
    errors = refused(CLASSIC, team(melds=[{"rank": "K", "naturals": 7, "twos": -1}]), team())
    only(errors, "teams[0].melds[0].twos", "Team 1", "negative")


def test_negative_count_in_hand():
    errors = refused(CLASSIC, team(), team(hand_cards={"Q": -2}))
    only(errors, "teams[1].hand_cards.Q", "Team 2", "queens", "negative")


@pytest.mark.parametrize("key", ["melded_points", "hand_points"])
def test_points_not_a_multiple_of_five(key):
    errors = refused(CLASSIC, team(**{key: 37}), team())
    only(errors, f"teams[0].{key}", "multiple of 5", "37")


@pytest.mark.parametrize("value", [True, False])
def test_true_or_false_where_a_count_is_expected(value):
    errors = refused(CLASSIC, team(red_threes=value), team())
    only(errors, "teams[0].red_threes", "number")


def test_whole_numbers_with_a_decimal_point():
    errors = refused(CLASSIC, team(melded_points=35.0), team())
    only(errors, "teams[0].melded_points", "whole number", "35")


def test_fractions():
    errors = refused(CLASSIC, team(), team(hand_points=12.5))
    only(errors, "teams[1].hand_points", "whole number", "12.5")


@pytest.mark.parametrize("value", ["35", [35], {"points": 35}, float("nan"), float("inf")])
def test_counts_of_the_wrong_kind(value):
    errors = refused(CLASSIC, team(melded_points=value), team())
    only(errors, "teams[0].melded_points", "whole number")


def test_huge_numbers_are_refused_without_spelling_them_out():
    errors = refused(CLASSIC, team(melded_points=10**5000, natural_canastas=10**400), team())
    assert {e.field for e in errors} >= {"teams[0].melded_points"}
    for error in errors:
        assert len(error.message) < 400


# -- red threes ------------------------------------------------------------------------


def test_more_red_threes_across_the_teams_than_the_decks_hold():
    errors = refused(CLASSIC, melded(50, red_threes=3), melded(50, red_threes=2))
    only(errors, "teams", "5 red threes", "2 decks", "4")


def test_more_red_threes_in_one_team_than_the_decks_hold():
    errors = refused(CLASSIC, melded(50, red_threes=5), team())
    only(errors, "teams[0].red_threes", "Team 1", "5 red threes")


def test_red_threes_kept_in_hand_are_red_threes_too():
    penalties = [{"kind": "red_three_in_hand"}]
    errors = refused(CLASSIC, melded(50, red_threes=4), team(penalties=penalties))
    only(errors, "teams", "kept in hand")


def test_six_red_threes_only_with_three_decks():
    errors = refused(SIX_PLAYER, melded(50, red_threes=4), melded(50, red_threes=3))
    only(errors, "teams", "7 red threes", "3 decks", "6")


# -- going out -------------------------------------------------------------------------


def test_more_than_one_team_going_out():
    errors = refused(CLASSIC, melded(70, 1, went_out="out"), melded(35, 1, went_out="concealed"))
    only(errors, "teams", "Teams 1 and 2", "only one team")


def test_three_teams_going_out():
    out = melded(300, 2, went_out="out")
    errors = refused(THREE_TEAMS, out, dict(out), dict(out))
    only(errors, "teams", "Teams 1, 2 and 3", "all went out")


def test_going_out_without_the_required_canastas():
    errors = refused(CLUB, melded(200, 1, went_out="out"), team())
    error = only(errors, "teams[0].went_out", "Team 1", "only 1 canasta", "2 are needed")
    assert error.message == (
        "Team 1 went out but has only 1 canasta; 2 are needed to go out under these rules."
    )


def test_going_out_with_no_canasta_in_classic():
    errors = refused(CLASSIC, team(), melded(200, went_out="out"))
    only(errors, "teams[1].went_out", "Team 2", "no canasta", "1 is needed")


def test_going_out_concealed_needs_a_canasta_even_if_the_rules_ask_for_none():
    rules, _ = rules_from_spec({"canastas_to_go_out": 0})
    assert score_hand(rules, [melded(200, went_out="out"), team()]).ok
    errors = refused(rules, melded(200, went_out="concealed"), team())
    only(errors, "teams[0].went_out", "1 is needed")


def test_going_out_without_melding():
    errors = refused(CLASSIC, team(went_out="out"), team())
    only(errors, "teams[0].went_out", "Team 1", "not melded")


def test_a_player_who_went_out_has_no_cards_left():
    errors = refused(TWO_PLAYER, melded(100, 2, went_out="out", hand_points=20), team())
    only(errors, "teams[0].hand_points", "Player 1", "must be 0")


def test_went_out_must_be_none_out_or_concealed():
    errors = refused(CLASSIC, team(went_out="yes"), team())
    only(errors, "teams[0].went_out", "none, out or concealed")


# -- canastas and melded points --------------------------------------------------------


def test_a_natural_canasta_needs_35_melded_points():
    errors = refused(CLASSIC, melded(30, 1), team(), before=[-100, 0])
    only(errors, "teams[0].melded_points", "35", "30")


def test_a_mixed_canasta_needs_50_melded_points():
    errors = refused(CLASSIC, melded(45, 0, 1), team(), before=[-100, 0])
    only(errors, "teams[0].melded_points", "at least 50", "45", "6 fours and a two")


def test_both_kinds_of_canasta_add_up():
    errors = refused(CLASSIC, melded(80, 1, 1), team())
    only(errors, "teams[0].melded_points", "at least 85")


def test_canastas_for_a_team_that_has_not_melded():
    errors = refused(CLASSIC, team(natural_canastas=1), team())
    only(errors, "teams[0].natural_canastas", "Team 1", "no melded points", "at least 35")


def test_more_card_points_than_the_decks_hold():
    errors = refused(CLASSIC, melded(700, hand_points=100), melded(300, hand_points=100))
    only(errors, "teams", "1,200", "1,180")


def test_one_team_with_more_card_points_than_the_decks_hold():
    errors = refused(CLASSIC, melded(1200), team())
    only(errors, "teams[0].melded_points", "1,180")


def test_more_points_in_hand_than_the_decks_hold():
    errors = refused(CLASSIC, team(hand_points=1185), team())
    only(errors, "teams[0].hand_points", "1,180")


# -- detailed melds --------------------------------------------------------------------


def test_a_meld_needs_three_cards():
    errors = refused(CLASSIC, team(melds=[{"rank": "K", "naturals": 2}]), team())
    only(errors, "teams[0].melds[0]", "at least 3")


def test_a_meld_needs_two_natural_cards():
    errors = refused(CLASSIC, team(melds=[{"rank": "K", "naturals": 1, "twos": 2}]), team())
    only(errors, "teams[0].melds[0]", "Team 1", "kings", "at least 2 natural")


def test_a_meld_holds_at_most_three_wild_cards():
    meld = {"rank": "Q", "naturals": 5, "jokers": 2, "twos": 2}
    errors = refused(CLASSIC, team(melds=[meld]), team())
    only(errors, "teams[0].melds[0]", "queens", "at most 3")


def test_club_wild_cards_may_not_outnumber_naturals():
    meld = {"rank": "9", "naturals": 2, "jokers": 1, "twos": 2}
    assert score_hand(CLASSIC, [team(melds=[meld]), team()]).ok
    errors = refused(CLUB, team(melds=[meld]), team())
    only(errors, "teams[0].melds[0]", "nines", "outnumber")


def test_wild_cards_alone_never_form_a_meld():
    errors = refused(CLASSIC, team(melds=[{"rank": "A", "jokers": 2, "twos": 1}]), team())
    only(errors, "teams[0].melds[0]", "wild cards alone")


def test_an_empty_meld():
    errors = refused(CLASSIC, team(melds=[{"rank": "A"}]), team())
    only(errors, "teams[0].melds[0]", "no cards")


@pytest.mark.parametrize("rank", ["1", "Z", "k", 10, None, "", ["K"], "2", "joker"])
def test_a_meld_needs_a_valid_rank(rank):
    errors = refused(CLASSIC, team(melds=[{"rank": rank, "naturals": 3}]), team())
    only(errors, "teams[0].melds[0].rank", "rank", "black threes")


def test_one_meld_per_rank():
    melds = [{"rank": "K", "naturals": 3}, {"rank": "K", "naturals": 4}]
    errors = refused(CLASSIC, team(melds=melds), team())
    only(errors, "teams[0].melds[1]", "two melds of kings", "one meld")


def test_black_threes_only_for_the_team_going_out():
    black = {"rank": "3", "naturals": 3}
    errors = refused(CLASSIC, team(melds=[black, {"rank": "K", "naturals": 7}]), team())
    only(errors, "teams[0].melds[0]", "black threes", "going out")


def test_black_threes_without_wild_cards():
    melds = [{"rank": "3", "naturals": 3, "jokers": 1}, {"rank": "K", "naturals": 7}]
    errors = refused(CLASSIC, team(melds=melds, went_out="out"), team())
    only(errors, "teams[0].melds[0]", "black threes", "wild")


@pytest.mark.parametrize("count", [2, 5])
def test_black_threes_three_or_four(count):
    melds = [{"rank": "3", "naturals": count}, {"rank": "K", "naturals": 7}]
    errors = refused(SIX_PLAYER, team(melds=melds, went_out="out"), team())
    only(errors, "teams[0].melds[0]", "3 or 4")


def test_black_threes_never_when_the_rules_forbid_them():
    rules, _ = rules_from_spec({"black_three_meld": False})
    melds = [{"rank": "3", "naturals": 3}, {"rank": "K", "naturals": 7}]
    errors = refused(rules, team(melds=melds, went_out="out"), team())
    only(errors, "teams[0].melds[0]", "never allow")


def test_more_cards_of_a_rank_than_the_decks_hold():
    errors = refused(
        CLASSIC,
        team(melds=[{"rank": "K", "naturals": 7}]),
        team(hand_cards={"K": 2}),
    )
    only(errors, "teams", "9 kings", "8")


def test_more_jokers_than_the_decks_hold():
    errors = refused(
        CLASSIC,
        team(melds=[{"rank": "K", "naturals": 4, "jokers": 3}]),
        team(hand_cards={"joker": 2}),
    )
    only(errors, "teams", "5 jokers", "4")


def test_more_black_threes_than_the_decks_hold():
    melds = [{"rank": "3", "naturals": 4}, {"rank": "K", "naturals": 7}]
    errors = refused(CLASSIC, team(melds=melds, went_out="out"), team(hand_cards={"3": 1}))
    only(errors, "teams", "5 black threes", "4")


def test_totals_that_disagree_with_the_melds():
    errors = refused(
        CLASSIC,
        team(melds=[{"rank": "K", "naturals": 7}], melded_points=80, natural_canastas=1),
        team(),
    )
    only(errors, "teams[0].melded_points", "80", "70")


def test_canasta_counts_that_disagree_with_the_melds():
    errors = refused(CLASSIC, team(melds=[{"rank": "K", "naturals": 6}], mixed_canastas=1), team())
    only(errors, "teams[0].mixed_canastas", "0")


def test_hand_points_that_disagree_with_the_cards():
    errors = refused(CLASSIC, team(), team(hand_points=30, hand_cards={"A": 1}))
    only(errors, "teams[1].hand_points", "30", "20")


def test_unknown_cards_in_hand():
    errors = refused(CLASSIC, team(hand_cards={"red three": 1}), team())
    error = only(errors, "teams[0].hand_cards.red three", "penalty for a red three kept in hand")
    assert "red_three_in_hand" not in error.message


def test_melds_must_be_a_list_of_objects():
    errors = refused(CLASSIC, team(melds="K K K"), team(melds=["K"]))
    assert {e.field for e in errors} == {"teams[0].melds", "teams[1].melds[0]"}


def test_unknown_entries_in_a_meld():
    errors = refused(CLASSIC, team(melds=[{"rank": "K", "naturals": 3, "wilds": 1}]), team())
    only(errors, "teams[0].melds[0].wilds", "rank, naturals, jokers and twos")


# -- perfect cut -----------------------------------------------------------------------


def test_perfect_cut_when_the_rules_have_none():
    errors = refused(CLASSIC, melded(50, perfect_cut=True), team())
    only(errors, "teams[0].perfect_cut", "no perfect cut bonus")


def test_perfect_cut_for_one_team_only():
    errors = refused(CLUB, team(perfect_cut=True), team(perfect_cut=True))
    only(errors, "teams", "perfect cut")


def test_perfect_cut_must_be_true_or_false():
    errors = refused(CLUB, team(perfect_cut="yes"), team())
    only(errors, "teams[0].perfect_cut", "true or false")


# -- penalties -------------------------------------------------------------------------


def test_penalty_of_an_unknown_kind():
    errors = refused(CLASSIC, team(penalties=[{"kind": "slow_play"}]), team())
    only(errors, "teams[0].penalties[0].kind", "discard_unused")


def test_other_penalty_needs_points_and_a_note():
    errors = refused(CLASSIC, team(penalties=[{"kind": "other"}]), team())
    assert len(errors) == 2
    one(errors, "teams[0].penalties[0].points", "multiple of 5")
    one(errors, "teams[0].penalties[0].note", "note")


@pytest.mark.parametrize("points", [0, -50, 12, 20.0, True, "50"])
def test_other_penalty_needs_positive_points_in_fives(points):
    penalty = {"kind": "other", "points": points, "note": "table talk"}
    errors = refused(CLASSIC, team(penalties=[penalty]), team())
    only(errors, "teams[0].penalties[0].points", "above 0")


def test_other_penalty_note_cannot_be_blank():
    penalty = {"kind": "other", "points": 50, "note": "  "}
    errors = refused(CLASSIC, team(penalties=[penalty]), team())
    only(errors, "teams[0].penalties[0].note", "note")


def test_known_penalty_with_other_points():
    errors = refused(CLASSIC, team(penalties=[{"kind": "discard_unused", "points": 40}]), team())
    only(errors, "teams[0].penalties[0].points", "50 points")


def test_penalties_must_be_a_list_of_objects():
    errors = refused(CLASSIC, team(penalties={"kind": "other"}), team(penalties=["late"]))
    assert {e.field for e in errors} == {"teams[0].penalties", "teams[1].penalties[0]"}


# -- the hand as a whole ---------------------------------------------------------------


def test_wrong_number_of_teams():
    errors = refused(CLASSIC, team(), team(), team())
    only(errors, "teams", "2 teams", "3 were entered")


def test_three_teams_rules_need_three_teams():
    errors = refused(THREE_TEAMS, team(), team())
    only(errors, "teams", "3 teams")


def test_teams_must_be_a_list():
    outcome = score_hand(CLASSIC, {"0": {}})
    assert not outcome.ok and outcome.errors[0].field == "teams"
    assert is_sentence(outcome.errors[0].message)


def test_a_team_must_be_an_object():
    errors = refused(CLASSIC, team(), 120)
    only(errors, "teams[1]", "Team 2", "object")


def test_unknown_team_entries():
    errors = refused(CLASSIC, team(meld_points=120), team())
    only(errors, "teams[0].meld_points", "spelling")


@pytest.mark.parametrize("before", [[0, "100"], [0, 100.0], [0, True], [None, 0]])
def test_scores_before_must_be_whole_numbers(before):
    errors = refused(CLASSIC, team(), team(), before=before)
    assert len(errors) == 1 and errors[0].field.startswith("scores_before[")


def test_scores_before_one_per_team():
    errors = refused(CLASSIC, team(), team(), before=[0, 0, 0])
    only(errors, "scores_before", "3 scores", "2 teams")


def test_scores_before_must_be_a_list():
    errors = refused(CLASSIC, team(), team(), before="0,0")
    only(errors, "scores_before", "list")


def test_unbelievable_scores_before():
    errors = refused(CLASSIC, team(), team(), before=[10**12, 0])
    only(errors, "scores_before[0]", "believable")


def test_every_problem_is_reported_at_once():
    errors = refused(
        CLUB,
        team(melded_points=-5, went_out="maybe"),
        team(red_threes=1.5, penalties=[{"kind": "nap"}], perfect_cut=3),
        before=[0, "x"],
    )
    assert {e.field for e in errors} == {
        "teams[0].melded_points",
        "teams[0].went_out",
        "teams[1].red_threes",
        "teams[1].penalties[0].kind",
        "teams[1].perfect_cut",
        "scores_before[1]",
    }


def test_two_player_messages_speak_of_players():
    errors = refused(TWO_PLAYER, team(red_threes=-1), team())
    only(errors, "teams[0].red_threes", "Player 1")


# -- the contract ----------------------------------------------------------------------


def contract_errors(hand) -> list[dict]:
    result, ok = score_request(hand)
    assert ok is False and set(result) == {"errors"}
    for error in result["errors"]:
        assert set(error) == {"field", "message"} and is_sentence(error["message"])
    return result["errors"]


def test_contract_rules_are_required():
    errors = contract_errors({"teams": [{}, {}]})
    assert [e["field"] for e in errors] == ["rules"]


def test_contract_unknown_preset():
    errors = contract_errors({"rules": "pinochle", "teams": [{}, {}]})
    assert [e["field"] for e in errors] == ["rules"]


def test_contract_bad_override():
    errors = contract_errors({"rules": {"preset": "club", "target_score": 0}, "teams": [{}, {}]})
    assert [e["field"] for e in errors] == ["rules.target_score"]


def test_contract_unknown_hand_entry():
    errors = contract_errors({"rules": "classic", "teams": [{}, {}], "hand": 3})
    assert [e["field"] for e in errors] == ["hand"]


def test_contract_hand_must_be_an_object():
    errors = contract_errors("classic")
    assert [e["field"] for e in errors] == [""]


def test_contract_missing_teams():
    errors = contract_errors({"rules": "classic"})
    assert [e["field"] for e in errors] == ["teams"]


def test_contract_a_refused_hand_does_not_stop_the_others():
    good = {"rules": "classic", "teams": [{}, {}]}
    bad = {"rules": "classic", "teams": [{"red_threes": 9}, {}]}
    results, ok = score_request([good, bad, good])
    assert ok is False
    assert "teams" in results[0] and "teams" in results[2]
    assert [e["field"] for e in results[1]["errors"]] == ["teams[0].red_threes"]


# -- words a score keeper reads: the side named, what to fix, no codes -------------------


def _plain(message: str) -> None:
    """No programmer's words in a message a score keeper reads."""
    assert "null" not in message
    assert "do not match" not in message
    assert ".." not in message


def test_a_meld_with_no_rank_says_to_choose_one():
    errors = refused(CLASSIC, team(melds=[{"rank": None, "naturals": 4}]), team())
    error = only(errors, "teams[0].melds[0].rank", "Team 1's meld 1 has no rank", "choose")
    _plain(error.message)


@pytest.mark.parametrize("rank", ["red 3", "Red three", "3r", "3♥", "red threes"])
def test_a_meld_of_red_threes_is_sent_to_the_red_threes_line(rank):
    errors = refused(CLASSIC, team(), team(melds=[{"rank": rank, "naturals": 3}]))
    error = only(errors, "teams[1].melds[0].rank", "Team 2", "never melded", "red-threes line")
    _plain(error.message)


def test_too_many_red_threes_names_each_side_and_what_to_fix():
    errors = refused(CLASSIC, melded(red_threes=3), melded(red_threes=2))
    error = only(errors, "teams", "5 red threes", "Team 1 3", "Team 2 2", "correct")
    assert "players" not in error.message.lower()
    _plain(error.message)


def test_red_threes_kept_in_hand_are_named_with_their_side():
    errors = refused(
        CLASSIC,
        melded(red_threes=3, penalties=[{"kind": "red_three_in_hand"}]),
        melded(red_threes=1),
    )
    only(errors, "teams", "5 red threes", "Team 1 3 and 1 kept in hand", "Team 2 1")


def test_a_total_that_disagrees_with_its_details_reads_as_a_sentence():
    errors = refused(
        CLASSIC, team(melds=[{"rank": "K", "naturals": 6}], natural_canastas=1), team()
    )
    error = only(errors, "teams[0].natural_canastas", "Team 1's number of natural canastas")
    assert "says 1, but its melds give 0" in error.message
    _plain(error.message)


def test_a_wrong_penalty_kind_is_named_in_words():
    errors = refused(CLASSIC, team(penalties=[{"kind": "late", "points": 5}]), team())
    error = only(errors, "teams[0].penalties[0].kind", "failing to go out after asking")
    assert "a red three kept in hand" in error.message


def test_too_many_cards_names_the_sides():
    errors = refused(
        CLASSIC,
        team(melds=[{"rank": "K", "naturals": 7, "jokers": 2}]),
        team(melds=[{"rank": "Q", "naturals": 5, "jokers": 3}]),
    )
    error = one(errors, "teams", "Team 1 and Team 2", "jokers", "check each side")
    _plain(error.message)
