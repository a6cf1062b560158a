"""The variants clubs play (issue 25): each source's worked examples as hands, the games'
impossible hands refused in plain words, and how their games end.

The numbers and their sources are in docs/rules.md ("The presets"); each test names the
source of the example it scores.
"""

from __future__ import annotations

import pytest

from scoring.engine import (
    PRESETS,
    game_result,
    initial_meld_minimum,
    rules_from_spec,
    score_request,
)

from .helpers import one, only, refused, scored, team

MODERN = PRESETS["modern-american"]
HAND_AND_FOOT = PRESETS["hand-and-foot"]
SAMBA = PRESETS["samba"]
BOLIVIA = PRESETS["bolivia"]
URUGUAYAN = PRESETS["uruguayan"]
CUBAN = PRESETS["cuban"]

SEVEN_KINGS = {"rank": "K", "naturals": 7}
SEVEN_SEVENS = {"rank": "7", "naturals": 7}
SEVEN_ACES = {"rank": "A", "naturals": 7}
SAMBA_4_TO_10 = {"sequence": ["4", "5", "6", "7", "8", "9", "10"]}


def kinds(result) -> dict[str, int]:
    """A result's canastas, the kinds it has any of."""
    return {key: n for key, n in result.canastas.items() if n}


# -- the contract: canastas by kind, or the older two counts ---------------------------


@pytest.mark.parametrize("slug", ["classic", "club", "six-player", "samba", "hand-and-foot"])
def test_canastas_by_kind_and_the_older_counts_score_alike(slug):
    rules = PRESETS[slug]
    older = {"melded_points": 600, "natural_canastas": 2, "mixed_canastas": 2, "red_threes": 1}
    by_kind = {"melded_points": 600, "canastas": {"natural": 2, "mixed": 2}, "red_threes": 1}
    others = [{"melded_points": 50}] * (rules.teams - 1)
    for out in ("none", "out"):
        a = score_request({"rules": slug, "teams": [{**older, "went_out": out}, *others]})
        b = score_request({"rules": slug, "teams": [{**by_kind, "went_out": out}, *others]})
        assert a == b
    assert a[1] is True


def test_both_forms_together_must_agree():
    hand = {"melded_points": 200, "natural_canastas": 1, "canastas": {"natural": 2}}
    errors = refused(PRESETS["classic"], hand, team())
    only(errors, "teams[0].canastas.natural", "natural canastas", "entered twice")


def test_a_kind_the_game_does_not_have_is_refused():
    errors = refused(PRESETS["classic"], team(melded_points=200, canastas={"sevens": 1}), team())
    only(errors, "teams[0].canastas.sevens", "not a kind of these rules", "natural or mixed")


def test_the_result_counts_canastas_by_kind():
    result = scored(MODERN, team(melds=[SEVEN_SEVENS, SEVEN_KINGS]), team()).teams[0]
    assert kinds(result) == {"sevens": 1, "natural": 1}
    assert (result.natural_canastas, result.mixed_canastas) == (1, 0)


# -- Modern American canasta ------------------------------------------------------------
# liquisearch (Wikipedia's "US American Canasta"): sevens 2,500, unfinished -2,500,
# three or more sevens held -1,500; aces alike; wild canastas 3,000 (twos), 2,500 (four
# jokers), 2,000 (others), unfinished -2,000 and no going out; at most two wild cards,
# at most seven cards. WCA: two canastas to go out. Pagat (copy): special hands.


def test_modern_american_settings():
    r = MODERN
    assert (r.players, r.decks, r.cards_dealt, r.target_score) == (4, 2, 13, 8500)
    assert (r.canastas_to_go_out, r.max_wild_per_meld, r.max_meld_cards) == (2, 2, 7)
    assert {k.key: k.bonus for k in r.kinds} == {
        "sevens": 2500,
        "aces": 2500,
        "natural": 500,
        "mixed": 300,
        "wild_twos": 3000,
        "wild_jokers": 2500,
        "wild": 2000,
    }
    assert dict(r.special_hands) == {
        "straight": 3000,
        "pairs": 2500,
        "pairs_with_wilds": 2000,
        "garbage": 2000,
    }
    assert initial_meld_minimum(r, 4995) == 120 and initial_meld_minimum(r, 5000) == 150


def test_a_canasta_of_sevens_scores_2500_and_one_of_aces_2500():
    # 7 sevens (35) + 7 aces (140) = 175 in cards, 5,000 in bonuses, out 100.
    melds = [SEVEN_SEVENS, SEVEN_ACES]
    result = scored(MODERN, team(melds=melds, went_out="out"), team()).teams[0]
    assert kinds(result) == {"sevens": 1, "aces": 1}
    assert result.breakdown["canastas"] == 5000
    assert result.hand_score == 175 + 5000 + 100


def test_an_unfinished_meld_of_sevens_costs_2500():
    # Five sevens on the table when the hand ends: 25 in cards, -2,500.
    before = [-100, 0]  # a minimum of 15
    result = scored(MODERN, team(melds=[{"rank": "7", "naturals": 5}]), team(), before=before)
    result = result.teams[0]
    assert result.breakdown["penalties"] == -2500 and result.hand_score == 25 - 2500
    same = scored(MODERN, team(melded_points=25, unfinished={"sevens": 1}), team(), before=before)
    same = same.teams[0]
    assert same.hand_score == result.hand_score


def test_aces_with_wild_cards_are_an_ordinary_meld():
    # Aces melded with wild cards in the initial meld are a mixed meld: no penalty
    # unfinished, and a mixed canasta (300) when complete.
    open_aces = scored(MODERN, team(melds=[{"rank": "A", "naturals": 4, "twos": 1}]), team())
    assert open_aces.teams[0].breakdown["penalties"] == 0
    closed = scored(MODERN, team(melds=[{"rank": "A", "naturals": 5, "twos": 2}]), team())
    assert kinds(closed.teams[0]) == {"mixed": 1} and closed.teams[0].breakdown["canastas"] == 300


def test_holding_three_sevens_costs_1500():
    penalties = [{"kind": "held_sevens"}]
    result = scored(MODERN, team(melded_points=70, hand_points=15, penalties=penalties), team())
    assert result.teams[0].breakdown["penalties"] == -1500
    errors = refused(PRESETS["classic"], team(penalties=penalties), team())
    only(errors, "teams[0].penalties[0].kind", "needs a kind")


@pytest.mark.parametrize(
    ("twos", "jokers", "kind", "bonus"),
    [(7, 0, "wild_twos", 3000), (3, 4, "wild_jokers", 2500), (5, 2, "wild", 2000)],
)
def test_wild_canastas_score_by_their_cards(twos, jokers, kind, bonus):
    meld = {"rank": "wild", "twos": twos, "jokers": jokers}
    result = scored(MODERN, team(melds=[meld]), team()).teams[0]
    assert kinds(result) == {kind: 1} and result.breakdown["canastas"] == bonus
    assert result.melded_points == 20 * twos + 50 * jokers


def test_an_unfinished_wild_meld_costs_2000_and_stops_going_out():
    wild = {"rank": "wild", "twos": 3}
    result = scored(MODERN, team(melds=[wild, SEVEN_KINGS]), team()).teams[0]
    assert result.breakdown["penalties"] == -2000
    melds = [wild, SEVEN_KINGS, {"rank": "Q", "naturals": 7}]
    errors = refused(MODERN, team(melds=melds, went_out="out"), team())
    only(errors, "teams[0].went_out", "unfinished meld", "cannot go out")
    totals = team(melded_points=200, natural_canastas=2, unfinished={"wild": 1}, went_out="out")
    only(refused(MODERN, totals, team()), "teams[0].went_out", "cannot go out")


def test_modern_american_needs_two_canastas_to_go_out():
    errors = refused(MODERN, team(melds=[SEVEN_KINGS], went_out="out"), team())
    only(errors, "teams[0].went_out", "only 1 canasta", "2 are needed")


def test_a_sevens_canasta_with_a_wild_card_is_refused():
    errors = refused(MODERN, team(melds=[{"rank": "7", "naturals": 6, "twos": 1}]), team())
    only(errors, "teams[0].melds[0]", "meld of sevens", "without wild cards")


def test_three_wild_cards_and_eight_cards_are_refused():
    errors = refused(MODERN, team(melds=[{"rank": "K", "naturals": 4, "twos": 3}]), team())
    only(errors, "teams[0].melds[0]", "at most 2 wild cards")
    errors = refused(MODERN, team(melds=[{"rank": "K", "naturals": 8}]), team())
    only(errors, "teams[0].melds[0]", "8 cards", "at most 7")


def test_more_sevens_than_the_decks_hold():
    before = [-100, -100]
    two_sevens_canastas = team(melded_points=35, canastas={"sevens": 1})
    errors = refused(MODERN, two_sevens_canastas, dict(two_sevens_canastas), before=before)
    only(errors, "teams", "14 sevens", "2 decks hold only 8")
    errors = refused(MODERN, team(melded_points=70, canastas={"sevens": 2}), team())
    one(errors, "teams[0].canastas.sevens", "at most 1 canasta of sevens")
    three = team(melds=[{"rank": "7", "naturals": 3}])
    errors = refused(MODERN, team(melds=[SEVEN_SEVENS]), three, before=before)
    only(errors, "teams", "10 sevens", "8")


def test_a_canasta_and_an_unfinished_meld_of_sevens_are_one_meld_too_many():
    errors = refused(
        MODERN, team(melded_points=60, canastas={"sevens": 1}, unfinished={"sevens": 1}), team()
    )
    one(errors, "teams[0].unfinished.sevens", "one meld per rank")


@pytest.mark.parametrize(("hand", "points"), [("straight", 3000), ("garbage", 2000)])
def test_a_special_hand_scores_its_points_in_place_of_going_out(hand, points):
    # The special hand is not melded: no canasta is needed, the partner's melds count.
    result = scored(MODERN, team(melded_points=0, special_hand=hand, red_threes=1), team())
    first = result.teams[0]
    assert first.breakdown["going_out"] == points and first.special_hand == hand
    assert first.hand_score == points - 100  # a red three without a meld counts minus


def test_a_special_hand_of_another_game_is_refused():
    errors = refused(MODERN, team(special_hand="flush"), team())
    only(errors, "teams[0].special_hand", "straight, pairs, pairs_with_wilds or garbage")
    errors = refused(SAMBA, team(special_hand="straight"), team())
    only(errors, "teams[0].special_hand", "have none")
    errors = refused(MODERN, team(special_hand="straight", went_out="none"), team())
    only(errors, "teams[0].went_out", "special hand")


def test_a_black_three_left_in_hand_costs_100():
    result = scored(MODERN, team(melded_points=60, hand_cards={"3": 2, "K": 1}), team())
    assert result.teams[0].breakdown["cards_in_hand"] == -210


def test_modern_american_game_ends_at_8500():
    assert game_result(MODERN, [8495, 3000]) == (False, None)
    assert game_result(MODERN, [8500, 3000]) == (True, 0)


# -- Hand and Foot ----------------------------------------------------------------------
# jerrycolby, formsbirds, nwpages: decks = players + 1, a hand and a foot of 11, clean
# books 500, dirty 300, going out 100, red threes 100, at most 3 wilds, no more wilds than
# naturals; four rounds at 50, 90, 120, 150; exactly 22 cards drawn 100 (rversofidaho);
# two clean and two dirty books to go out (goodsams); a red three caught in hand -500.


def test_hand_and_foot_settings():
    r = HAND_AND_FOOT
    assert (r.players, r.decks, r.cards_dealt, r.hands_in_game) == (4, 5, 22, 4)
    assert r.initial_meld_by_hand == (50, 90, 120, 150)
    assert [initial_meld_minimum(r, 0, 0, hand) for hand in (1, 2, 3, 4, 5)] == [
        50,
        90,
        120,
        150,
        150,
    ]
    assert dict(r.going_out_kinds) == {"natural": 2, "mixed": 2}
    assert (r.perfect_cut_enabled, r.perfect_cut_bonus, r.penalty_red_three_in_hand) == (
        True,
        100,
        500,
    )


def test_rarepikes_worked_round_scores_1695():
    # rarepike.com: 2 clean books +1,000, 1 dirty book +300, melded cards +340, going out
    # +100, cards left in the partner's hand -45: 1,695 (that page needs three books).
    rules, _ = rules_from_spec(
        {"preset": "hand-and-foot", "canastas_to_go_out": 3, "going_out_kinds": {"natural": 2}}
    )
    hand = team(melded_points=340, canastas={"natural": 2, "mixed": 1}, went_out="out")
    result = scored(rules, {**hand, "hand_points": 45}, team()).teams[0]
    assert result.hand_score == 1695


def test_hand_and_foot_goes_out_with_two_clean_and_two_dirty_books():
    clean = [{"rank": r, "naturals": 7} for r in ("K", "Q")]
    dirty = [{"rank": r, "naturals": 5, "twos": 2} for r in ("J", "10")]
    result = scored(HAND_AND_FOOT, team(melds=clean + dirty, went_out="out"), team())
    assert result.teams[0].hand_score == 140 + 2 * 90 + 1000 + 600 + 100
    errors = refused(HAND_AND_FOOT, team(melds=clean * 2, went_out="out"), team())
    only(errors, "teams[0].went_out", "no mixed canasta", "2 mixed canastas")


def test_hand_and_foot_allows_two_books_of_a_rank_and_red_threes_always_count():
    melds = [{"rank": "K", "naturals": 7}, {"rank": "K", "naturals": 7}]
    result = scored(HAND_AND_FOOT, team(melds=melds), team(red_threes=2)).teams
    assert result[0].breakdown["canastas"] == 1000
    assert result[1].breakdown["red_threes"] == 200  # no meld, still plus


def test_hand_and_foot_minimum_goes_by_the_round():
    hand = [team(melded_points=100), team()]
    assert score_request({"rules": "hand-and-foot", "teams": hand, "hand_number": 2})[1]
    result, ok = score_request({"rules": "hand-and-foot", "teams": hand, "hand_number": 3})
    assert not ok and "hand 3" in result["errors"][0]["message"]
    assert "120" in result["errors"][0]["message"]


def test_hand_and_foot_ends_after_the_fourth_round_with_the_highest_total():
    assert game_result(HAND_AND_FOOT, [9000, 100], 3) == (False, None)
    assert game_result(HAND_AND_FOOT, [900, 1100], 4) == (True, 1)
    assert game_result(HAND_AND_FOOT, [900, 900], 4) == (False, None)  # another round
    result, _ = score_request(
        {
            "rules": "hand-and-foot",
            "scores_before": [2000, 1000],
            "teams": [team(melded_points=200), team(melded_points=300)],
            "hand_number": 4,
        }
    )
    assert (result["game_over"], result["winner"]) == (True, 0)
    assert result["teams"][0]["minimum_next"] == 150


def test_a_bad_hand_number_is_refused():
    result, ok = score_request({"rules": "hand-and-foot", "teams": [{}, {}], "hand_number": 0})
    assert not ok and result["errors"][0]["field"] == "hand_number"


# -- Samba ------------------------------------------------------------------------------
# bicyclecards (Samba): three decks, 15 cards, sequences of one suit without wild cards,
# a samba (seven in sequence) 1,500, at most two wild cards, two canastas to go out (any
# kind), two canastas of a rank allowed, minimums 15/50/90/120/160 at 7,000, game 10,000,
# going out 200, no concealed bonus, red threes 100 each or 1,000 for all six.
# howstuffworks: red threes count minus without two canastas.


def test_samba_settings():
    r = SAMBA
    assert (r.decks, r.cards_dealt, r.target_score, r.max_wild_per_meld) == (3, 15, 10000, 2)
    assert (r.going_out_bonus, r.concealed_bonus, r.canastas_to_go_out) == (200, 200, 2)
    assert initial_meld_minimum(r, 6995) == 120 and initial_meld_minimum(r, 7000) == 160
    assert r.red_three_score(6, True) == 1000 and r.red_three_score(5, True) == 500


def test_a_samba_scores_1500():
    # 4 to 10 of one suit: 4 x 5 + 3 x 10 = 50 in cards, 1,500 for the samba.
    melds = [SAMBA_4_TO_10, SEVEN_KINGS]
    result = scored(SAMBA, team(melds=melds, went_out="out", red_threes=6), team()).teams[0]
    assert kinds(result) == {"sequence": 1, "natural": 1}
    assert result.breakdown == {
        "melded_cards": 120,
        "canastas": 2000,
        "red_threes": 1000,
        "going_out": 200,
        "perfect_cut": 0,
        "cards_in_hand": 0,
        "penalties": 0,
    }


def test_samba_red_threes_count_minus_without_two_canastas():
    result = scored(SAMBA, team(melds=[SEVEN_KINGS], red_threes=2), team()).teams[0]
    assert result.breakdown["red_threes"] == -200


def test_samba_two_canastas_of_a_rank():
    melds = [{"rank": "K", "naturals": 7}, {"rank": "K", "naturals": 5, "twos": 2}]
    result = scored(SAMBA, team(melds=melds, went_out="out"), team()).teams[0]
    assert kinds(result) == {"natural": 1, "mixed": 1}


def test_a_samba_of_six_points_short_and_sequences_that_are_not_one():
    errors = refused(
        SAMBA, team(melded_points=45, canastas={"sequence": 1}), team(), before=[-5, 0]
    )
    only(errors, "teams[0].melded_points", "1 samba", "at least 50", "4 to 10 of one suit")
    eight = {"sequence": ["4", "5", "6", "7", "8", "9", "10", "J"]}
    only(refused(SAMBA, team(melds=[eight]), team()), "teams[0].melds[0].sequence", "stops at 7")
    gap = {"sequence": ["4", "5", "7"]}
    only(refused(SAMBA, team(melds=[gap]), team()), "teams[0].melds[0].sequence", "gap")
    three = {"sequence": ["3", "4", "5"]}
    only(refused(SAMBA, team(melds=[three]), team()), "teams[0].melds[0].sequence", "4 up to A")
    six = {"sequence": ["4", "5", "6", "7", "8", "9"]}  # six in sequence: a meld, no samba
    assert kinds(scored(SAMBA, team(melds=[six]), team(), before=[-100, 0]).teams[0]) == {}


def test_a_sequence_with_a_wild_card_is_refused():
    meld = {**SAMBA_4_TO_10, "twos": 1}
    errors = refused(SAMBA, team(melds=[meld]), team())
    only(errors, "teams[0].melds[0]", "sequence (samba)", "natural cards of one suit")


def test_sequences_only_in_games_that_have_them():
    errors = refused(PRESETS["classic"], team(melds=[SAMBA_4_TO_10]), team())
    one(errors, "teams[0].melds[0].sequence", "rank, naturals, jokers and twos")


def test_samba_game_ends_at_10000():
    assert game_result(SAMBA, [9995, 0]) == (False, None)
    assert game_result(SAMBA, [10000, 0]) == (True, 0)


# -- Bolivia ----------------------------------------------------------------------------
# bicyclecards (Bolivia): Samba with wild melds, a bolivia (seven wilds) 2,500, an
# escalera (sequence canasta) among the two canastas to go out, game 15,000, 150 from
# 7,000, a black three left in hand -100 (melded ones 5). bright.net: red threes count
# plus only with two canastas.


def test_bolivia_settings():
    r = BOLIVIA
    assert r.target_score == 15000 and initial_meld_minimum(r, 7000) == 150
    assert {k.key: (k.label, k.bonus) for k in r.kinds if k.key not in ("natural", "mixed")} == {
        "bolivia": ("Bolivia", 2500),
        "sequence": ("Escalera", 1500),
    }


def test_a_bolivia_and_an_escalera_go_out():
    wild = {"rank": "wild", "twos": 5, "jokers": 2}
    melds = [wild, SAMBA_4_TO_10]
    result = scored(BOLIVIA, team(melds=melds, went_out="out"), team(hand_cards={"3": 1}))
    first, second = result.teams
    assert kinds(first) == {"bolivia": 1, "sequence": 1}
    assert first.hand_score == 200 + 50 + 2500 + 1500 + 200
    assert second.breakdown["cards_in_hand"] == -100


def test_bolivia_going_out_without_an_escalera():
    melds = [SEVEN_KINGS, {"rank": "Q", "naturals": 7}]
    errors = refused(BOLIVIA, team(melds=melds, went_out="out"), team())
    error = only(errors, "teams[0].went_out", "no escalera", "1 escalera")
    assert error.message == (
        "Team 1 went out with no escalera; under these rules (Bolivia) going out needs "
        "1 escalera among its canastas."
    )


def test_an_escalera_with_a_wild_card():
    errors = refused(BOLIVIA, team(melds=[{**SAMBA_4_TO_10, "jokers": 1}]), team())
    only(errors, "teams[0].melds[0]", "escalera", "wild card")


def test_wild_melds_only_of_wild_cards():
    errors = refused(BOLIVIA, team(melds=[{"rank": "wild", "naturals": 1, "twos": 3}]), team())
    only(errors, "teams[0].melds[0]", "wild meld", "jokers and twos only")


# -- Uruguayan and Cuban canasta ---------------------------------------------------------


def test_uruguayan_wild_canasta_scores_2000():
    # rummy-games (Uruguay); Parlett: "wild canastas count 2000 extra".
    meld = {"rank": "wild", "jokers": 1, "twos": 6}
    result = scored(URUGUAYAN, team(melds=[meld]), team()).teams[0]
    assert result.breakdown["canastas"] == 2000 and result.melded_points == 170


def test_cuban_wild_canastas_and_red_threes():
    # rummy-games (Cuban): seven deuces 4,000, four jokers and three deuces 3,000, other
    # wild canastas 2,000; red threes 100/300/500/1,000, plus only with a canasta.
    twos = scored(CUBAN, team(melds=[{"rank": "wild", "twos": 7}]), team()).teams[0]
    assert twos.breakdown["canastas"] == 4000
    four = scored(CUBAN, team(melds=[{"rank": "wild", "jokers": 4, "twos": 3}]), team()).teams[0]
    assert four.breakdown["canastas"] == 3000
    reds = [
        scored(CUBAN, team(melds=[SEVEN_KINGS], red_threes=n), team()).teams[0]
        for n in (1, 2, 3, 4)
    ]
    assert [r.breakdown["red_threes"] for r in reds] == [100, 300, 500, 1000]
    no_canasta = scored(CUBAN, team(melded_points=60, red_threes=2), team()).teams[0]
    assert no_canasta.breakdown["red_threes"] == -300


# -- settings that must agree --------------------------------------------------------


def test_kinds_needed_to_go_out_must_be_kinds_of_the_game():
    _, errors = rules_from_spec({"preset": "classic", "going_out_kinds": [["sequence", 1]]})
    assert [e.field for e in errors] == ["rules.going_out_kinds"]
    _, errors = rules_from_spec({"preset": "samba", "going_out_kinds": [["sequence", 3]]})
    assert [e.field for e in errors] == ["rules.canastas_to_go_out"]


def test_wild_and_bolivia_are_the_same_canastas():
    kinds_ = [{"kind": "wild", "bonus": 2000}, {"kind": "bolivia", "bonus": 2500}]
    _, errors = rules_from_spec({"preset": "classic", "canasta_kinds": kinds_})
    only(errors, "rules.canasta_kinds", "same canastas")


def test_a_meld_limit_below_seven_is_refused():
    _, errors = rules_from_spec({"preset": "classic", "max_meld_cards": 6})
    only(errors, "rules.max_meld_cards", "never be a canasta")


def test_a_house_rule_is_one_setting_away():
    # Aces 2,000 instead of 2,500 (house-rule summaries), as an override.
    kinds_ = [k.to_dict() for k in MODERN.canasta_kinds]
    for entry in kinds_:
        if entry["kind"] == "aces":
            entry["bonus"] = 2000
    rules, errors = rules_from_spec({"preset": "modern-american", "canasta_kinds": kinds_})
    assert errors == []
    result = scored(rules, team(melds=[SEVEN_ACES]), team()).teams[0]
    assert result.breakdown["canastas"] == 2000
