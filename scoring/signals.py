"""Signals of the scoring app (definitions only; the receivers live with the code that
listens, e.g. :mod:`scoring.results.receivers` and :mod:`scoring.tourney.apps`).

``game_result_changed`` is sent by the play services inside the transaction that
changed a game's outcome, with ``game``, ``what`` ("finished": the game has just ended;
"changed": a finished game was corrected, re-opened or rebuilt), ``rate`` (False when
a bulk import replays the ratings once at the end) and ``people`` (the ids of its
players when the sender read them, else None). Listeners that do work after the
change use ``transaction.on_commit``; the stored totals are written in the change's
own transaction.

Two signals let another app refuse what the play services are about to do, without
the play services importing that app (the events app, :mod:`scoring.tourney`, connects
to both when it starts); they are sent with ``send`` (not ``send_robust``): a receiver
refuses by raising, and the refusal reaches the caller.

``saving_hand`` is sent with a new hand's game locked, before the hand is scored, with
``game`` (the locked row, with ``event_day`` read with the lock), ``inputs`` (as
entered), ``now`` and ``confirmed`` (the players ticked the box a refusal offered them,
``HandRefused.confirm``). A receiver refuses the hand by raising ``GameClosed`` or
``HandRefused`` (:mod:`scoring.play.services.errors`); one that returns True ends the
game as it stands once the hand is saved. Corrections, undos and rebuilds send nothing:
a director can always correct.

``starting_next_game`` is sent with ``previous`` (the finished game) before the next
game at its table is started or offered; a receiver refuses it by raising
``GameSetupError``.
"""

from django.dispatch import Signal

game_result_changed = Signal()
saving_hand = Signal()
starting_next_game = Signal()
