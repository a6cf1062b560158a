"""What every writing service does first: read the clock, lock the game row, and say
who made a change and why for the history.

The game row is locked with ``select_for_update`` (on SQLite the IMMEDIATE transaction
mode serialises writers), so two devices saving at once queue up.
"""

from __future__ import annotations

from django.utils import timezone

from scoring.models import Game, GameTeam, TeamPlayer
from scoring.play import reads


def now_or(now=None):
    """The moment given, else now (time is passed in where a caller knows it)."""
    return now or timezone.now()


def set_history(obj, user, reason: str) -> None:
    """Who made this change, for django-simple-history (outside a request too)."""
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user
    if reason:
        obj._change_reason = reason[:100]


def lock_game(game: Game) -> Game:
    """The game's row, locked until the transaction ends (call inside ``atomic``)."""
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game.pk)


def lock_for_hand(game: Game) -> tuple[Game, list[GameTeam], list[TeamPlayer]]:
    """The game's row and its teams' rows, locked, with the players in seat order: ONE
    query (the players joined to their teams and game) for the hot path of saving the
    next hand. The game's table is the caller's (it does not change)."""
    # Whether the hand will wait for the other team's OK is read in the same query.
    players = reads.players_locked(game.pk)
    if not players:  # a game without players (never made by the services)
        locked = lock_game(game)
        return locked, list(GameTeam.objects.filter(game=locked).order_by("index")), []
    locked = players[0].team.game
    locked.confirm_setting = (players[0].confirm_day, players[0].confirm_rules)
    if Game.table.is_cached(game):
        locked.table = game.table
    teams: dict[int, GameTeam] = {}
    for player in players:
        team = teams.setdefault(player.team_id, player.team)
        team.game = locked
        player.team = team
    return locked, list(teams.values()), players
