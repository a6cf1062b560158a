"""Previewing a hand: what the engine would make of the inputs, without saving."""

from __future__ import annotations

from scoring import engine
from scoring.models import Game, GameTeam, Hand, TeamHand
from scoring.play.services.hands import (
    failed_meld_counts,
    stored_failed_melds,
    with_failed_melds,
)


def preview_hand(
    game: Game, inputs: list[dict], *, number: int | None = None, teams: list | None = None
):
    """Score ``inputs`` as hand ``number`` (default: the next hand) without saving;
    returns (engine.HandOutcome, scores_before). ``teams``: the game's teams in order,
    when the caller has read them already (their totals are the next hand's scores
    before it)."""
    rules = game.engine_rules()
    if number is None or number > game.hand_count:
        number = game.hand_count + 1
        if teams is None:
            teams = GameTeam.objects.filter(game=game).order_by("index")
        scores_before = [t.total for t in teams]
        inputs = with_failed_melds(inputs, failed_meld_counts(game))
    else:
        saved = Hand.objects.filter(game=game, number=number).values_list("inputs", flat=True)
        inputs = with_failed_melds(inputs, stored_failed_melds(next(iter(saved), None)))
        scores_before = list(
            TeamHand.objects.filter(hand__game=game, hand__number=number)
            .order_by("team__index")
            .values_list("score_before", flat=True)
        )
    return engine.score_hand(rules, inputs, scores_before or None, number), scores_before
