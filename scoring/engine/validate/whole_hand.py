"""The whole hand: the list of teams, the scores before the hand, then every check.

:func:`careful_read` is the one entry of the package: it reads each team
(:mod:`.team`), the scores before the hand, and runs the checks that need all the teams
at once (:mod:`.cross_team`), collecting every problem rather than stopping at the first.
"""

from __future__ import annotations

from .._text import describe, num
from ..results import Refusal
from .cross_team import check_teams_together
from .initial_meld import check_initial_melds
from .team import read_team

#: Largest cumulative score accepted in ``scores_before``.
MAX_SCORE = 1_000_000_000


def careful_read(rules, teams, scores_before, hand=None):
    """Check everything and explain every problem; returns (teams, scores, refusals).

    ``hand`` is the hand's number in its game (from 1), for games whose initial-meld
    minimum goes by hand. ``teams`` comes back as one :class:`~.entry.TeamEntry` per
    team, and ``scores`` as the scores before the hand (zeros when none were given);
    both are None when the hand was refused.
    """
    deck = rules.deck_totals
    errors: list[Refusal] = []
    if type(teams) is not list:
        if type(teams) is tuple:
            teams = list(teams)
        else:
            errors.append(
                Refusal(
                    "teams",
                    f"The teams must be a list with one entry for each of the {rules.teams} "
                    f"{rules.teams_word.lower()}, not {describe(teams)}.",
                )
            )
            _read_scores(rules, scores_before, errors)
            return None, None, errors
    if len(teams) != rules.teams:
        errors.append(
            Refusal(
                "teams",
                f"These rules ({rules.label}) have {rules.teams} "
                f"{rules.teams_word.lower()}, but {len(teams)} were entered; enter one "
                f"entry for each.",
            )
        )
    counts: dict[str, int] = {}
    entries = [read_team(rules, deck, i, team, errors, counts) for i, team in enumerate(teams)]
    scores = _read_scores(rules, scores_before, errors)
    check_teams_together(rules, deck, entries, counts, errors)
    check_initial_melds(rules, entries, scores, errors, hand)
    if errors:
        return None, None, errors
    return entries, scores, errors


def _read_scores(rules, scores_before, errors):
    """The scores before the hand, one believable whole number per side, or None."""
    n = rules.teams
    if scores_before is None:
        return [0] * n
    word = rules.teams_word.lower()
    if type(scores_before) is not list:
        errors.append(
            Refusal(
                "scores_before",
                f"The scores before the hand must be a list of the {word}' scores, "
                f"one whole number for each of the {n} {word}, not {describe(scores_before)}.",
            )
        )
        return None
    if len(scores_before) != n:
        errors.append(
            Refusal(
                "scores_before",
                f"The scores before the hand list {len(scores_before)} "
                f"score{'' if len(scores_before) == 1 else 's'}, "
                f"but these rules have {n} {word}; give one score before the hand for each.",
            )
        )
        return None
    scores = []
    for k, score in enumerate(scores_before):
        if type(score) is int and -MAX_SCORE <= score <= MAX_SCORE and not score % 5:
            scores.append(score)
        else:
            errors.append(Refusal(f"scores_before[{k}]", _wrong_score(rules, k, score)))
    return scores if len(scores) == n else None


def _wrong_score(rules, k, score):
    who = rules.team_label(k)
    if type(score) is not int:
        return f"{who}'s score before this hand must be a whole number, not {describe(score)}."
    if not -MAX_SCORE <= score <= MAX_SCORE:
        return f"{who}'s score before this hand ({num(score)}) is not a believable score."
    low = score - score % 5
    return (
        f"{who}'s score before this hand ({num(score)}) must be a multiple of 5, as every "
        f"score in canasta is; enter {num(low)} or {num(low + 5)}."
    )
