"""Scoring one hand: read each team's entry, refuse impossible hands, add up the scores.

A team's hand score is::

    points of the team's melded cards
    + canasta bonuses            (natural 500, mixed 300 each; the cards count on top)
    + red three bonus or malus   (100 each, all four of two decks 800; minus when the team
                                  has not melded)
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

``validate.careful_read`` reads and checks every entry (the one place the rules of a
valid hand are written) and explains each problem; this module adds up the scores of a
hand it accepts.

Hands entered as totals cannot be checked card by card, so their melded points must at
least hold the canastas claimed (the cheapest distinct ranks: a natural canasta 35, a
mixed one 50, five natural ones 210); detailed melds are checked against the meld rules,
and the canastas of totals are built with the same checks, so both entries accept the
same hands. Either way a team that melded holds its initial-meld minimum.
"""

from __future__ import annotations

from bisect import bisect_right

from .results import INTERNAL_MESSAGE, HandOutcome, Refusal, TeamResult
from .rules.ruleset import RuleSet
from .validate.going_out import WENT_OUT_VALUES
from .validate.penalties import PENALTY_KINDS
from .validate.whole_hand import careful_read

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
    entries, scores, errors = careful_read(rules, teams, scores_before)
    if errors:
        return HandOutcome(errors=errors)
    return _outcome(rules, entries, scores)


def _outcome(rules, entries, scores):
    """Add up the scores of a hand that passed every check."""
    natural_bonus = rules.natural_canasta_bonus
    mixed_bonus = rules.mixed_canasta_bonus
    red_scores = rules.red_three_scores
    going_out = rules.going_out_scores
    cut_bonus = rules.perfect_cut_bonus
    thresholds = rules.meld_thresholds
    minimums = rules.meld_minimums
    results = []
    totals = []
    for t, before in zip(entries, scores, strict=True):
        mp, hp, penalty = t.melded_points, t.hand_points, t.penalty_points
        canastas = t.natural_canastas * natural_bonus + t.mixed_canastas * mixed_bonus
        red_score = red_scores[t.melded][t.red_threes]
        out = going_out[t.went_out]
        cut_score = cut_bonus if t.perfect_cut else 0
        hand_score = mp + canastas + red_score + out + cut_score - hp - penalty
        after = before + hand_score
        totals.append(after)
        results.append(
            TeamResult(
                # The keys of BREAKDOWN_KEYS, in that order.
                breakdown={
                    "melded_cards": mp,
                    "canastas": canastas,
                    "red_threes": red_score,
                    "going_out": out,
                    "perfect_cut": cut_score,
                    "cards_in_hand": -hp,
                    "penalties": -penalty,
                },
                hand_score=hand_score,
                score_after=after,
                minimum_before=minimums[bisect_right(thresholds, before)],
                minimum_next=minimums[bisect_right(thresholds, after)],
                melded_points=mp,
                natural_canastas=t.natural_canastas,
                mixed_canastas=t.mixed_canastas,
                red_threes=t.red_threes,
                went_out=WENT_OUT_VALUES[t.went_out],
                hand_points=hp,
                perfect_cut=t.perfect_cut,
                penalty_points=penalty,
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
