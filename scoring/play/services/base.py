"""What every writing service does first: read the clock, lock the game row, and say
who made a change and why for the history.

The game row is locked with ``select_for_update`` (on SQLite the IMMEDIATE transaction
mode serialises writers), so two devices saving at once queue up.
"""

from __future__ import annotations

from django.utils import timezone

from scoring.models import Game


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
