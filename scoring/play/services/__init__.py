"""The only code that writes scores: start a game, record, correct and undo a hand;
rule sets.

Every function here scores with :mod:`scoring.engine` (the one implementation of the
rules) and writes the hand, its per-team results (`TeamHand`), the teams' running
totals and statistics (`GameTeam`) and the game's state (`Game`) in one transaction.
The game row is locked first (``select_for_update``; on SQLite the IMMEDIATE
transaction mode serialises writers), so two devices saving at once queue up: one
hand is saved, the other device is told what happened, nothing is lost or doubled.

Raw inputs are stored as entered (`Hand.inputs`: one contract-shaped dict per team), so
:func:`rebuild_game` can recompute every derived row from them.

Refusals are exceptions carrying a message in plain English (``exc.message``):
:class:`HandRefused` (the engine's refusals, ``exc.errors``), :class:`HandConflict`
(the hand was already entered, ``exc.existing_hand``), :class:`StaleEdit` (the hand
changed since the form was opened, ``exc.current_hand``), :class:`GameClosed`,
:class:`GameSetupError` and :class:`RuleSetRefused`.

The rooms (callers import from here; the modules of this package import each other):

- ``errors``: the refusals above, and who entered a hand and when, in words
- ``base``: the clock, locking a game row, who and why for the history
- ``rulesets``: the club default, a day's rules, copying and editing a rule set
- ``games``: starting a game and the next one, the checks on the teams
- ``hands``: record a hand or a whole played game, correct, undo, rebuild
- ``replay``: scoring every hand again from its inputs (behind correct, undo, rebuild)
- ``rows``: the TeamHand rows and the teams' running totals, one writer for all paths
- ``state``: the game's state after a change (:class:`GameState`) and who hears of it
- ``failed_melds``: failed initial melds in the hand being played
- ``submissions``: a device's writes that count once (the key its form was drawn with):
  saving a hand, replacing one another phone saved first
- ``preview``: scoring a hand without saving it
- ``confirmations``: the other team's OK of a hand (confirm, dispute, an officer's
  settlement), opened by ``record_hand`` and reopened by ``correct_hand``

The pure partnership rules (seat order, dealer, the club's draw) live in
:mod:`scoring.play.partnerships` and are re-exported here for existing callers.
"""

from scoring.play.partnerships import (
    club_partnerships,
    dealer_for,
    keeper_neighbours,
    seat_order,
)
from scoring.play.services.errors import (
    GameClosed,
    GameInPlay,
    GameSetupError,
    HandConflict,
    HandRefused,
    RuleSetRefused,
    ScoringError,
    StaleEdit,
    conflict_message,
)
from scoring.play.services.failed_melds import (
    MAX_FAILED_MELDS,
    count_failed_meld,
    failed_meld_counts,
)
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import (
    correct_hand,
    rebuild_game,
    record_hand,
    record_played_game,
    undo_last_hand,
)
from scoring.play.services.preview import preview_hand
from scoring.play.services.rulesets import (
    copy_rule_set,
    edit_rule_set,
    rule_set_for_day,
    set_club_default,
    set_day_rules,
)
from scoring.play.services.state import GameState

__all__ = [
    "MAX_FAILED_MELDS",
    "GameClosed",
    "GameInPlay",
    "GameSetupError",
    "GameState",
    "HandConflict",
    "HandRefused",
    "RuleSetRefused",
    "ScoringError",
    "StaleEdit",
    "club_partnerships",
    "conflict_message",
    "copy_rule_set",
    "correct_hand",
    "count_failed_meld",
    "dealer_for",
    "edit_rule_set",
    "failed_meld_counts",
    "keeper_neighbours",
    "next_game",
    "preview_hand",
    "rebuild_game",
    "record_hand",
    "record_played_game",
    "rule_set_for_day",
    "seat_order",
    "set_club_default",
    "set_day_rules",
    "start_game",
    "undo_last_hand",
]
