"""Failed initial melds in the hand being played: every device at the table sees the
same counts, and each failure raises that team's minimum for the rest of the hand.

The counts live on the game (``Game.failed_melds``) for hand ``hand_count + 1`` only;
saving or undoing a hand clears them.
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import Game
from scoring.play.services.base import lock_game
from scoring.play.services.errors import GameClosed

MAX_FAILED_MELDS = 20


def failed_meld_counts(game: Game) -> list[int]:
    """Failed initial melds per team in the hand being played (hand ``hand_count + 1``),
    as every device at the table sees them; zeros once that hand is saved or undone."""
    n = game.engine_rules().teams
    stored = game.failed_melds if isinstance(game.failed_melds, dict) else {}
    counts = stored.get("counts")
    if stored.get("hand") != game.hand_count + 1 or not isinstance(counts, list):
        return [0] * n
    counts = [c if type(c) is int and 0 <= c <= MAX_FAILED_MELDS else 0 for c in counts]
    return (counts + [0] * n)[:n]


def count_failed_meld(game: Game, team_index: int, *, step: int = 1) -> list[int]:
    """A team's failed initial meld in the hand being played (``step=-1`` takes one back):
    its minimum rises by the rule set's increase for the rest of that hand. Returns the
    new counts. Raises :class:`GameClosed` when the game is over."""
    with transaction.atomic():
        locked = lock_game(game)
        if locked.status == Game.Status.FINISHED:
            raise GameClosed(f"Game {locked.number} at {locked.table} is over.")
        counts = failed_meld_counts(locked)
        if 0 <= team_index < len(counts):
            counts[team_index] = min(max(counts[team_index] + step, 0), MAX_FAILED_MELDS)
            locked.failed_melds = {"hand": locked.hand_count + 1, "counts": counts}
            locked.save(update_fields=["failed_melds"])
        game.failed_melds = locked.failed_melds
        game.hand_count = locked.hand_count
    return counts
