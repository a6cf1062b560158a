"""The keys a table device's forms carry (a hidden field made when the form was drawn),
stored with what each wrote: the one record :mod:`.submissions` and :mod:`.failed_melds`
read to make a write count once. No writer is imported here, so both may use it."""

from __future__ import annotations

import re

from scoring.models import Game, Submission
from scoring.play import reads
from scoring.play.services.base import now_or

_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def valid_key(key) -> bool:
    """A key as the form makes them (16 to 64 letters, digits, ``-`` or ``_``)."""
    return isinstance(key, str) and bool(_KEY.match(key))


def seen(game: Game, key: str) -> Submission | None:
    """The submission stored under ``key`` for this game, if any."""
    return Submission.objects.filter(game_id=game.pk, key=key).select_related("hand").first()


def remember(game: Game, key: str, kind: str, number: int, hand=None, now=None) -> None:
    """Store ``key`` with what it wrote (call inside the writer's transaction)."""
    Submission.objects.create(
        game_id=game.pk, key=key, kind=kind, number=number, hand=hand, created_at=now_or(now)
    )


def recent_keys(game: Game) -> list[str]:
    """The game's latest 20 keys, newest first, so a device can drop what it kept once
    it was saved (:func:`scoring.play.reads.recent_keys`)."""
    return reads.recent_keys(game.pk)
