"""Replaying a game's hands: every derived row recomputed from the raw inputs.

Hands store what was entered (`Hand.inputs`), so a correction, an undo or a rebuild
scores every hand again in order from 0 and rewrites the TeamHand rows, the teams'
totals and the game's state. A hand the engine refuses, or a change that would end the
game before hands already played, is refused before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring import engine
from scoring.models import Game, GameTeam, Hand, TeamHand
from scoring.play.services.errors import HandRefused
from scoring.play.services.rows import RECOMPUTED_TEAM_HAND_FIELDS, reset_stats, score_rows
from scoring.play.services.state import GameState, close_hands


@dataclass
class Replay:
    outcomes: list  # one engine.HandOutcome per hand, in order
    scores_before: list  # per hand: the teams' totals before it


def replay(rules, hand_inputs: Sequence[list], n_teams: int, *, numbers: Sequence[int]):
    """Score every hand in order from 0; raises HandRefused naming the hand at fault, or
    when a hand ends the game while later hands exist."""
    totals = [0] * n_teams
    outcomes, befores = [], []
    for k, inputs in enumerate(hand_inputs):
        outcome = engine.score_hand(rules, inputs, list(totals))
        if not outcome.ok:
            raise HandRefused(
                outcome.errors,
                f"Hand {numbers[k]} cannot be scored: "
                + " ".join(e.message for e in outcome.errors),
            )
        befores.append(list(totals))
        outcomes.append(outcome)
        totals = [t.score_after for t in outcome.teams]
        if outcome.game_over and k < len(hand_inputs) - 1:
            winner = outcome.winner
            later = numbers[k + 1 :]
            later_words = (
                f"hand {later[0]} was" if len(later) == 1 else f"hands {later[0]}–{later[-1]} were"
            )
            raise HandRefused(
                [
                    engine.Refusal(
                        "",
                        f"With this change the game ends at hand {numbers[k]} "
                        f"({rules.team_label(winner)} reaches {totals[winner]:,}), "
                        f"but {later_words} played after it. Check the numbers, or undo "
                        f"the later hands first. Nothing was saved.",
                    )
                ]
            )
    return Replay(outcomes, befores)


def recompute(game: Game, hands: list[Hand], now) -> tuple[GameState, list[GameTeam]]:
    """Rescore ``hands`` (every hand of the game, in order, with their inputs as they
    should be) and rewrite TeamHand rows, team totals and the game's state. Raises
    HandRefused (nothing written) if any hand is refused or the game would end early."""
    rules = game.engine_rules()
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    done = replay(rules, [h.inputs for h in hands], len(teams), numbers=[h.number for h in hands])
    existing = {(row.hand_id, row.team_id): row for row in TeamHand.objects.filter(game=game)}
    for team in teams:
        reset_stats(team, rules)
    to_create, to_update = score_rows(
        game, teams, hands, done.outcomes, done.scores_before, existing
    )
    keep = {row.pk for row in to_update}
    stale = [row.pk for row in existing.values() if row.pk not in keep]
    if stale:
        TeamHand.objects.filter(pk__in=stale).delete()
    if to_update:
        TeamHand.objects.bulk_update(to_update, RECOMPUTED_TEAM_HAND_FIELDS)
    if to_create:
        TeamHand.objects.bulk_create(to_create)
    tell = close_hands(game, teams, done.outcomes[-1] if done.outcomes else None, now)
    game.hand_count = hands[-1].number if hands else 0
    return tell, teams
