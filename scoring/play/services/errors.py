"""Refusals of the scoring services, and the sentences that explain them.

Every refusal is a :class:`ScoringError` carrying a message in plain words, in the
reader's language (``exc.message``, written with Django's ``gettext`` where it is
raised; the engine's own refusals come written in the active language too, see
``scoring.engine._text``), that a view shows as it is. The refusals only the recording
of a hand raises (``HandConflict``, ``StaleEdit``) live with it, in
:mod:`scoring.play.services.hands`, with the words that say who saved the hand first;
who made a change, in words and for the history, is
:mod:`scoring.play.services.who_confirms`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring import engine


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
    ``confirm``: the words of a box the players may tick to save it all the same (the
    question of a receiver of :data:`scoring.signals.saving_hand`, e.g. "This hand ended
    before time was called"), or ""."""

    def __init__(self, errors: Sequence[engine.Refusal], message: str = "", confirm: str = ""):
        self.errors = list(errors)
        self.confirm = confirm
        super().__init__(
            message or " ".join(error.message for error in self.errors) or _("Hand refused.")
        )


class RuleSetRefused(ScoringError):
    """A rule set cannot be copied or changed as asked (a preset, or settings the
    engine refuses)."""
