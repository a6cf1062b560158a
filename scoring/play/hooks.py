"""Checks other apps add to the play services, filled at start-up by their
``AppConfig.ready`` (the events app, :mod:`scoring.tourney.apps`): recording hands and
starting games never import those apps, and work the same without them.

- a **hand check** is called with the game locked (from
  :func:`scoring.play.services.hands.lock_for_hand`, which reads ``game.event_day``)
  before a new hand is scored: it refuses the hand by raising
  :class:`~scoring.play.services.errors.GameClosed` or
  :class:`~scoring.play.services.errors.HandRefused`, else returns whether the game
  ends as it stands once the hand is saved;
- a **next-game check** is called before the next game at a table is started, and
  refuses it by raising :class:`~scoring.play.services.errors.GameSetupError`.

Corrections, undos and rebuilds ask no check: a director can always correct.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from scoring.models import Game


@dataclass(frozen=True)
class NewHand:
    """A hand about to be saved: the locked game, the inputs as entered, the moment,
    and whether the players ticked the box a check's refusal offered them
    (``HandRefused.confirm``)."""

    game: Game
    inputs: list
    now: dt.datetime
    confirmed: bool = False


HandCheck = Callable[[NewHand], bool]
NextGameCheck = Callable[[Game], None]

_hand_checks: list[HandCheck] = []
_next_game_checks: list[NextGameCheck] = []


def add_hand_check(check: HandCheck) -> None:
    if check not in _hand_checks:
        _hand_checks.append(check)


def add_next_game_check(check: NextGameCheck) -> None:
    if check not in _next_game_checks:
        _next_game_checks.append(check)


def check_new_hand(hand: NewHand) -> bool:
    """Run every hand check (each may refuse); True when one says the game ends as it
    stands after this hand."""
    ends = False
    for check in _hand_checks:
        ends = bool(check(hand)) or ends
    return ends


def check_next_game(previous: Game) -> None:
    """Run every next-game check (each may refuse)."""
    for check in _next_game_checks:
        check(previous)
