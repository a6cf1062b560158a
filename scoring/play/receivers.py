"""What the play app answers when members asks about a club day
(:data:`members.signals.day_closing`): the games still in play, which closing the day
would stop."""

from __future__ import annotations

from django.dispatch import receiver
from django.urls import reverse

from members.signals import day_closing
from scoring.models import Game


@receiver(day_closing)
def games_in_play(sender, day, **kwargs):
    """(sentence, link) per game of ``day`` still in play: "Table 3, round 1: game 2,
    4 hands played"."""
    games = (
        Game.objects.filter(day=day, status=Game.Status.PLAYING)
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "number")
    )
    return [
        (
            f"{game.table}, round {game.table.round.number}: game {game.number}, "
            f"{game.hand_count} hand{'s' if game.hand_count != 1 else ''} played",
            reverse("scoring:table", args=[game.table_id]),
        )
        for game in games
    ]
