"""Writes from a table device that count once: each carries the key its form was drawn
with (a hidden field, 16 to 64 letters, digits, ``-`` or ``_``), stored with what it
wrote in the same transaction (`Submission`). A repeat of the key (a retry, a double
tap, a reload, a form kept on the phone and sent when the connection came back) is
answered with the first result and writes nothing.

The writes: saving a hand, replacing one another phone saved first, and a failed
initial meld tapped in the hand being played. The hand itself is saved by
:func:`scoring.play.services.hands.record_hand`, and a replaced hand by
:func:`~scoring.play.services.hands.correct_hand` (the correction history says who and
when); this module only wraps them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Game, Hand, Submission
from scoring.play.services.errors import (
    GameClosed,
    HandConflict,
    HandRefused,
    StaleEdit,
    user_name,
)
from scoring.play.services.failed_melds import MAX_FAILED_MELDS, failed_meld_counts, saved_part
from scoring.play.services.hands import correct_hand, lock_game, record_hand

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
        game_id=game.pk,
        key=key,
        kind=kind,
        number=number,
        hand=hand,
        created_at=now or timezone.now(),
    )


def recent_keys(game: Game) -> list[str]:
    """The game's latest 20 keys, newest first, so a device can drop what it kept once
    it was saved (ordered by id: the model's ordering would join the game)."""
    keys = Submission.objects.filter(game_id=game.pk).order_by("-pk")
    return list(keys.values_list("key", flat=True)[:20])


@dataclass(frozen=True)
class Submitted:
    """What a submission did: the hand (None if it was undone since), its number, and
    whether this was a repeat of a key already seen (nothing written this time)."""

    hand: Hand | None
    number: int
    repeat: bool = False


def submit_hand(
    game: Game,
    inputs: list[dict],
    *,
    key,
    number: int,
    user=None,
    via: str = "",
    now=None,
    confirmed: bool = False,
) -> Submitted:
    """Save hand ``number`` once per ``key`` (see :func:`record_hand` for refusals).
    Without a valid key (a script, an old page) the hand is simply recorded."""
    if not valid_key(key):
        hand = record_hand(
            game, inputs, number=number, user=user, via=via, now=now, confirmed=confirmed
        )
        return Submitted(hand, hand.number)
    try:
        with transaction.atomic():
            hand = record_hand(
                game, inputs, number=number, user=user, via=via, now=now, confirmed=confirmed
            )
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
            raise GameClosed(
                _(
                    "Game %(number)s at %(table)s is over; no more hands can be added. "
                    "Start the next game."
                )
                % {"number": locked.number, "table": locked.table}
            )
        counts = failed_meld_counts(locked)
        if 0 <= team_index < len(counts) and _counts_once(locked, key, hand, kind):
            counts[team_index] = min(max(counts[team_index] + step, 0), MAX_FAILED_MELDS)
            locked.failed_melds = {
                **saved_part(locked),
                "hand": locked.hand_count + 1,
                "counts": counts,
            }
            locked.save(update_fields=["failed_melds"])
        game.failed_melds = locked.failed_melds
        game.hand_count = locked.hand_count
    return counts
