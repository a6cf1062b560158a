"""The preview panel of the hand form (``scoring/_preview.html``): what the engine makes
of what was typed (the breakdown and new totals of each team). The form's errors come
from :meth:`HandEntry.problems`.

Nothing is saved: the score comes from :func:`scoring.play.services.preview_hand`.
"""

from __future__ import annotations

from scoring.labels import BREAKDOWN_WORDS
from scoring.models import Game
from scoring.play.forms.hand import HandEntry
from scoring.play.services.preview import preview_hand


def preview_panel(game: Game, entry: HandEntry, teams):
    """Score what was typed without saving: a dict for the preview panel."""
    if not entry.is_valid():
        return {"form_errors": True}
    if entry.is_blank():
        return {}  # nothing typed yet: the bar says to type the hand
    number = entry.number
    outcome, before = preview_hand(game, entry.inputs(), number=number, teams=teams or None)
    if not outcome.ok:
        entry.apply_refusals(outcome.errors)
        return {"refused": True, "errors": outcome.errors}
    rules = game.engine_rules()
    rows = []
    for k, result in enumerate(outcome.teams):
        lines = [
            (BREAKDOWN_WORDS.get(key, key), value)
            for key, value in result.breakdown.items()
            if value or key in ("melded_cards", "cards_in_hand")
        ]
        rows.append(
            {
                "label": rules.team_label(k),
                "names": teams[k].player_names if k < len(teams) else "",
                "lines": lines,
                "hand_score": result.hand_score,
                "before": before[k] if k < len(before) else 0,
                "after": result.score_after,
                "minimum_next": result.minimum_next,
            }
        )
    winner = None
    if outcome.game_over and outcome.winner is not None:
        winner = rows[outcome.winner]
    return {"rows": rows, "game_over": outcome.game_over, "winner": winner, "number": number}
