"""Signals of the scoring app (definitions only; the receivers live with the code that
listens, e.g. :mod:`scoring.results.receivers`).

``game_result_changed`` is sent by the play services inside the transaction that
changed a game's outcome, with ``game``, ``what`` ("finished": the game has just ended;
"changed": a finished game was corrected, re-opened or rebuilt), ``rate`` (False when
a bulk import replays the ratings once at the end) and ``people`` (the ids of its
players when the sender read them, else None). Listeners that do work after the
change use ``transaction.on_commit``; the stored totals are written in the change's
own transaction.
"""

from django.dispatch import Signal

game_result_changed = Signal()
