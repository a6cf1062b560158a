"""Ending a game as it stands, when its club day closes before the game reached its
target: the side ahead wins, and the game counts from then on like any finished game
(standings, the top six, the day sheet, the e-mail, the workbook, the ratings).

An officer chooses it game by game on the page that closes the day
(:func:`scoring.play.receivers.end_games_at_close`); a game left unfinished counts
nowhere, and keeps its hands. A game whose sides are level cannot be ended so: nobody
leads it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import Game, GameTeam
from scoring.play.services.errors import GameClosed
from scoring.play.services.replay import (
    RECOMPUTED_GAME_FIELDS,
    copy_state,
    finish_stats,
    game_state,
    save_stats,
    sole_leader,
    tell_ratings,
)


def leader_of(game: Game, teams: list[GameTeam] | None = None) -> GameTeam | None:
    """The side ahead of every other in a game (None when level or without hands)."""
    teams = teams if teams is not None else sorted(game.teams.all(), key=lambda t: t.index)
    index = sole_leader(teams)
    return None if index is None else teams[index]


def end_game_as_it_stands(game: Game, *, now=None) -> Game:
    """End ``game`` now, won by the side ahead; its totals, the players' season totals
    and the ratings are written as for a game that reached its target. Raises
    :class:`GameClosed` when the game is already over, or when no side leads (level,
    or no hand played): such a game stays unfinished."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.locked(game.pk)
        if locked.status == Game.Status.FINISHED:
            raise GameClosed(f"Game {locked.number} at {locked.table} is already over.")
        teams = list(GameTeam.objects.filter(game=locked).order_by("index"))
        winner = sole_leader(teams)
        if winner is None:
            raise GameClosed(
                f"Game {locked.number} at {locked.table} cannot be ended as it stands: "
                "no side is ahead, so it stays unfinished."
            )
        tell = game_state(locked, teams, True, winner, now)
        locked.ended_early = True
        finish_stats(teams, winner)
        save_stats(teams)
        locked.version += 1
        locked.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version"])
        tell_ratings(locked, tell)
        copy_state(locked, game)
    return locked
