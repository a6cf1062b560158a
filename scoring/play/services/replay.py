"""The rows a hand derives, one writer for every path: each team's `TeamHand` row and
running totals (`GameTeam`), the game's state after a change and who must hear of it
(the stored totals, the results cache, the ratings), and the replay of every hand of a game from its
stored inputs (`Hand.inputs`) that corrections, undo and rebuild use
(:func:`recompute`). Nothing here locks or opens a transaction: the writers of
:mod:`scoring.play.services.hands` call it with the game locked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import (
    Game,
    GameTeam,
    Hand,
    TeamHand,
)
from scoring.play.services.errors import (
    HandRefused,
)
from scoring.signals import game_result_changed

#: The `Game` fields a recompute writes (writers add ``version`` and ``failed_melds``
#: when they change them too).
RECOMPUTED_GAME_FIELDS = ["hand_count", "status", "winner", "finished_at", "ended_early"]

# ---------------------------------------------------------------------------------------
# The derived rows, one writer for every path: each team's TeamHand and running totals


#: The `GameTeam` fields a recompute (and every hand) writes: the running totals.
RECOMPUTED_TEAM_FIELDS = [
    "total",
    "minimum",
    "points_against",
    "hands",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "red_threes",
    "times_out",
    "concealed_outs",
    "perfect_cuts",
    "best_hand",
    "won",
]

#: The `TeamHand` fields a recompute rewrites on rows it keeps.
RECOMPUTED_TEAM_HAND_FIELDS = [
    "melded_points",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "red_threes",
    "went_out",
    "hand_points",
    "perfect_cut",
    "penalty_points",
    "breakdown",
    "hand_score",
    "score_before",
    "score_after",
    "minimum_before",
    "minimum_next",
]


def fill_team_hand(row: TeamHand, result, before: int) -> None:
    for name, value in result.derived().items():
        setattr(row, name, value)
    row.perfect_cut = bool(result.perfect_cut)
    row.breakdown = dict(result.breakdown)
    row.hand_score = result.hand_score
    row.score_before = before
    row.score_after = result.score_after
    row.minimum_before = result.minimum_before
    row.minimum_next = result.minimum_next


def _add_to_stats(team: GameTeam, result) -> None:
    team.total = result.score_after
    team.minimum = result.minimum_next
    team.hands += 1
    team.natural_canastas += result.without_wild
    team.mixed_canastas += result.with_wild
    if any(result.canastas.values()):
        by_kind = dict(team.canastas_by_kind or {})
        for kind, n in result.canastas.items():
            if n:
                by_kind[kind] = by_kind.get(kind, 0) + n
        team.canastas_by_kind = by_kind
    team.red_threes += result.red_threes
    if result.went_out in ("out", "concealed"):
        team.times_out += 1
    if result.went_out == "concealed":
        team.concealed_outs += 1
    if result.perfect_cut:
        team.perfect_cuts += 1
    if team.best_hand is None or result.hand_score > team.best_hand:
        team.best_hand = result.hand_score


def reset_stats(team: GameTeam, rules) -> None:
    team.total = 0
    team.minimum = engine.initial_meld_minimum(rules, 0)
    team.points_against = 0
    team.hands = 0
    team.natural_canastas = team.mixed_canastas = team.red_threes = 0
    team.canastas_by_kind = {}
    team.times_out = team.concealed_outs = team.perfect_cuts = 0
    team.best_hand = None
    team.won = False


def finish_stats(teams: list[GameTeam], winner: int | None) -> None:
    grand = sum(t.total for t in teams)
    # Against the average opponent: a side's points against in a game of three single
    # players count like one opponent's, as in a game of two sides.
    opponents = max(len(teams) - 1, 1)
    for t in teams:
        t.points_against = round((grand - t.total) / opponents)
        t.won = winner is not None and t.index == winner


def score_rows(game, teams, hands, outcomes, befores, existing=None):
    """The TeamHand rows of ``hands`` as the engine scored them (``outcomes``, with each
    hand's totals before it in ``befores``), each result added to its team's running
    stats. Rows are taken from ``existing`` {(hand id, team id): row} when there.
    Returns (new rows, rows taken from ``existing``)."""
    existing = existing or {}
    new, kept = [], []
    for hand, outcome, before in zip(hands, outcomes, befores, strict=True):
        for team, result, score in zip(teams, outcome.teams, before, strict=True):
            row = existing.get((hand.pk, team.pk))
            if row is None:
                row = TeamHand(hand=hand, team=team, game=game)
                new.append(row)
            else:
                kept.append(row)
            fill_team_hand(row, result, score)
            _add_to_stats(team, result)
    return new, kept


def save_stats(teams: list[GameTeam]) -> None:
    """Write the teams' running totals: a save per team (two or three rows; about half
    a millisecond each, where ``bulk_update``'s CASE WHEN took about 10 ms to build)."""
    for team in teams:
        team.save(update_fields=RECOMPUTED_TEAM_FIELDS)


# ---------------------------------------------------------------------------------------
# The game's state after a change, and who must hear of it


class GameState(StrEnum):
    """What a change did to a game's outcome (the values are what listeners compare)."""

    FINISHED = "finished"  # the game has just ended
    CHANGED = "changed"  # a finished game was corrected, re-opened or rebuilt
    UNCHANGED = ""  # a game still being played: nobody needs to hear


def game_state(game: Game, teams: list[GameTeam], over: bool, winner, now) -> GameState:
    """Set the game's status/winner after a change; returns what ratings should hear."""
    was_finished = game.status == Game.Status.FINISHED
    if over:
        game.status = Game.Status.FINISHED
        game.winner = teams[winner]
        if not was_finished or game.finished_at is None:
            game.finished_at = now
    else:
        game.status = Game.Status.PLAYING
        game.winner = None
        game.finished_at = None
    if over and not was_finished:
        return GameState.FINISHED
    if was_finished:
        return GameState.CHANGED
    return GameState.UNCHANGED


def sole_leader(teams: list[GameTeam]) -> int | None:
    """The index of the one side ahead of every other (None when two or more share the
    highest total, or no hand was played: nobody leads a game at 0-0)."""
    if not teams or all(t.hands == 0 for t in teams):
        return None
    best = max(t.total for t in teams)
    ahead = [t for t in teams if t.total == best]
    return ahead[0].index if len(ahead) == 1 else None


def close_hands(game, teams, last, now, *, as_it_stands: bool = False) -> GameState:
    """After the rows are written: the game's state from its ``last`` hand's outcome
    (None: no hands), the teams' final stats saved. Returns what ratings should hear.

    A game ended early when its day closed (``ended_early``) stays ended, won by the
    side ahead, after a correction or an undo; should the sides then be level, it is
    back in play (unfinished). ``as_it_stands``: the game ends so with this hand (an
    event's hand in play once time was called, :data:`scoring.signals.saving_hand`),
    unless the hand reached the target (then it is simply over) or the sides are level
    (then it stays unfinished)."""
    over = bool(last and last.game_over)
    winner = last.winner if over else None
    if over:
        game.ended_early = False
    elif game.ended_early or as_it_stands:
        winner = sole_leader(teams)
        over = winner is not None
        game.ended_early = over
    tell = game_state(game, teams, over, winner, now)
    finish_stats(teams, winner)
    save_stats(teams)
    return tell


def tell_ratings(
    game: Game, what: GameState, *, rate: bool = True, people: list[int] | None = None
) -> None:
    """After a change to a game's outcome, in its transaction, its listeners are told
    (:mod:`scoring.results.receivers`): the stored season totals of its players
    (``people``, when the caller read them) are recomputed, the results cache and the
    ratings hear of it. A hand of a game still in play changes none of them."""
    if what is not GameState.UNCHANGED:
        game_result_changed.send(sender=Game, game=game, what=what, rate=rate, people=people)


def copy_state(source: Game, target: Game) -> None:
    """Keep the caller's game object in step with the saved row."""
    if source is target:
        return
    for name in (*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"):
        setattr(target, name, getattr(source, name))


# ---------------------------------------------------------------------------------------
# Replaying every hand from its stored inputs (corrections, undo, rebuild)


@dataclass
class Replay:
    outcomes: list  # one engine.HandOutcome per hand, in order
    scores_before: list  # per hand: the teams' totals before it


def replay(rules, hand_inputs: Sequence[list], n_teams: int, *, numbers: Sequence[int]):
    """Score every hand in order from 0; raises HandRefused naming the hand at fault, or
    when a hand ends the game while later hands exist."""
    scores = [0] * n_teams
    outcomes, befores = [], []
    for k, inputs in enumerate(hand_inputs):
        outcome = engine.score_hand(rules, inputs, list(scores), numbers[k])
        if not outcome.ok:
            raise HandRefused(
                outcome.errors,
                _("Hand %(number)s cannot be scored: %(reasons)s")
                % {"number": numbers[k], "reasons": " ".join(e.message for e in outcome.errors)},
            )
        befores.append(list(scores))
        outcomes.append(outcome)
        scores = [t.score_after for t in outcome.teams]
        if outcome.game_over and k < len(hand_inputs) - 1:
            winner = outcome.winner
            later = numbers[k + 1 :]
            words = {
                "number": numbers[k],
                "side": rules.team_label(winner),
                "score": number_format(scores[winner], force_grouping=True),
                "first": later[0],
                "last": later[-1],
            }
            if len(later) == 1:
                message = _(
                    "With this change the game ends at hand %(number)s (%(side)s reaches "
                    "%(score)s), but hand %(first)s was played after it. Check the numbers, "
                    "or undo the later hands first. Nothing was saved."
                )
            else:
                message = _(
                    "With this change the game ends at hand %(number)s (%(side)s reaches "
                    "%(score)s), but hands %(first)s–%(last)s were played after it. Check the "
                    "numbers, or undo the later hands first. Nothing was saved."
                )
            raise HandRefused([engine.Refusal("", message % words)])
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
