"""Properties checked by hypothesis: legal hands are scored and add up; nothing raises."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import (
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
    | st.sampled_from(["samba", "bolivia", "modern-american", "hand-and-foot", "wild", "sevens"])
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
                    "canastas",
                    "unfinished",
                    "special_hand",
                    "sequence",
                    "hand_number",
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


SEQUENCE_ORDER = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def kind_of(rules, meld, complete=True):
    """The kind of a meld, said again independently of the engine: a canasta of sevens
    or aces where the game has them (no wild card), natural or mixed, the wild kinds by
    their jokers, a sequence; an unfinished meld of wild cards counts as the game's most
    general wild kind."""
    keys = rules.kind_keys
    if "sequence" in meld:
        return "sequence"
    jokers, twos = meld.get("jokers", 0), meld.get("twos", 0)
    if meld["rank"] == "wild":
        wild_keys = [k for k in ("wild_twos", "wild_jokers", "wild", "bolivia") if k in keys]
        if not complete:
            return wild_keys[-1]
        if "wild_twos" in keys and not jokers:
            return "wild_twos"
        if "wild_jokers" in keys and jokers >= 4:
            return "wild_jokers"
        return next(k for k in ("wild", "bolivia") if k in keys)
    special = {"7": "sevens", "A": "aces"}.get(meld["rank"])
    if special in keys and not jokers + twos:
        return special
    return "mixed" if jokers + twos else "natural"


def meld_cards(meld):
    if "sequence" in meld:
        return len(meld["sequence"])
    return meld.get("naturals", 0) + meld.get("jokers", 0) + meld.get("twos", 0)


def meld_points(rules, meld):
    values = rules.values
    if "sequence" in meld:
        return sum(values[rank] for rank in meld["sequence"])
    points = meld.get("jokers", 0) * values["joker"] + meld.get("twos", 0) * values["2"]
    if meld["rank"] != "wild":
        points += meld.get("naturals", 0) * values[meld["rank"]]
    return points


def meld_totals(rules, melds):
    """(melded points, canastas by kind, unfinished melds by kind) of detailed melds."""
    points = 0
    canastas = dict.fromkeys(rules.kind_keys, 0)
    unfinished = {}
    counted = {k.key for k in rules.kinds if k.unfinished or k.blocks_going_out}
    for meld in melds:
        points += meld_points(rules, meld)
        if meld.get("rank") == "3":
            continue
        if meld_cards(meld) >= 7:
            canastas[kind_of(rules, meld)] += 1
        else:
            kind = kind_of(rules, meld, complete=False)
            if kind in counted:
                unfinished[kind] = unfinished.get(kind, 0) + 1
    return points, canastas, unfinished


class Cards:
    """What the decks still hold while a hand is built."""

    def __init__(self, rules):
        deck = rules.deck_totals
        self.left = {key: deck.limit(key) for key in HAND_CARD_KEYS}

    def take_wild(self, draw, wild):
        jokers = draw(st.integers(max(0, wild - self.left["2"]), min(wild, self.left["joker"])))
        self.left["joker"] -= jokers
        self.left["2"] -= wild - jokers
        return jokers, wild - jokers


def _group_meld(draw, rules, cards, rank, canasta, kind_wanted=None):
    """A meld of ``rank`` that keeps the rules, a canasta if asked (of ``kind_wanted``
    when given: natural without wild cards, mixed with); None if the cards lack."""
    left = cards.left
    most_cards = rules.max_meld_cards or 99
    no_wild = rank in rules.ranks_without_wild or kind_wanted == "natural"
    if kind_wanted in ("sevens", "aces"):
        no_wild = True
    wild_left = 0 if no_wild else left["joker"] + left["2"]
    low_wild = 1 if kind_wanted == "mixed" else 0
    most_wild = min(rules.max_wild_per_meld, wild_left)
    if low_wild > most_wild:
        return None
    wild = draw(st.integers(low_wild, most_wild))
    low = max(rules.min_naturals_per_meld, 3 - wild, 7 - wild if canasta else 0)
    if rules.wilds_may_not_outnumber_naturals:
        low = max(low, wild)
    high = min(left[rank], most_cards - wild)
    if low > high:
        return None
    naturals = draw(st.integers(low, high))
    left[rank] -= naturals
    jokers, twos = cards.take_wild(draw, wild)
    meld = {"rank": rank, "naturals": naturals}
    if jokers or draw(st.booleans()):
        meld["jokers"] = jokers
    if twos:
        meld["twos"] = twos
    return meld


def _wild_meld(draw, rules, cards, canasta):
    left = cards.left
    have = left["joker"] + left["2"]
    low = 7 if canasta else 3
    high = min(have, rules.max_meld_cards or 99, 8 if canasta else 6)
    if low > high:
        return None
    wild = draw(st.integers(low, high))
    jokers, twos = cards.take_wild(draw, wild)
    meld = {"rank": "wild"}
    if jokers:
        meld["jokers"] = jokers
    if twos:
        meld["twos"] = twos
    return meld


def _sequence(draw, cards, canasta):
    length = 7 if canasta else draw(st.integers(3, 7))
    start = draw(st.integers(0, len(SEQUENCE_ORDER) - length))
    run = list(SEQUENCE_ORDER[start : start + length])
    if any(cards.left[rank] < 1 for rank in run):
        return None
    for rank in run:
        cards.left[rank] -= 1
    return {"sequence": run}


def _team_melds(draw, rules, cards, going_out, special):
    """A team's melds: the canastas going out needs (of the kinds it needs), others."""
    melds = []
    used: set[str] = set()
    free = list(NATURAL_RANKS)
    wanted = []
    if going_out and not special:
        for key, count in rules.going_out_kinds:
            wanted += [key] * count
        wanted += [None] * (max(rules.canastas_to_go_out, 1) - len(wanted))
    else:
        wanted = [None] * draw(st.integers(0, 2))

    def group(rank, canasta, kind=None):
        meld = _group_meld(draw, rules, cards, rank, canasta, kind)
        if meld is not None:
            used.add(rank)
            melds.append(meld)
        return meld

    for kind in wanted:
        if kind == "sequence":
            meld = _sequence(draw, cards, True)
            if meld is None:
                assume(False)
            melds.append(meld)
            continue
        ranks = [r for r in free if r not in used or not rules.one_meld_per_rank]
        if kind in ("sevens", "aces"):
            ranks = [{"sevens": "7", "aces": "A"}[kind]]
        if not ranks:
            assume(False)
        rank = draw(st.sampled_from(ranks))
        if group(rank, True, kind) is None:
            assume(False)
    for rank in draw(st.lists(st.sampled_from(NATURAL_RANKS), unique=True, max_size=4)):
        if rank in used and rules.one_meld_per_rank:
            continue
        group(rank, False)
    if rules.kinds_by_shape("wild") and draw(st.booleans()):
        meld = _wild_meld(draw, rules, cards, draw(st.booleans()))
        blocks = any(k.blocks_going_out for k in rules.kinds_by_shape("wild"))
        if meld is not None and (meld_cards(meld) >= 7 or not (going_out and blocks)):
            melds.append(meld)
    if rules.kinds_by_shape("sequence") and draw(st.booleans()):
        meld = _sequence(draw, cards, draw(st.booleans()))
        if meld is not None:
            melds.append(meld)
    return melds


@st.composite
def legal_hands(draw, slug=None):
    """A hand that keeps every rule: built card by card from what the decks hold.

    Returns (rules, teams, scores_before, melds_by_team, hand number). Each team is
    entered either as totals or as melds, and its hand either as points or as cards.
    """
    rules = PRESETS[slug or draw(st.sampled_from(PRESET_SLUGS))]
    deck = rules.deck_totals
    cards = Cards(rules)
    left = cards.left
    red_left = deck.red_threes
    out_team = draw(st.none() | st.integers(0, rules.teams - 1))
    cut_team = draw(st.none() | st.integers(0, rules.teams - 1))
    if not rules.perfect_cut_enabled:
        cut_team = None
    hand_number = draw(st.integers(1, 6))
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
        special = None
        if going_out and rules.special_hands and draw(st.booleans()):
            special = draw(st.sampled_from([name for name, _ in rules.special_hands]))
        melds = _team_melds(draw, rules, cards, going_out, special)
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
        fixed = ["ask_to_go_out_failed", "discard_unused", "red_three_in_hand"]
        fixed += [name for name in rules.penalty_amounts if name.startswith("held_")]
        for kind in draw(st.lists(st.sampled_from(fixed) | st.just("other"), max_size=2)):
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
        mp, canastas, unfinished = meld_totals(rules, melds)
        before = scores[i] if scores else 0
        if 0 < mp < initial_meld_minimum(rules, before, failed, hand_number) and not special:
            if not going_out:
                melds, mp = [], 0  # the team could not meld this hand
                _, canastas, unfinished = meld_totals(rules, melds)
            elif rules.initial_meld_check == "except_concealed":
                going_out = "concealed"  # melded all at once: no minimum
            else:
                assume(False)
        if draw(st.booleans()):
            entry["melds"] = melds
            if draw(st.booleans()):
                entry.update(totals_entry(rules, mp, canastas, unfinished, draw))
        else:
            entry.update(totals_entry(rules, mp, canastas, unfinished, draw))
        if draw(st.booleans()):
            entry["hand_cards"] = hand
        else:
            entry["hand_points"] = sum(rules.hand_values[key] * n for key, n in hand.items())
        if special:
            entry["special_hand"] = special
            if draw(st.booleans()):
                entry["went_out"] = "out"
        elif going_out == "concealed":
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
    return rules, teams, scores, all_melds, hand_number


def totals_entry(rules, mp, canastas, unfinished, draw=None):
    """Melds' totals as a team enters them: the older two counts where they are the
    only kinds with canastas (or as the counts by kind), the rest by kind."""
    entry: dict[str, object] = {"melded_points": mp}
    others = {key: n for key, n in canastas.items() if key not in ("natural", "mixed") and n}
    older = not others and (draw is None or draw(st.booleans()))
    if older:
        entry.update(natural_canastas=canastas["natural"], mixed_canastas=canastas["mixed"])
    else:
        entry["canastas"] = {key: n for key, n in canastas.items() if n or key == "natural"}
    if unfinished:
        entry["unfinished"] = dict(unfinished)
    return entry


@LEGAL
@given(legal_hands())
def test_legal_hands_are_scored_and_add_up(hand):
    rules, teams, scores, all_melds, number = hand
    outcome = score_hand(rules, copy.deepcopy(teams), scores, number)
    assert outcome.ok, [error.to_dict() for error in outcome.errors]
    befores = scores or [0] * rules.teams
    for result, before in zip(outcome.teams, befores, strict=True):
        assert sum(result.breakdown.values()) == result.hand_score
        assert result.hand_score % 5 == 0 and result.score_after % 5 == 0
        assert all(value % 5 == 0 for value in result.breakdown.values())
        assert result.score_after == before + result.hand_score
        assert result.minimum_before == initial_meld_minimum(rules, before, 0, number)
        assert result.minimum_next == initial_meld_minimum(rules, result.score_after, 0, number + 1)
        assert result.breakdown["cards_in_hand"] <= 0 and result.breakdown["penalties"] <= 0
    assert (outcome.game_over, outcome.winner) == game_result(
        rules, [result.score_after for result in outcome.teams], number
    )

    # The JSON contract gives the same result as the typed API.
    request = {"rules": rules.name, "teams": teams, "hand_number": number}
    if scores is not None:
        request["scores_before"] = scores
    result, ok = score_request(json.loads(json.dumps(request)))
    assert ok and result == outcome.to_dict()

    # One king more than the decks hold, in any hand, is refused.
    more = copy.deepcopy(teams)
    more[-1].pop("hand_points", None)
    more[-1].pop("went_out", None)
    more[-1]["hand_cards"] = {"K": rules.deck_totals.limit("K") + 1}
    refused = score_hand(rules, more, scores, number)
    assert any(error.field == "teams" and "kings" in error.message for error in refused.errors)

    # Entering the melds' totals instead of the melds scores the same.
    again = score_hand(rules, as_totals(rules, teams, all_melds), scores, number)
    assert again.to_dict() == outcome.to_dict()


TOTAL_KEYS = ("melded_points", "natural_canastas", "mixed_canastas", "canastas", "unfinished")


def as_totals(rules, teams, all_melds):
    """The teams with every meld list replaced by the totals it gives."""
    result = []
    for team, melds in zip(teams, all_melds, strict=True):
        team = {k: v for k, v in team.items() if k != "melds" and k not in TOTAL_KEYS}
        team.update(totals_entry(rules, *meld_totals(rules, melds)))
        result.append(team)
    return result


@LEGAL
@given(legal_hands(), st.data())
def test_totals_and_melds_accept_and_score_the_same_hands(hand, data):
    """One rule, one place: whatever is done to a hand built card by card (melds taken
    away, other scores before it, failed initial melds), entering it as totals is
    accepted or refused alike, and scores the same."""
    rules, teams, scores, all_melds, number = hand
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
            by_melds.append(as_totals(rules, [team], [melds])[0])
    scores = data.draw(
        st.none()
        | st.lists(
            st.integers(-200, 1000).map(lambda n: n * 5),
            min_size=rules.teams,
            max_size=rules.teams,
        )
    )
    outcome = score_hand(rules, by_melds, scores, number)
    totals = score_hand(rules, as_totals(rules, teams, all_melds), scores, number)
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
    rules, teams, scores, _, number = hand
    teams = copy.deepcopy(teams)
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(teams) - 1))
        key = data.draw(st.sampled_from(TEAM_KEYS))
        value = data.draw(json_values | st.integers(-3, 12) | st.sampled_from([0, 5, 800, 1180]))
        target = teams[where]
        if key == "melds" and target.get("melds") and data.draw(st.booleans()):
            meld = data.draw(st.sampled_from(target["melds"]))
            keys = ["rank", "naturals", "jokers", "twos", "sequence", "x"]
            meld[data.draw(st.sampled_from(keys))] = value
        elif key in ("canastas", "unfinished") and data.draw(st.booleans()):
            counts = target.setdefault(key, {})
            if isinstance(counts, dict):
                counts[data.draw(st.sampled_from([*rules.kind_keys, "x"]))] = value
        elif key == "hand_cards" and data.draw(st.booleans()):
            target.setdefault("hand_cards", {})
            target["hand_cards"][data.draw(st.sampled_from([*HAND_CARD_KEYS, "x"]))] = value
        else:
            target[key] = value
    outcome = score_hand(rules, teams, scores, number)
    assert outcome.ok == (not outcome.errors)
    for error in outcome.errors:
        assert error.message != INTERNAL_MESSAGE and is_sentence(error.message)
    if outcome.ok:
        for result in outcome.teams:
            assert sum(result.breakdown.values()) == result.hand_score
    result, _ = score_request({"rules": rules.name, "teams": teams, "scores_before": scores})
    check_result(result)


# -- every preset, one by one ------------------------------------------------------------

# The tests above draw the preset at random; these make sure no preset is left out of a
# run (twelve presets, a few examples each).
EACH = settings(FAST, max_examples=12)


@pytest.mark.parametrize("slug", PRESET_SLUGS)
@EACH
@given(data=st.data())
def test_each_preset_scores_its_legal_hands_alike_by_totals_and_by_cards(slug, data):
    rules, teams, scores, all_melds, number = data.draw(legal_hands(slug))
    outcome = score_hand(rules, copy.deepcopy(teams), scores, number)
    assert outcome.ok, [error.to_dict() for error in outcome.errors]
    for result in outcome.teams:
        assert sum(result.breakdown.values()) == result.hand_score
    # Card by card (every team's melds) and by totals give the same scores.
    by_cards = [
        {**{k: v for k, v in team.items() if k not in TOTAL_KEYS}, "melds": melds}
        for team, melds in zip(teams, all_melds, strict=True)
    ]
    cards = score_hand(rules, copy.deepcopy(by_cards), scores, number)
    totals = score_hand(rules, as_totals(rules, teams, all_melds), scores, number)
    assert cards.to_dict() == totals.to_dict() == outcome.to_dict()


@pytest.mark.parametrize("slug", PRESET_SLUGS)
@EACH
@given(teams=json_values, scores=json_values, number=json_values)
def test_each_preset_gives_any_json_a_score_or_a_refusal(slug, teams, scores, number):
    request = {"rules": slug, "teams": teams, "scores_before": scores, "hand_number": number}
    result, ok = score_request(request)
    check_result(result)
    assert ok == ("errors" not in result)
