"""Failed initial melds in the hand being played: every device at the table sees the
same counts, and each failure raises that team's minimum for the rest of the hand.

The counts live on the game (``Game.failed_melds``) for hand ``hand_count + 1``;
saving a hand keeps its counts under ``"saved"`` (hand number -> counts per team, only
hands with a failed meld), for the workbook's Hands sheet, and undoing a hand drops
its entry: ``{"hand": 4, "counts": [1, 0], "saved": {"2": [0, 1]}}``. A tap carries
the hand it was for and the key of its form
(:func:`scoring.play.services.submissions.count_failed_meld`): a double tap, or a
reload that sends the tap again, counts once, and a tap for a hand already saved counts
nothing. Nothing here writes: the counting tap is a submission, the rest is kept by
the hand's writers.
"""

from __future__ import annotations

from scoring.models import Game

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


def saved_part(game: Game) -> dict:
    stored = game.failed_melds if isinstance(game.failed_melds, dict) else {}
    saved = stored.get("saved")
    return {"saved": dict(saved)} if isinstance(saved, dict) and saved else {}


def settle_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is saved: its counts kept under
    ``"saved"`` (when a team failed a meld), nothing counted for the next hand."""
    counts = failed_meld_counts(game) if game.hand_count + 1 == number else []
    kept = saved_part(game)
    if any(counts):
        kept.setdefault("saved", {})[str(number)] = counts
    return kept


def for_new_hand(game: Game, inputs: list, number: int) -> tuple[list, dict]:
    """Saving hand ``number``: its inputs with each team's failed initial melds in it,
    and ``Game.failed_melds`` once it is saved (:func:`settle_failed_melds`)."""
    counts = failed_meld_counts(game)
    return with_failed_melds(inputs, counts), settle_failed_melds(game, number)


def forget_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is undone: its saved counts dropped."""
    kept = saved_part(game)
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
