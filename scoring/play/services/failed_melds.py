"""Failed initial melds in the hand being played: every device at the table sees the
same counts, and each failure raises that team's minimum for the rest of the hand.

The counts live on the game (``Game.failed_melds``) for hand ``hand_count + 1``;
saving a hand keeps its counts under ``"saved"`` (hand number -> counts per team, only
hands with a failed meld), for the workbook's Hands sheet, and undoing a hand drops
its entry: ``{"hand": 4, "counts": [1, 0], "saved": {"2": [0, 1]}}``. A tap carries
the hand it was for and the key of its form (:mod:`scoring.play.services.submissions`):
a double tap, or a reload that sends the tap again, counts once, and a tap for a hand
already saved counts nothing.
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import Game, Submission
from scoring.play.services.base import lock_game
from scoring.play.services.errors import GameClosed
from scoring.play.services.keys import remember, seen, valid_key

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


def _counts_once(locked: Game, key, hand, kind: str) -> bool:
    """Whether this tap counts: it is for the hand being played and its key is new."""
    if hand is not None and hand != locked.hand_count + 1:
        return False
    if not valid_key(key):
        return True
    if seen(locked, key) is not None:
        return False
    remember(locked, key, kind, locked.hand_count + 1)
    return True


def count_failed_meld(
    game: Game, team_index: int, *, step: int = 1, hand: int | None = None, key=None
) -> list[int]:
    """A team's failed initial meld in the hand being played (``step=-1`` takes one back):
    its minimum rises by the rule set's increase for the rest of that hand. ``hand``: the
    hand the tap was for; ``key``: the tap's key (one count per key). Returns the counts.
    Raises :class:`GameClosed` when the game is over."""
    kind = Submission.Kind.FAILED_MELD if step > 0 else Submission.Kind.UNFAILED_MELD
    with transaction.atomic():
        locked = lock_game(game)
        if locked.status == Game.Status.FINISHED:
            raise GameClosed(f"Game {locked.number} at {locked.table} is over.")
        counts = failed_meld_counts(locked)
        if 0 <= team_index < len(counts) and _counts_once(locked, key, hand, kind):
            counts[team_index] = min(max(counts[team_index] + step, 0), MAX_FAILED_MELDS)
            locked.failed_melds = {
                **_saved_part(locked),
                "hand": locked.hand_count + 1,
                "counts": counts,
            }
            locked.save(update_fields=["failed_melds"])
        game.failed_melds = locked.failed_melds
        game.hand_count = locked.hand_count
    return counts


def _saved_part(game: Game) -> dict:
    stored = game.failed_melds if isinstance(game.failed_melds, dict) else {}
    saved = stored.get("saved")
    return {"saved": dict(saved)} if isinstance(saved, dict) and saved else {}


def settle_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is saved: its counts kept under
    ``"saved"`` (when a team failed a meld), nothing counted for the next hand."""
    counts = failed_meld_counts(game) if game.hand_count + 1 == number else []
    kept = _saved_part(game)
    if any(counts):
        kept.setdefault("saved", {})[str(number)] = counts
    return kept


def forget_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is undone: its saved counts dropped."""
    kept = _saved_part(game)
    kept.get("saved", {}).pop(str(number), None)
    return kept if kept.get("saved") else {}


def saved_failed_melds(stored) -> dict[int, list[int]]:
    """Hand number → failed initial melds per team, from a game's ``failed_melds``
    (hands saved before the counts were kept have none)."""
    saved = stored.get("saved") if isinstance(stored, dict) else None
    if not isinstance(saved, dict):
        return {}
    out = {}
    for number, counts in saved.items():
        if str(number).isdigit() and isinstance(counts, list):
            out[int(number)] = [c if type(c) is int and c >= 0 else 0 for c in counts]
    return out


def with_failed_melds(inputs: list, counts: list[int]) -> list:
    """The teams' inputs with each team's failed initial melds in that hand
    (``failed_melds``, which raise the melded points the engine asks of the team), where
    a team's inputs do not say already."""
    out = []
    for index, team in enumerate(inputs):
        count = counts[index] if index < len(counts) else 0
        if isinstance(team, dict) and count and "failed_melds" not in team:
            team = {**team, "failed_melds": count}
        out.append(team)
    return out


def stored_failed_melds(inputs) -> list[int]:
    """The failed initial melds a saved hand's inputs carry, per team."""
    teams = inputs if isinstance(inputs, list) else []
    return [
        t.get("failed_melds") if isinstance(t, dict) and type(t.get("failed_melds")) is int else 0
        for t in teams
    ]
