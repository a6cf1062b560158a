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

from ._text import _, describe
from .results import INTERNAL_MESSAGE, HandOutcome, Refusal, TeamResult
from .rules.ruleset import RuleSet, initial_meld_minimum
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


#: The highest hand number accepted.
MAX_HAND = 10_000


def score_hand(
    rules: RuleSet, teams: list, scores_before: list | None = None, hand: int | None = None
) -> HandOutcome:
    """Score one hand for every team, or refuse it; never raises.

    ``teams`` is a list of team entries in the contract's shape, one per team in the
    rule set; ``scores_before`` the teams' cumulative scores before the hand (zeros when
    None); ``hand`` the hand's number in its game, from 1 (the first when None), which
    games of a number of hands and minimums by hand need. The outcome carries either
    every refusal found or one :class:`~scoring.engine.results.TeamResult` per team, and
    whether the game is over.
    """
    try:
        return _score_hand(rules, teams, scores_before, hand)
    except Exception:  # pragma: no cover - a safety net; the tests look for this message
        return HandOutcome(errors=[Refusal("", INTERNAL_MESSAGE)])


def _score_hand(rules, teams, scores_before, hand):
    if not isinstance(rules, RuleSet):
        return HandOutcome(
            errors=[Refusal("rules", _("The hand needs a rule set to be scored under."))]
        )
    hand_error = _hand_number_error(hand)
    entries, scores, errors = careful_read(
        rules, teams, scores_before, None if hand_error else hand
    )
    if hand_error:
        errors = [hand_error, *errors]
    if errors:
        return HandOutcome(errors=errors)
    return _outcome(rules, entries, scores, hand or 1)


def _hand_number_error(hand) -> Refusal | None:
    if hand is None or (type(hand) is int and 1 <= hand <= MAX_HAND):
        return None
    return Refusal(
        "hand_number",
        f"The hand's number in its game must be a whole number from 1 to {MAX_HAND:,}, "
        f"not {describe(hand)}.",
    )


def _outcome(rules, entries, scores, hand):
    """Add up the scores of a hand that passed every check."""
    bonuses = tuple(kind.bonus for kind in rules.kinds)
    penalties = tuple(kind.unfinished for kind in rules.kinds)
    need = rules.red_threes_need_canastas
    special_points = dict(rules.special_hands)
    red_scores = rules.red_three_scores
    going_out = rules.going_out_scores
    cut_bonus = rules.perfect_cut_bonus
    natural, mixed = rules.kind_keys.index("natural"), rules.kind_keys.index("mixed")
    dirty = tuple(kind.has_wild_cards for kind in rules.kinds)
    results = []
    totals = []
    for t, before in zip(entries, scores, strict=True):
        mp, hp, penalty = t.melded_points, t.hand_points, t.penalty_points
        counts = t.canastas
        canastas = sum(n * bonus for n, bonus in zip(counts, bonuses, strict=True))
        penalty += sum(n * points for n, points in zip(t.unfinished, penalties, strict=True))
        counts_red = t.melded if not need else sum(counts) >= need
        red_score = red_scores[counts_red][t.red_threes]
        out = going_out[t.went_out]
        if t.special_hand is not None:
            out = special_points[t.special_hand]
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
                minimum_before=initial_meld_minimum(rules, before, 0, hand),
                minimum_next=initial_meld_minimum(rules, after, 0, hand + 1),
                melded_points=mp,
                natural_canastas=counts[natural],
                mixed_canastas=counts[mixed],
                red_threes=t.red_threes,
                went_out=WENT_OUT_VALUES[t.went_out],
                hand_points=hp,
                perfect_cut=t.perfect_cut,
                penalty_points=penalty,
                canastas=dict(zip(rules.kind_keys, counts, strict=True)),
                without_wild=sum(n for n, wild in zip(counts, dirty, strict=True) if not wild),
                with_wild=sum(n for n, wild in zip(counts, dirty, strict=True) if wild),
                special_hand=t.special_hand,
            )
        )
    over, winner = game_result(rules, totals, hand)
    return HandOutcome(errors=[], teams=results, game_over=over, winner=winner)


def game_result(
    rules: RuleSet, totals: list[int], hand: int | None = None
) -> tuple[bool, int | None]:
    """Is the game over after hand number ``hand`` left the teams on ``totals``, and
    who won?

    The game ends when some team has reached the target at the end of a hand or, in a
    game of a number of hands (``hands_in_game``), after its last hand; the highest total
    wins (also when several teams passed the target). Equal highest totals end nothing:
    another hand is played.
    """
    if not totals:
        return False, None
    best = max(totals)
    if rules.hands_in_game:
        if (hand or 1) < rules.hands_in_game or totals.count(best) > 1:
            return False, None
        return True, totals.index(best)
    if best < rules.target_score or totals.count(best) > 1:
        return False, None
    return True, totals.index(best)
