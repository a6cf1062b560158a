"""Issue 11's corrections of the rules, each through totals entry and card-by-card entry.

Canasta minimums (the cheapest distinct ranks), three-deck red threes, the initial meld
held in melded points, and the scores before a hand. Every refusal names the field and
the number that would make the hand possible.
"""

from __future__ import annotations

import itertools

import pytest

from scoring.engine import PRESET_SLUGS, PRESETS, rules_from_spec
from scoring.engine.validate.canastas import MOST_CANASTAS, canasta_table, cheapest_canastas

from .helpers import CLASSIC, CLUB, SIX_PLAYER, THREE_TEAMS, melded, only, refused, scored, team

# The melds of hands that both entries must treat alike.
FIVE_NATURALS = [{"rank": rank, "naturals": 7} for rank in ("4", "5", "6", "7", "8")]
MIXED_OF_FOURS = [{"rank": "4", "naturals": 6, "twos": 1}]
NATURAL_AND_MIXED = [{"rank": "4", "naturals": 7}, {"rank": "5", "naturals": 6, "twos": 1}]


def both_ways(rules, melds, before=None, **entries):
    """The hand scored with ``melds`` entered card by card and as totals: the outcomes
    must agree; returns the first team's result."""
    detailed = scored(rules, team(melds=melds, **entries), team(), before=before)
    points = sum(
        m["naturals"] * (5 if m["rank"] in "4567" else 10) + 20 * m.get("twos", 0) for m in melds
    )
    natural = sum(1 for m in melds if m["naturals"] >= 7 and not m.get("twos"))
    mixed = sum(1 for m in melds if m["naturals"] + m.get("twos", 0) >= 7 and m.get("twos"))
    quick = scored(rules, melded(points, natural, mixed, **entries), team(), before=before)
    assert detailed.to_dict() == quick.to_dict()
    return quick.teams[0]


# -- canasta minimums -----------------------------------------------------------------


def test_a_mixed_canasta_of_50_points_scores_350_either_way():
    result = both_ways(CLASSIC, MIXED_OF_FOURS, before=[-100, 0])
    assert result.melded_points == 50 and result.hand_score == 350


def test_five_natural_canastas_need_210_melded_points():
    result = both_ways(CLASSIC, FIVE_NATURALS)
    assert result.melded_points == 210 and result.hand_score == 210 + 5 * 500
    errors = refused(CLASSIC, melded(175, 5), team())
    only(errors, "teams[0].melded_points", "at least 210", "175", "7 eights")
    errors = refused(CLASSIC, melded(205, 5), team())
    only(errors, "teams[0].melded_points", "at least 210")


def test_a_natural_and_a_mixed_canasta_need_85():
    result = both_ways(CLASSIC, NATURAL_AND_MIXED)
    assert result.melded_points == 85 and result.hand_score == 85 + 500 + 300
    errors = refused(CLASSIC, melded(80, 1, 1), team())
    only(errors, "teams[0].melded_points", "at least 85", "80")


def test_twelve_canastas_are_refused_naming_eleven():
    errors = refused(CLASSIC, melded(1000, 6, 6), team())
    only(errors, "teams[0].natural_canastas", "at most 11", "12 in all")
    errors = refused(CLASSIC, melded(1000, 0, 12), team())
    only(errors, "teams[0].mixed_canastas", "at most 11")
    # Card by card a twelfth canasta needs a rank a team has already melded.
    melds = [{"rank": rank, "naturals": 7} for rank in ("A", "K", "Q", "J", "10", "9")]
    melds += [{"rank": rank, "naturals": 4} for rank in ("8", "7", "6", "5", "4")]
    melds += [{"rank": "4", "naturals": 3}]
    errors = refused(CLASSIC, team(melds=melds), team())
    only(errors, "teams[0].melds[11]", "one meld per rank")


def test_eleven_canastas_are_possible_either_way():
    ranks = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
    melds = [{"rank": rank, "naturals": 7} for rank in ranks]
    result = scored(CLASSIC, team(melds=melds), team())
    assert result.teams[0].natural_canastas == 11 and result.teams[0].melded_points == 700
    assert scored(CLASSIC, melded(700, 11), team()).to_dict() == result.to_dict()
    refused(CLASSIC, melded(695, 11), team())


def _independent_minimums():
    """The cheapest canastas by brute force over every choice of ranks (for at most 8
    mixed canastas, which two decks hold twos for): 35/50 for 4-7, 70/80 for 8-K, 140 A."""
    natural = {5: 35, 10: 70, 20: 140}
    mixed = {5: 50, 10: 80, 20: 140}
    values = [20] + [10] * 6 + [5] * 4
    best: dict[tuple[int, int], int] = {}
    for choice in itertools.product((0, 1, 2), repeat=len(values)):
        nat, mix = choice.count(1), choice.count(2)
        cost = sum(
            natural[v] if c == 1 else mixed[v] if c == 2 else 0
            for v, c in zip(values, choice, strict=True)
        )
        if mix <= 8 and cost < best.get((nat, mix), 10**9):
            best[(nat, mix)] = cost
    return best


@pytest.mark.parametrize("slug", ["classic", "club", "three-player"])
def test_every_canasta_minimum_is_the_cheapest_and_both_entries_agree(slug):
    rules = PRESETS[slug]
    expected = _independent_minimums()
    table = canasta_table(rules)
    assert (table.most, table.most_natural, table.most_mixed) == (11, 11, 11)
    for nat, mix in itertools.product(range(MOST_CANASTAS + 1), repeat=2):
        canastas = cheapest_canastas(rules, nat, mix)
        if nat + mix > MOST_CANASTAS:
            assert canastas is None
            continue
        least = sum(c.points for c in canastas)
        if (nat, mix) in expected:
            assert least == expected[(nat, mix)], (nat, mix)
        others = [team()] * (rules.teams - 1)
        before = [-100] * rules.teams  # the lowest initial-meld minimum (15)
        melds = [c.as_meld() for c in canastas]
        by_cards = scored(rules, team(melds=melds), *others, before=before).teams[0]
        assert (by_cards.melded_points, by_cards.natural_canastas) == (least, nat)
        assert by_cards.mixed_canastas == mix
        if least:
            scored(rules, melded(least, nat, mix), *others, before=before)
            refused(rules, melded(least - 5, nat, mix), *others, before=before)


def test_one_deck_allows_no_natural_canasta():
    rules, errors = rules_from_spec({"preset": "two-player", "decks": 1, "cards_dealt": 10})
    assert errors == []
    errors = refused(rules, melded(200, 1), team())
    only(errors, "teams[0].natural_canastas", "at most 0 natural canastas")


# -- red threes with three decks ------------------------------------------------------


@pytest.mark.parametrize("rules", [SIX_PLAYER, THREE_TEAMS], ids=["six-player", "three-teams"])
@pytest.mark.parametrize(("count", "points"), [(4, 400), (5, 1000), (6, 1200)])
def test_three_decks_four_red_threes_count_100_each(rules, count, points):
    others = [team()] * (rules.teams - 2)
    outcome = scored(rules, melded(50, red_threes=count), team(), *others)
    assert outcome.teams[0].breakdown["red_threes"] == points
    outcome = scored(rules, team(red_threes=count), melded(50), *others)
    assert outcome.teams[0].breakdown["red_threes"] == -points


def test_two_decks_all_four_red_threes_still_count_800():
    assert scored(CLASSIC, melded(50, red_threes=4), team()).teams[0].hand_score == 850


# -- the initial meld held in melded points -------------------------------------------

# 65 points in melds: four kings and five fives.
SIXTY_FIVE = [{"rank": "K", "naturals": 4}, {"rank": "5", "naturals": 5}]


def test_a_team_that_needed_90_cannot_show_65_melded_points():
    errors = refused(CLASSIC, melded(120), melded(65), before=[0, 1500])
    only(errors, "teams[1].melded_points", "Team 2", "at least 90", "65", "1,500")
    errors = refused(CLASSIC, melded(120), team(melds=SIXTY_FIVE), before=[0, 1500])
    only(errors, "teams[1].melds", "at least 90", "65")
    assert scored(CLASSIC, melded(120), melded(90), before=[0, 1500]).ok


def test_failed_initial_melds_raise_the_minimum():
    # 50 for a score of 0, plus 10 for each of two failed attempts.
    errors = refused(CLASSIC, melded(65, failed_melds=2), team())
    only(errors, "teams[0].melded_points", "at least 70", "plus 20 for 2 failed attempts")
    errors = refused(CLASSIC, team(melds=SIXTY_FIVE, failed_melds=2), team())
    only(errors, "teams[0].melds", "at least 70")
    assert scored(CLASSIC, team(melds=SIXTY_FIVE, failed_melds=1), team()).ok
    assert scored(CLASSIC, melded(65, failed_melds=1), team()).ok


def test_failed_melds_must_be_a_count():
    errors = refused(CLASSIC, melded(120, failed_melds=-1), team())
    only(errors, "teams[0].failed_melds", "negative")


def test_a_team_that_has_not_melded_needs_no_minimum():
    assert scored(CLASSIC, team(hand_points=100, failed_melds=3), team(), before=[3000, 0]).ok


# Hand and Foot and Bolivia go out only with canastas of particular kinds (their own
# tests show the exemption with those).
@pytest.mark.parametrize("slug", [s for s in PRESET_SLUGS if not PRESETS[s].going_out_kinds])
def test_every_preset_exempts_going_out_concealed(slug):
    """Pagat: a player who melds the whole hand at once, a canasta included, goes out
    without the initial-meld minimum (the club's seeds are silent)."""
    rules = PRESETS[slug]
    assert rules.initial_meld_check == "except_concealed"
    need = max(rules.canastas_to_go_out, 1)
    melds = [{"rank": rank, "naturals": 7} for rank in ("4", "5")[:need]]
    others = [team()] * (rules.teams - 1)
    before = [3000] * rules.teams
    assert scored(rules, team(melds=melds, went_out="concealed"), *others, before=before).ok
    errors = refused(rules, team(melds=melds, went_out="out"), *others, before=before)
    only(errors, "teams[0].melds", "at least 120")


def test_the_setting_always_checks_a_concealed_hand_too():
    rules, _ = rules_from_spec({"preset": "classic", "initial_meld_check": "always"})
    errors = refused(rules, melded(35, 1, went_out="concealed"), team(), before=[3000, 0])
    only(errors, "teams[0].melded_points", "at least 120", "35")


def test_the_setting_never_scores_as_before_the_check():
    rules, _ = rules_from_spec({"preset": "club", "initial_meld_check": "never"})
    assert scored(rules, melded(120), melded(65), before=[0, 1500]).teams[1].hand_score == 65


def test_the_setting_refuses_an_unknown_value():
    rules, errors = rules_from_spec({"preset": "classic", "initial_meld_check": "sometimes"})
    assert rules is None
    only(errors, "rules.initial_meld_check", "except_concealed, always or never", "sometimes")


def test_a_table_of_three_keeps_the_setting():
    from scoring.engine import table_variant

    rules, _ = rules_from_spec({"preset": "club", "initial_meld_check": "always"})
    assert table_variant(rules, 3).initial_meld_check == "always"


# -- scores before the hand -----------------------------------------------------------


def test_scores_before_a_hand_are_multiples_of_5():
    errors = refused(CLUB, melded(120), melded(120), before=[1492, 0])
    only(errors, "scores_before[0]", "Team 1", "1,492", "multiple of 5", "1,490 or 1,495")
    errors = refused(CLUB, melded(120), melded(120), before=[0, -3])
    only(errors, "scores_before[1]", "-5 or 0")


# -- only one perfect cut -------------------------------------------------------------


def test_two_teams_both_marked_for_a_perfect_cut():
    errors = refused(CLUB, melded(120, perfect_cut=True), melded(120, perfect_cut=True))
    only(errors, "teams", "Teams 1 and 2 are both marked")


def test_three_players_all_marked_for_a_perfect_cut():
    rules, _ = rules_from_spec({"preset": "three-player", "perfect_cut_enabled": True})
    cut = melded(120, perfect_cut=True)
    errors = refused(rules, cut, dict(cut), dict(cut))
    only(errors, "teams", "Players 1, 2 and 3 are all marked")
