"""Scoring one hand: read each team's entry, refuse impossible hands, add up the scores.

A team's hand score is::

    points of the team's melded cards
    + canasta bonuses            (natural 500, mixed 300 each; the cards count on top)
    + red three bonus or malus   (100 each, all four 800; minus when the team has not melded)
    + going-out bonus            (100, or 200 in all when concealed)
    + perfect-cut bonus          (club house rule)
    - points of the cards left in the partners' hands
    - penalties

Every team entry is a plain dict in the shape of the scoring contract: either totals
(``melded_points``, ``natural_canastas``, ``mixed_canastas``) or ``melds``; either
``hand_points`` or ``hand_cards``; ``red_threes``, ``went_out``, ``perfect_cut`` and
``penalties``. Nothing here raises for bad input: every problem becomes a
:class:`~scoring.engine.results.Refusal` saying where it is and what to fix, and all
problems are collected rather than stopping at the first.

Two paths read a hand. The quick path (:func:`_quick_read`, here) handles the usual,
plainly well-formed entry with as little work as possible and gives up at the first
thing out of the ordinary; the careful path (``validate.careful_read``) then checks
everything again and explains each problem. Only the careful path writes messages.

Hands entered as totals cannot be checked card by card, so their melded points must at
least hold the canastas claimed: 35 points for a natural canasta, 80 for a mixed one, as
rules.md states. Detailed melds are checked against the meld rules instead.
"""

from __future__ import annotations

from bisect import bisect_right

from .cards import CARD_VALUES, MIXED_CANASTA_MIN_POINTS, NATURAL_CANASTA_MIN_POINTS
from .results import HandOutcome, Refusal, TeamResult
from .rules import RuleSet
from .validate import (
    _MELD_KEYS,
    _RANK_VALUES,
    _TEAM_KEYS,
    INTERNAL_MESSAGE,
    MAX_SCORE,
    PENALTY_KINDS,
    WENT_OUT_VALUES,
    careful_read,
)

__all__ = [
    "INTERNAL_MESSAGE",
    "PENALTY_KINDS",
    "WENT_OUT_VALUES",
    "careful_read",
    "game_result",
    "score_hand",
]


def score_hand(rules: RuleSet, teams: list, scores_before: list | None = None) -> HandOutcome:
    """Score one hand for every team, or refuse it; never raises.

    ``teams`` is a list of team entries in the contract's shape, one per team in the
    rule set; ``scores_before`` the teams' cumulative scores before the hand (zeros when
    None). The outcome carries either every refusal found or one
    :class:`~scoring.engine.results.TeamResult` per team, and whether the game is over.
    """
    try:
        return _score_hand(rules, teams, scores_before)
    except Exception:  # pragma: no cover - a safety net; the tests look for this message
        return HandOutcome(errors=[Refusal("", INTERNAL_MESSAGE)])


def _score_hand(rules, teams, scores_before):
    if not isinstance(rules, RuleSet):
        return HandOutcome(
            errors=[Refusal("rules", "The hand needs a rule set to be scored under.")]
        )
    derived = rules._derived
    parsed = scores = None
    if type(teams) is list and len(teams) == rules.teams:
        if scores_before is None:
            scores = [0] * rules.teams
        elif type(scores_before) is list and len(scores_before) == rules.teams:
            scores = scores_before
            for score in scores:
                if type(score) is not int or not -MAX_SCORE <= score <= MAX_SCORE:
                    scores = None
                    break
        if scores is not None:
            parsed = _quick_read(rules, derived, teams)
    if parsed is None:
        parsed, scores, errors = careful_read(rules, teams, scores_before)
        if errors:
            return HandOutcome(errors=errors)
    return _outcome(rules, derived, parsed, scores)


def _quick_read(rules, derived, teams):
    """The quick path for a hand whose entries are plainly well formed.

    Returns one tuple per team, ``(melded points, natural canastas, mixed canastas,
    melded, red threes, went_out 0/1/2, hand points, perfect cut, penalty points)``, or
    None as soon as anything is unusual (a wrong type, a null, a rule broken, totals given
    alongside melds, a penalty with points...). The hand then goes through
    ``validate.careful_read``, which accepts it or writes the refusals. This path must
    never accept a hand that the careful path refuses; a property test compares them.
    """
    deck = derived.deck
    card_points = deck.card_points
    red_limit = deck.red_threes
    needed = derived.canastas_needed
    penalty_amounts = derived.penalties
    alone = rules.players_per_team == 1
    cut_allowed = rules.perfect_cut_enabled
    black_threes = rules.black_three_meld
    min_nat = rules.min_naturals_per_meld
    max_wild = rules.max_wild_per_meld
    no_outnumber = rules.wilds_may_not_outnumber_naturals
    rank_values = _RANK_VALUES
    card_values = CARD_VALUES
    team_keys = _TEAM_KEYS
    meld_keys = _MELD_KEYS
    counts: dict[str, int] = {}
    parsed = []
    out_teams = cut_teams = red_total = points_total = 0
    for team in teams:
        if type(team) is not dict or not team_keys.issuperset(team):
            return None
        get = team.get
        went = get("went_out")
        if went is None or went == "none":
            went_out = 0
        elif went == "out":
            went_out = 1
        elif went == "concealed":
            went_out = 2
        else:
            return None

        melds = get("melds")
        if melds is None:
            mp = get("melded_points", 0)
            nat = get("natural_canastas", 0)
            mix = get("mixed_canastas", 0)
            if type(mp) is not int or type(nat) is not int or type(mix) is not int:
                return None
            if (
                mp < 0
                or mp % 5
                or nat < 0
                or mix < 0
                or mp > card_points
                or mp < NATURAL_CANASTA_MIN_POINTS * nat + MIXED_CANASTA_MIN_POINTS * mix
            ):
                return None
            melded = mp > 0
        else:
            if (
                type(melds) is not list
                or "melded_points" in team
                or "natural_canastas" in team
                or "mixed_canastas" in team
            ):
                return None
            mp = nat = mix = 0
            seen = set()
            for meld in melds:
                if type(meld) is not dict:
                    return None
                rank = meld.get("rank")
                naturals = meld.get("naturals", 0)
                jokers = meld.get("jokers", 0)
                twos = meld.get("twos", 0)
                if (
                    type(rank) is not str
                    or rank not in rank_values
                    or rank in seen
                    or type(naturals) is not int
                    or type(jokers) is not int
                    or type(twos) is not int
                    or jokers < 0
                    or twos < 0
                    or not meld_keys.issuperset(meld)
                ):
                    return None
                wild = jokers + twos
                if rank == "3":
                    if not (black_threes and went_out and not wild and 3 <= naturals <= 4):
                        return None
                elif (
                    naturals < min_nat
                    or naturals + wild < 3
                    or wild > max_wild
                    or (no_outnumber and wild > naturals)
                ):
                    return None
                seen.add(rank)
                mp += naturals * rank_values[rank] + jokers * 50 + twos * 20
                counts[rank] = counts.get(rank, 0) + naturals
                if wild:
                    if jokers:
                        counts["joker"] = counts.get("joker", 0) + jokers
                    if twos:
                        counts["2"] = counts.get("2", 0) + twos
                    if naturals + wild >= 7:
                        mix += 1
                elif naturals >= 7:
                    nat += 1
            melded = bool(melds)

        hand_cards = get("hand_cards")
        if hand_cards is None:
            hp = get("hand_points", 0)
            if type(hp) is not int or hp < 0 or hp % 5 or hp > card_points:
                return None
        else:
            if type(hand_cards) is not dict or "hand_points" in team:
                return None
            hp = 0
            for key, count in hand_cards.items():
                value = card_values.get(key)
                if value is None or type(count) is not int or count < 0:
                    return None
                hp += value * count
                counts[key] = counts.get(key, 0) + count

        red = get("red_threes", 0)
        if type(red) is not int or red < 0 or red > red_limit:
            return None
        cut = get("perfect_cut", False)
        if cut is True:
            if not cut_allowed:
                return None
            cut_teams += 1
        elif cut is not False and cut is not None:
            return None

        penalty = 0
        penalties = get("penalties")
        if penalties is not None:
            if type(penalties) is not list:
                return None
            for item in penalties:
                if type(item) is not dict or len(item) != 1:
                    return None
                kind = item.get("kind")
                if type(kind) is not str or kind not in penalty_amounts:
                    return None
                penalty += penalty_amounts[kind]
                if kind == "red_three_in_hand":
                    red_total += 1

        if went_out:
            if not melded or nat + mix < needed[went_out] or (alone and hp):
                return None
            out_teams += 1
        red_total += red
        points_total += mp + hp
        parsed.append((mp, nat, mix, melded, red, went_out, hp, cut is True, penalty))

    if out_teams > 1 or cut_teams > 1 or red_total > red_limit or points_total > card_points:
        return None
    if counts:
        limits = derived.limits
        for key, count in counts.items():
            if count > limits[key]:
                return None
    return parsed


def _outcome(rules, derived, parsed, scores):
    """Add up the scores of a hand that passed every check."""
    natural_bonus = rules.natural_canasta_bonus
    mixed_bonus = rules.mixed_canasta_bonus
    red_melded = derived.red_melded
    red_unmelded = derived.red_unmelded
    going_out = derived.going_out
    cut_bonus = rules.perfect_cut_bonus
    thresholds = derived.meld_thresholds
    minimums = derived.meld_minimums
    results = []
    totals = []
    for (mp, nat, mix, melded, red, went_out, hp, cut, penalty), before in zip(
        parsed, scores, strict=True
    ):
        canastas = nat * natural_bonus + mix * mixed_bonus
        red_score = red_melded[red] if melded else red_unmelded[red]
        out = going_out[went_out]
        cut_score = cut_bonus if cut else 0
        hand_score = mp + canastas + red_score + out + cut_score - hp - penalty
        after = before + hand_score
        totals.append(after)
        results.append(
            TeamResult(
                # The keys of BREAKDOWN_KEYS, in that order.
                {
                    "melded_cards": mp,
                    "canastas": canastas,
                    "red_threes": red_score,
                    "going_out": out,
                    "perfect_cut": cut_score,
                    "cards_in_hand": -hp,
                    "penalties": -penalty,
                },
                hand_score,
                after,
                minimums[bisect_right(thresholds, before)],
                minimums[bisect_right(thresholds, after)],
                mp,
                nat,
                mix,
                red,
                WENT_OUT_VALUES[went_out],
                hp,
                cut,
                penalty,
            )
        )
    over, winner = game_result(rules, totals)
    return HandOutcome(errors=[], teams=results, game_over=over, winner=winner)


def game_result(rules: RuleSet, totals: list[int]) -> tuple[bool, int | None]:
    """Is the game over after a hand that left the teams on ``totals``, and who won?

    The game ends when some team has reached the target at the end of a hand; the
    highest total wins (also when several teams passed the target). Equal highest totals
    at or above the target end nothing: another hand is played.
    """
    if not totals:
        return False, None
    best = max(totals)
    if best < rules.target_score or totals.count(best) > 1:
        return False, None
    return True, totals.index(best)
