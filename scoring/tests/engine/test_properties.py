"""Properties checked by hypothesis: legal hands are scored and add up; nothing raises."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    CARD_VALUES,
    HAND_CARD_KEYS,
    NATURAL_RANKS,
    PRESET_SLUGS,
    PRESETS,
    RULESET_FIELD_NAMES,
    game_result,
    initial_meld_minimum,
    rules_from_spec,
    score_hand,
    score_request,
)
from scoring.engine.results import INTERNAL_MESSAGE
from scoring.engine.validate.team import TEAM_KEYS as ENGINE_TEAM_KEYS

from .helpers import is_sentence

# Kept small so that the engine suite runs in seconds; the examples hypothesis finds
# still cover every preset and every shape of entry. No example database is written.
FAST = settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
LEGAL = settings(FAST, max_examples=60)

# -- any JSON --------------------------------------------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["classic", "club", "out", "concealed", "K", "3", "joker", "other"])
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(max_size=10)
            | st.sampled_from(
                [
                    "rules",
                    "teams",
                    "scores_before",
                    "preset",
                    "melds",
                    "rank",
                    "naturals",
                    "melded_points",
                    "hand_cards",
                    "penalties",
                    "kind",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=25,
)


def check_result(result: object) -> None:
    """A contract result: either scores or refusals that are sentences."""
    assert isinstance(result, dict)
    if "errors" in result:
        assert set(result) == {"errors"} and result["errors"]
        for error in result["errors"]:
            assert set(error) == {"field", "message"}
            assert isinstance(error["field"], str)
            assert error["message"] != INTERNAL_MESSAGE
            assert is_sentence(error["message"]), error["message"]
    else:
        assert set(result) == {"teams", "game_over", "winner"}
        for team in result["teams"]:
            assert sum(team["breakdown"].values()) == team["hand_score"]
    json.dumps(result)  # always plain JSON


@FAST
@given(json_values)
def test_any_json_gives_scores_or_errors(data):
    result, ok = score_request(data)
    if isinstance(data, list):
        assert isinstance(result, list) and len(result) == len(data)
        for item in result:
            check_result(item)
        assert ok == all("errors" not in item for item in result)
    else:
        check_result(result)
        assert ok == ("errors" not in result)


@FAST
@given(st.sampled_from(PRESET_SLUGS), json_values, json_values)
def test_any_json_as_teams_or_scores(slug, teams, scores):
    result, _ = score_request({"rules": slug, "teams": teams, "scores_before": scores})
    check_result(result)


@LEGAL
@given(
    st.dictionaries(
        st.sampled_from([*RULESET_FIELD_NAMES, "preset"]) | st.text(max_size=8),
        json_values,
        max_size=4,
    )
)
def test_any_rule_overrides_give_rules_or_errors(spec):
    rules, errors = rules_from_spec(spec)
    assert (rules is None) == bool(errors)
    for error in errors:
        assert error.field.startswith("rules") and is_sentence(error.message)


# -- legal hands -----------------------------------------------------------------------


@st.composite
def legal_hands(draw, slug=None):
    """A hand that keeps every rule: built card by card from what the decks hold.

    Returns (rules, teams, scores_before, melds_by_team). Each team is entered either as
    totals or as melds, and its hand either as points or as cards.
    """
    rules = PRESETS[slug or draw(st.sampled_from(PRESET_SLUGS))]
    deck = rules.deck_totals
    left = {key: deck.limit(key) for key in HAND_CARD_KEYS}
    red_left = deck.red_threes
    need = max(rules.canastas_to_go_out, 1)
    out_team = draw(st.none() | st.integers(0, rules.teams - 1))
    cut_team = draw(st.none() | st.integers(0, rules.teams - 1))
    if not rules.perfect_cut_enabled:
        cut_team = None
    scores = draw(
        st.none()
        | st.lists(
            st.integers(-400, 2400).map(lambda n: n * 5),
            min_size=rules.teams,
            max_size=rules.teams,
        )
    )
    teams = []
    all_melds = []
    for i in range(rules.teams):
        going_out = i == out_team
        ranks = draw(st.lists(st.sampled_from(NATURAL_RANKS), unique=True, max_size=5))
        canastas_wanted = need if going_out else draw(st.integers(0, 2))
        if going_out and len(ranks) < need:
            ranks += [r for r in NATURAL_RANKS if r not in ranks][: need - len(ranks)]
        melds = []
        for k, rank in enumerate(ranks):
            canasta = k < canastas_wanted
            wild_left = left["joker"] + left["2"]
            most_wild = min(rules.max_wild_per_meld, wild_left)
            wild = draw(st.integers(0, most_wild))
            low = max(rules.min_naturals_per_meld, 3 - wild, 7 - wild if canasta else 0)
            if rules.wilds_may_not_outnumber_naturals:
                low = max(low, wild)
            if low > left[rank]:
                if canasta:
                    assume(False)
                continue
            naturals = draw(st.integers(low, left[rank]))
            jokers = draw(st.integers(max(0, wild - left["2"]), min(wild, left["joker"])))
            twos = wild - jokers
            left[rank] -= naturals
            left["joker"] -= jokers
            left["2"] -= twos
            meld = {"rank": rank, "naturals": naturals}
            if jokers or draw(st.booleans()):
                meld["jokers"] = jokers
            if twos:
                meld["twos"] = twos
            melds.append(meld)
        if going_out and rules.black_three_meld and left["3"] >= 3 and draw(st.booleans()):
            count = draw(st.integers(3, min(4, left["3"])))
            left["3"] -= count
            melds.append({"rank": "3", "naturals": count})
        draw(st.randoms()).shuffle(melds)
        hand = {}
        if not (going_out and rules.players_per_team == 1):
            for key in draw(st.lists(st.sampled_from(HAND_CARD_KEYS), unique=True, max_size=4)):
                if left[key]:
                    hand[key] = draw(st.integers(0, min(left[key], 3)))
                    left[key] -= hand[key]
        red = draw(st.integers(0, red_left))
        red_left -= red
        penalties = []
        for kind in draw(
            st.lists(
                st.sampled_from(["ask_to_go_out_failed", "discard_unused", "red_three_in_hand"])
                | st.just("other"),
                max_size=2,
            )
        ):
            if kind == "red_three_in_hand":
                if not red_left:
                    continue
                red_left -= 1
            if kind == "other":
                points = draw(st.integers(1, 40)) * 5
                penalties.append({"kind": kind, "points": points, "note": "table talk"})
            else:
                penalties.append({"kind": kind})
        entry: dict[str, object] = {"red_threes": red}
        failed = draw(st.integers(0, 2))
        if failed:
            entry["failed_melds"] = failed
        mp, nat, mix = meld_totals(melds)
        before = scores[i] if scores else 0
        if 0 < mp < initial_meld_minimum(rules, before, failed):
            if not going_out:
                melds, mp, nat, mix = [], 0, 0, 0  # the team could not meld this hand
            elif rules.initial_meld_check == "except_concealed":
                going_out = "concealed"  # melded all at once: no minimum
            else:
                assume(False)
        if draw(st.booleans()):
            entry["melds"] = melds
            if draw(st.booleans()):
                entry.update(melded_points=mp, natural_canastas=nat, mixed_canastas=mix)
        else:
            entry.update(melded_points=mp, natural_canastas=nat, mixed_canastas=mix)
        if draw(st.booleans()):
            entry["hand_cards"] = hand
        else:
            entry["hand_points"] = sum(CARD_VALUES[key] * n for key, n in hand.items())
        if going_out == "concealed":
            entry["went_out"] = "concealed"
        elif going_out:
            entry["went_out"] = draw(st.sampled_from(["out", "concealed"]))
        elif draw(st.booleans()):
            entry["went_out"] = "none"
        if i == cut_team:
            entry["perfect_cut"] = True
        if penalties:
            entry["penalties"] = penalties
        teams.append(entry)
        all_melds.append(melds)
    return rules, teams, scores, all_melds


def meld_totals(melds):
    points = natural = mixed = 0
    for meld in melds:
        naturals, jokers, twos = meld["naturals"], meld.get("jokers", 0), meld.get("twos", 0)
        points += naturals * CARD_VALUES[meld["rank"]] + 50 * jokers + 20 * twos
        if naturals + jokers + twos >= 7:
            if jokers + twos:
                mixed += 1
            else:
                natural += 1
    return points, natural, mixed


@LEGAL
@given(legal_hands())
def test_legal_hands_are_scored_and_add_up(hand):
    rules, teams, scores, all_melds = hand
    outcome = score_hand(rules, copy.deepcopy(teams), scores)
    assert outcome.ok, [error.to_dict() for error in outcome.errors]
    befores = scores or [0] * rules.teams
    for result, before in zip(outcome.teams, befores, strict=True):
        assert sum(result.breakdown.values()) == result.hand_score
        assert result.hand_score % 5 == 0 and result.score_after % 5 == 0
        assert all(value % 5 == 0 for value in result.breakdown.values())
        assert result.score_after == before + result.hand_score
        assert result.minimum_before == initial_meld_minimum(rules, before)
        assert result.minimum_next == initial_meld_minimum(rules, result.score_after)
        assert result.breakdown["cards_in_hand"] <= 0 and result.breakdown["penalties"] <= 0
    assert (outcome.game_over, outcome.winner) == game_result(
        rules, [result.score_after for result in outcome.teams]
    )

    # The JSON contract gives the same result as the typed API.
    request = {"rules": rules.name, "teams": teams}
    if scores is not None:
        request["scores_before"] = scores
    result, ok = score_request(json.loads(json.dumps(request)))
    assert ok and result == outcome.to_dict()

    # One king more than the decks hold, in any hand, is refused.
    more = copy.deepcopy(teams)
    more[-1].pop("hand_points", None)
    more[-1].pop("went_out", None)
    more[-1]["hand_cards"] = {"K": rules.deck_totals.limit("K") + 1}
    refused = score_hand(rules, more, scores)
    assert any(error.field == "teams" and "kings" in error.message for error in refused.errors)

    # Entering the melds' totals instead of the melds scores the same.
    assert score_hand(rules, as_totals(teams, all_melds), scores).to_dict() == outcome.to_dict()


TOTAL_KEYS = ("melded_points", "natural_canastas", "mixed_canastas")


def as_totals(teams, all_melds):
    """The teams with every meld list replaced by the totals it gives."""
    result = []
    for team, melds in zip(teams, all_melds, strict=True):
        team = {k: v for k, v in team.items() if k != "melds"}
        mp, nat, mix = meld_totals(melds)
        team.update(melded_points=mp, natural_canastas=nat, mixed_canastas=mix)
        result.append(team)
    return result


@LEGAL
@given(legal_hands(), st.data())
def test_totals_and_melds_accept_and_score_the_same_hands(hand, data):
    """One rule, one place: whatever is done to a hand built card by card (melds taken
    away, other scores before it, failed initial melds), entering it as totals is
    accepted or refused alike, and scores the same."""
    rules, teams, scores, all_melds = hand
    teams, all_melds = copy.deepcopy(teams), copy.deepcopy(all_melds)
    by_melds = []
    for team, melds in zip(teams, all_melds, strict=True):
        while melds and data.draw(st.booleans()):
            melds.pop(data.draw(st.integers(0, len(melds) - 1)))
        team["failed_melds"] = data.draw(st.integers(0, 3))
        if "melds" in team:
            by_melds.append({k: v for k, v in team.items() if k not in TOTAL_KEYS})
            by_melds[-1]["melds"] = melds
        else:
            by_melds.append(as_totals([team], [melds])[0])
    scores = data.draw(
        st.none()
        | st.lists(
            st.integers(-200, 1000).map(lambda n: n * 5),
            min_size=rules.teams,
            max_size=rules.teams,
        )
    )
    outcome = score_hand(rules, by_melds, scores)
    totals = score_hand(rules, as_totals(teams, all_melds), scores)
    assert outcome.ok == totals.ok, (outcome.errors, totals.errors)
    assert [e.field.replace(".melds", ".melded_points") for e in outcome.errors] == [
        e.field for e in totals.errors
    ]
    assert totals.to_dict() == outcome.to_dict() or not outcome.ok


# -- near-valid hands ------------------------------------------------------------------

# Every key the engine reads (so a new one is fuzzed too), and one it does not know.
TEAM_KEYS = [*sorted(ENGINE_TEAM_KEYS), "extra"]


@LEGAL
@given(legal_hands(), st.data())
def test_near_valid_hands_never_raise(hand, data):
    rules, teams, scores, _ = hand
    teams = copy.deepcopy(teams)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(teams) - 1))
        key = data.draw(st.sampled_from(TEAM_KEYS))
        value = data.draw(json_values | st.integers(-3, 12) | st.sampled_from([0, 5, 800, 1180]))
        target = teams[where]
        if key == "melds" and target.get("melds") and data.draw(st.booleans()):
            meld = data.draw(st.sampled_from(target["melds"]))
            meld[data.draw(st.sampled_from(["rank", "naturals", "jokers", "twos", "x"]))] = value
        elif key == "hand_cards" and data.draw(st.booleans()):
            target.setdefault("hand_cards", {})
            target["hand_cards"][data.draw(st.sampled_from([*HAND_CARD_KEYS, "x"]))] = value
        else:
            target[key] = value
    outcome = score_hand(rules, teams, scores)
    assert outcome.ok == (not outcome.errors)
    for error in outcome.errors:
        assert error.message != INTERNAL_MESSAGE and is_sentence(error.message)
    if outcome.ok:
        for result in outcome.teams:
            assert sum(result.breakdown.values()) == result.hand_score
    result, _ = score_request({"rules": rules.name, "teams": teams, "scores_before": scores})
    check_result(result)
