"""Cards, rule sets, presets and the initial meld requirement."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scoring.engine import (
    CARD_VALUES,
    HAND_CARD_KEYS,
    MELD_RANKS,
    PENALTY_KINDS,
    PRESET_SLUGS,
    PRESETS,
    RULESET_FIELDS,
    RuleSet,
    initial_meld_minimum,
    rules_from_spec,
)

from .helpers import CLASSIC, CLUB, SIX_PLAYER, THREE_TEAMS, TWO_PLAYER, is_sentence

# -- cards -----------------------------------------------------------------------------


def test_card_values_follow_the_table():
    assert CARD_VALUES["joker"] == 50
    assert CARD_VALUES["2"] == 20
    assert CARD_VALUES["A"] == 20
    for rank in ("K", "Q", "J", "10", "9", "8"):
        assert CARD_VALUES[rank] == 10
    for rank in ("7", "6", "5", "4", "3"):
        assert CARD_VALUES[rank] == 5
    assert set(CARD_VALUES) == set(HAND_CARD_KEYS)


def test_ranks_and_keys_and_penalty_kinds():
    assert MELD_RANKS == ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
    assert HAND_CARD_KEYS[:3] == ("joker", "2", "A") and HAND_CARD_KEYS[-1] == "3"
    assert PENALTY_KINDS == (
        "ask_to_go_out_failed",
        "discard_unused",
        "red_three_in_hand",
        "other",
    )


def test_two_decks_hold_1180_card_points_and_108_cards():
    deck = CLASSIC.deck_totals
    assert deck.card_points == 1180
    assert deck.cards == 108
    assert deck.red_threes == 4
    assert deck.per_natural_rank == 8
    assert deck.black_threes == 4
    assert deck.twos == 8
    assert deck.jokers == 4
    assert deck.limit("K") == 8 and deck.limit("3") == 4 and deck.limit("joker") == 4


def test_three_decks_hold_12_6_6_12_6():
    deck = SIX_PLAYER.deck_totals
    assert (deck.per_natural_rank, deck.black_threes, deck.red_threes, deck.twos) == (
        12,
        6,
        6,
        12,
    )
    assert deck.jokers == 6
    assert deck.card_points == 1770


# -- presets ---------------------------------------------------------------------------


def test_preset_slugs_in_table_order():
    assert PRESET_SLUGS == (
        "classic",
        "club",
        "two-player",
        "six-player",
        "three-teams",
        "three-player",
        "modern-american",
        "hand-and-foot",
        "samba",
        "bolivia",
        "uruguayan",
        "cuban",
    )
    assert tuple(PRESETS) == PRESET_SLUGS
    for slug, rules in PRESETS.items():
        assert rules.name == slug
        assert rules.label


def test_classic_preset():
    r = CLASSIC
    assert (r.players, r.teams, r.players_per_team, r.decks, r.cards_dealt) == (4, 2, 2, 2, 11)
    assert (r.natural_canasta_bonus, r.mixed_canasta_bonus) == (500, 300)
    assert r.red_three_value == 100 and dict(r.red_three_schedule) == {4: 800}
    assert r.red_threes_negative_without_meld is True
    assert (r.going_out_bonus, r.concealed_bonus) == (100, 200)
    assert r.canastas_to_go_out == 1
    assert r.initial_meld_table == ((None, 15), (0, 50), (1500, 90), (3000, 120))
    assert r.failed_meld_increase == 10
    assert r.target_score == 5000
    assert r.perfect_cut_enabled is False and r.perfect_cut_bonus == 100
    assert (r.penalty_ask_to_go_out, r.penalty_discard_unused, r.penalty_red_three_in_hand) == (
        100,
        50,
        500,
    )
    assert (r.max_wild_per_meld, r.min_naturals_per_meld) == (3, 2)
    assert r.wilds_may_not_outnumber_naturals is False
    assert r.black_three_meld is True
    assert r.perfect_cut_cards == 44


def test_club_preset():
    assert CLUB.canastas_to_go_out == 2
    assert CLUB.perfect_cut_enabled is True and CLUB.perfect_cut_bonus == 100
    assert CLUB.wilds_may_not_outnumber_naturals is True
    assert CLUB.target_score == 5000 and dict(CLUB.red_three_schedule) == {4: 800}
    assert CLUB.red_threes_negative_without_meld is True


def test_two_player_preset():
    r = TWO_PLAYER
    assert (r.players, r.teams, r.players_per_team, r.cards_dealt) == (2, 2, 1, 15)
    assert r.canastas_to_go_out == 2 and r.decks == 2 and r.target_score == 5000
    assert r.team_word == "Player"
    assert (r.team_label(0), CLUB.team_label(1)) == ("Player 1", "Team 2")


def test_six_player_preset():
    r = SIX_PLAYER
    assert (r.players, r.teams, r.players_per_team, r.decks, r.cards_dealt) == (6, 2, 3, 3, 13)
    assert r.canastas_to_go_out == 2 and r.target_score == 10000
    assert dict(r.red_three_schedule) == {5: 1000, 6: 1200}
    assert r.red_three_score(4, True) == 400 and r.red_three_score(4, False) == -400
    assert initial_meld_minimum(r, 7500) == 150
    assert initial_meld_minimum(r, 7495) == 120


def test_three_teams_preset():
    r = THREE_TEAMS
    assert (r.players, r.teams, r.players_per_team, r.decks, r.cards_dealt) == (6, 3, 2, 3, 13)
    assert r.canastas_to_go_out == 2 and r.target_score == 7500
    assert dict(r.red_three_schedule) == {5: 1000, 6: 1200}


@pytest.mark.parametrize("slug", PRESET_SLUGS)
def test_presets_round_trip_through_json(slug):
    rules = PRESETS[slug]
    data = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(data) == rules
    again, errors = rules_from_spec(data)
    assert errors == [] and again == rules
    assert hash(again) == hash(rules)


def test_to_dict_names_every_field_in_order():
    assert list(CLASSIC.to_dict()) == [field.name for field in RULESET_FIELDS]
    names = {field.name for field in dataclasses.fields(RuleSet) if not field.name.startswith("_")}
    assert names == {field.name for field in RULESET_FIELDS}


def test_ruleset_fields_describe_each_setting():
    kinds = {
        "text", "count", "points", "bool", "schedule", "schedule_or_null", "meld_table", "choice",
        "kinds", "kind_counts", "card_values", "minimums", "special_hands",
    }  # fmt: skip
    for field in RULESET_FIELDS:
        assert field.type in kinds
        assert field.label and is_sentence(field.help), field
        if field.type in ("count", "points"):
            assert field.minimum is not None and field.maximum is not None
        assert bool(field.choices) == (field.type == "choice"), field


def test_rule_sets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC.target_score = 10  # type: ignore[misc]


def test_impossible_rule_sets_cannot_be_built():
    with pytest.raises(ValueError, match="Game target"):
        dataclasses.replace(CLASSIC, target_score=0)
    with pytest.raises(ValueError, match="teams"):
        dataclasses.replace(CLASSIC, players=5)


def test_from_dict_is_strict():
    data = CLASSIC.to_dict()
    del data["target_score"]
    with pytest.raises(ValueError, match="target_score"):
        RuleSet.from_dict(data)
    data = CLASSIC.to_dict() | {"colour": "red"}
    with pytest.raises(ValueError, match="colour"):
        RuleSet.from_dict(data)
    data = CLASSIC.to_dict() | {"decks": "two"}
    with pytest.raises(ValueError, match="Decks"):
        RuleSet.from_dict(data)


# -- rules_from_spec -------------------------------------------------------------------


def test_spec_by_slug():
    for slug in PRESET_SLUGS:
        assert rules_from_spec(slug) == (PRESETS[slug], [])


def test_spec_with_overrides():
    rules, errors = rules_from_spec({"preset": "club", "target_score": 3000})
    assert errors == []
    assert rules.target_score == 3000 and rules.canastas_to_go_out == 2
    assert rules.perfect_cut_enabled is True


def test_spec_preset_defaults_to_classic():
    rules, errors = rules_from_spec({"going_out_bonus": 150})
    assert errors == []
    assert rules.going_out_bonus == 150 and rules.canastas_to_go_out == 1


def test_spec_schedules_and_meld_table():
    rules, errors = rules_from_spec(
        {
            "red_three_schedule": {"4": 800},
            "red_three_schedule_without_meld": [[4, 400]],
            "initial_meld_table": [[None, 15], [0, 50], [2000, 100]],
        }
    )
    assert errors == []
    assert rules.red_three_schedule == ((4, 800),)
    assert rules.red_three_schedule_without_meld == ((4, 400),)
    assert rules.red_three_score(4, melded=False) == -400
    assert rules.red_three_score(3, melded=False) == -300
    assert rules.red_three_score(4, melded=True) == 800
    assert initial_meld_minimum(rules, 1995) == 50 and initial_meld_minimum(rules, 2000) == 100


def test_spec_unknown_slug():
    rules, errors = rules_from_spec("canasta-deluxe")
    assert rules is None
    assert [e.field for e in errors] == ["rules"]
    assert "classic" in errors[0].message and is_sentence(errors[0].message)


@pytest.mark.parametrize("spec", [None, 3, 2.5, True, [], ["classic"]])
def test_spec_of_the_wrong_kind(spec):
    rules, errors = rules_from_spec(spec)
    assert rules is None and [e.field for e in errors] == ["rules"]
    assert is_sentence(errors[0].message)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("target_score", 0),
        ("target_score", -5000),
        ("target_score", 5000.0),
        ("target_score", "5000"),
        ("natural_canasta_bonus", -500),
        ("mixed_canasta_bonus", 299),
        ("going_out_bonus", True),
        ("decks", 0),
        ("canastas_to_go_out", -1),
        ("perfect_cut_enabled", "yes"),
        ("red_three_schedule", [[4]]),
        ("red_three_schedule", [[4, 800], [4, 900]]),
        ("red_three_schedule", "800"),
        ("initial_meld_table", [[0, 50]]),
        ("initial_meld_table", [[None, 15], [1500, 90], [0, 50]]),
        ("initial_meld_table", [[None, 15], [0, 52]]),
        ("name", ""),
        ("min_naturals_per_meld", 0),
    ],
)
def test_spec_nonsense_values_are_refused(key, value):
    rules, errors = rules_from_spec({"preset": "classic", key: value})
    assert rules is None
    assert [e.field for e in errors] == [f"rules.{key}"]
    assert is_sentence(errors[0].message)


def test_spec_collects_every_problem():
    rules, errors = rules_from_spec({"preset": "nope", "colour": "red", "decks": -1})
    assert rules is None
    assert {e.field for e in errors} == {"rules.preset", "rules.colour", "rules.decks"}


def test_spec_settings_that_must_agree():
    rules, errors = rules_from_spec({"players": 6})
    assert rules is None and [e.field for e in errors] == ["rules.players"]
    rules, errors = rules_from_spec({"cards_dealt": 30, "decks": 1})
    assert rules is None and [e.field for e in errors] == ["rules.cards_dealt"]


def test_spec_changes_keep_the_preset_name_unless_given():
    rules, _ = rules_from_spec({"preset": "club", "target_score": 3000, "label": "Short club"})
    assert rules.name == "club" and rules.label == "Short club"


# -- initial meld requirement ----------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "minimum"),
    [
        (-5000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (9000, 120),
    ],
)
def test_initial_meld_minimum_classic(score, minimum):
    assert initial_meld_minimum(CLASSIC, score) == minimum
    assert CLASSIC.minimum(score) == minimum


def test_failed_initial_melds_raise_the_minimum_by_ten_each():
    assert initial_meld_minimum(CLASSIC, 0, failed_attempts=1) == 60
    assert initial_meld_minimum(CLASSIC, 1500, failed_attempts=2) == 110
    assert initial_meld_minimum(CLASSIC, -100, failed_attempts=0) == 15


@pytest.mark.parametrize("key", ["²", "٣", "4²"])
def test_a_schedule_key_that_only_looks_like_digits_is_refused_clearly(key):
    rules, refusals = rules_from_spec({"preset": "club", "red_three_schedule": {key: 800}})
    assert rules is None
    assert [r.field for r in refusals] == ["rules.red_three_schedule"]
    assert "pairs" in refusals[0].message


def test_table_variant_keeps_house_settings_for_three_single_players():
    from scoring.engine import table_variant

    club = PRESETS["club"]
    three = table_variant(club, 3)
    assert (three.players, three.teams, three.players_per_team, three.cards_dealt) == (3, 3, 1, 13)
    assert three.perfect_cut_cards == 39
    assert three.wilds_may_not_outnumber_naturals and three.perfect_cut_enabled
    assert three.canastas_to_go_out == club.canastas_to_go_out
    assert table_variant(club, 2).cards_dealt == 15
    assert table_variant(club, 4) is club


@pytest.mark.parametrize("players", [2, 3])
def test_a_small_table_on_a_classic_day_needs_two_canastas_to_go_out(players):
    """Every two- and three-player game needs two canastas to go out (rules.md), so a
    table of three or two on a classic day does not keep classic's one."""
    from scoring.engine import table_variant

    from .helpers import melded, refused, scored

    small = table_variant(CLASSIC, players)
    assert small.canastas_to_go_out == 2
    others = [melded(50) for _ in range(players - 1)]
    errors = refused(small, melded(200, 1, went_out="out"), *others)
    assert [e.field for e in errors] == ["teams[0].went_out"]
    assert "only 1 canasta; 2 are needed" in errors[0].message
    assert scored(small, melded(400, 2, went_out="out"), *others).teams[0].hand_score == 1500
    # The day's own table of four still goes out with one.
    assert scored(CLASSIC, melded(200, 1, went_out="out"), melded(50)).teams[0].hand_score == 800


def test_a_small_table_keeps_house_rules_that_ask_for_more_canastas():
    from scoring.engine import table_variant

    rules, _ = rules_from_spec({"preset": "classic", "canastas_to_go_out": 3})
    assert table_variant(rules, 3).canastas_to_go_out == 3
    assert table_variant(rules, 2).canastas_to_go_out == 3


def test_table_variant_refuses_a_table_the_rules_have_no_variant_for():
    from scoring.engine import table_variant

    with pytest.raises(ValueError, match="no variant of it for a table of 5"):
        table_variant(PRESETS["club"], 5)
    with pytest.raises(ValueError, match="for a table of 3"):
        table_variant(PRESETS["six-player"], 3)
