"""Refusals of the scoring services, and the sentences that explain them.

Every refusal is a :class:`ScoringError` carrying a message in plain words, in the
reader's language (``exc.message``, written with Django's ``gettext`` where it is
raised; the engine's own refusals come written in the active language too, see
``scoring.engine._text``), that a view shows as it is. Who entered a hand and when is part of
several of those sentences ("Hand 7 was already entered by the Table 3 link at 3:41
p.m."), so the words for it live here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from clubsite.clock import clock_and_day, full_stop
from scoring import engine
from scoring.models import Hand


class ScoringError(Exception):
    """Base of every refusal of the services; ``message`` is a sentence for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class GameSetupError(ScoringError):
    """A game cannot be started as asked (wrong teams, players not at the table...)."""


class GameInPlay(GameSetupError):
    """The table already has a game in play (``number``): most often the other half of
    a double tap, or a second phone, started it a moment ago."""

    def __init__(self, number: int, message: str):
        super().__init__(message)
        self.number = number


class GameClosed(ScoringError):
    """The game is over: no more hands can be added to it."""


class HandRefused(ScoringError):
    """The engine refused the hand; ``errors`` holds its refusals (field, message).
    ``confirm``: the words of a box the players may tick to save it all the same (a
    hand check's question, e.g. "This hand ended before time was called"), or ""."""

    def __init__(self, errors: Sequence[engine.Refusal], message: str = "", confirm: str = ""):
        self.errors = list(errors)
        self.confirm = confirm
        super().__init__(
            message or " ".join(error.message for error in self.errors) or _("Hand refused.")
        )


class HandConflict(ScoringError):
    """The hand number the device entered is not the next one: usually another device
    saved that hand first (``existing_hand``), or the device is behind or ahead."""

    def __init__(self, existing_hand: Hand | None, message: str):
        super().__init__(message)
        self.existing_hand = existing_hand


class StaleEdit(ScoringError):
    """The hand changed (or was undone) after the form was opened; ``current_hand`` is
    the hand as it is now (None if it no longer exists)."""

    def __init__(self, current_hand: Hand | None, message: str):
        super().__init__(message)
        self.current_hand = current_hand


class RuleSetRefused(ScoringError):
    """A rule set cannot be copied or changed as asked (a preset, or settings the
    engine refuses)."""


# ---------------------------------------------------------------------------------------
# Who entered or changed a hand, in words


def conflict_message(hand: Hand) -> str:
    """ "Hand 7 was already entered by the Table 3 link at 3:41 p.m." """
    when = full_stop(clock_and_day(hand.created_at))  # "7:15 a.m." takes no second one
    return _("Hand %(number)s was already entered by %(who)s at %(when)s") % {
        "number": hand.number,
        "who": hand.entered_by_label,
        "when": when,
    }


def user_name(user) -> str:
    """The name of a signed-in person, or "a table link"."""
    if user is None or not getattr(user, "is_authenticated", False):
        return _("a table link")
    return user.get_full_name() or user.get_username()


def last_editor(hand: Hand) -> str:
    """Who made the hand's latest change, from its history."""
    last = hand.history.order_by("-history_date").select_related("history_user").first()
    if last is None:
        return hand.entered_by_label
    if last.history_user_id:
        return user_name(last.history_user)
    return last.history_change_reason or _("another device")


def set_history(obj, user, reason: str) -> None:
    """Who made this change, for django-simple-history (outside a request too)."""
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user
    if reason:
        obj._change_reason = reason[:100]
