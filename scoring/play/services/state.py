"""A game's state after its hands changed: playing or finished, the winner, the finish
time, and who must hear of it.

:func:`game_state` says what happened as a :class:`GameState`; the services send it with
``game_result_changed`` (``what=``), which the results (cache and ratings) listen to.
"""

from __future__ import annotations

from enum import StrEnum

from scoring.models import Game, GameTeam
from scoring.play.services import totals
from scoring.play.services.rows import finish_stats, save_stats
from scoring.signals import game_result_changed

#: The `Game` fields a recompute writes (writers add ``version`` and ``failed_melds``
#: when they change them too).
RECOMPUTED_GAME_FIELDS = ["hand_count", "status", "winner", "finished_at"]


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


def close_hands(game, teams, last, now) -> GameState:
    """After the rows are written: the game's state from its ``last`` hand's outcome
    (None: no hands), the teams' final stats saved. Returns what ratings should hear."""
    over = bool(last and last.game_over)
    winner = last.winner if over else None
    tell = game_state(game, teams, over, winner, now)
    finish_stats(teams, winner)
    save_stats(teams)
    return tell


def tell_ratings(
    game: Game, what: GameState, *, rate: bool = True, people: list[int] | None = None
) -> None:
    """After a change to a game's outcome, in its transaction: the stored season
    totals of its players (``people``, when the caller read them) are recomputed, and
    listeners (the results cache and the ratings, :mod:`scoring.results.receivers`)
    are told. A hand of a game still in play changes neither."""
    if what is not GameState.UNCHANGED:
        totals.game_changed(game, people)
        game_result_changed.send(sender=Game, game=game, what=what, rate=rate)


def copy_state(source: Game, target: Game) -> None:
    """Keep the caller's game object in step with the saved row."""
    if source is target:
        return
    for name in (*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"):
        setattr(target, name, getattr(source, name))
