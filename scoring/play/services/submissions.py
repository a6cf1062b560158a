"""Writes from a table device that count once: each carries the key its form was drawn
with (a hidden field), stored with what it wrote in the same transaction. A repeat of
the key (a retry, a double tap, a reload, a form kept on the phone and sent when the
connection came back) is answered with the first result and writes nothing.

The hand itself is saved by :func:`scoring.play.services.hands.record_hand`, and a
replaced hand by :func:`~scoring.play.services.hands.correct_hand` (the correction
history says who and when); this module only wraps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from scoring.models import Game, Hand, Submission
from scoring.play.services.base import lock_game
from scoring.play.services.errors import (
    GameClosed,
    HandConflict,
    HandRefused,
    StaleEdit,
    user_name,
)
from scoring.play.services.hands import correct_hand, record_hand
from scoring.play.services.keys import remember, seen, valid_key


@dataclass(frozen=True)
class Submitted:
    """What a submission did: the hand (None if it was undone since), its number, and
    whether this was a repeat of a key already seen (nothing written this time)."""

    hand: Hand | None
    number: int
    repeat: bool = False


def submit_hand(
    game: Game, inputs: list[dict], *, key, number: int, user=None, via: str = "", now=None
) -> Submitted:
    """Save hand ``number`` once per ``key`` (see :func:`record_hand` for refusals).
    Without a valid key (a script, an old page) the hand is simply recorded."""
    if not valid_key(key):
        hand = record_hand(game, inputs, number=number, user=user, via=via, now=now)
        return Submitted(hand, hand.number)
    try:
        with transaction.atomic():
            hand = record_hand(game, inputs, number=number, user=user, via=via, now=now)
            remember(game, key, Submission.Kind.HAND, hand.number, hand, now)
    except (HandConflict, GameClosed, HandRefused):
        # The hand is saved already: by this very send (a double tap, a retry, a reload;
        # the game's lock made it wait for the first, which may have ended the game, or
        # an earlier hand corrected since makes these inputs refused), or by another
        # device, or never: then the refusal stands.
        first = seen(game, key)
        if first is None:
            raise
        return Submitted(first.hand, first.number, repeat=True)
    except IntegrityError:
        # The key saved a hand that has since been undone: nothing is saved again.
        first = seen(game, key)
        if first is None:
            raise
        return Submitted(first.hand, first.number, repeat=True)
    return Submitted(hand, hand.number)


def replace_hand(
    hand: Hand,
    inputs: list[dict],
    *,
    key,
    expected_version: int,
    user=None,
    via: str = "",
    now=None,
) -> Submitted:
    """A second device saved other numbers for a hand already saved, and chose to
    replace the saved hand with its own: a correction (history: who and when), once per
    ``key``. Raises :class:`StaleEdit` when the hand changed since it was shown."""
    who = via or user_name(user)
    reason = f"replaced by {who} (two phones entered hand {hand.number})"
    with transaction.atomic():
        lock_game(hand.game)
        first = seen(hand.game, key) if valid_key(key) else None
        if first is not None:
            return Submitted(first.hand, first.number, repeat=True)
        if type(expected_version) is not int:
            raise StaleEdit(hand, "This form is out of date; look at the hand again.")
        current = correct_hand(
            hand, inputs, expected_version=expected_version, user=user, via=reason, now=now
        )
        if valid_key(key):
            remember(hand.game, key, Submission.Kind.REPLACE, current.number, current, now)
    return Submitted(current, current.number)
