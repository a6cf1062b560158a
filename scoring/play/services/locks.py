"""The game's row lock, which every writer of a game takes first (the next hand, a
correction, an undo, a confirmation, ending a game as it stands)."""

from __future__ import annotations

from scoring.models import Game


def lock_game(game: Game) -> Game:
    """The game's row, locked until the transaction ends (call inside ``atomic``).

    The lock is PostgreSQL's FOR NO KEY UPDATE (what an update of its fields takes):
    writers of the game queue up, and rows that merely point at it (a person's best
    game in the stored totals) can still be written. With FOR UPDATE a rebuild of the
    totals, or another game ending, waited for a correction that waited for them:
    "deadlock detected"."""
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("table")
        .get(pk=game.pk)
    )
