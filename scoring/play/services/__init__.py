"""The only code that writes scores: start a game, record, correct and undo a hand;
rule sets. Callers import the module they need (there is no list of names here).

Every function here scores with :mod:`scoring.engine` (the one implementation of the
rules) and writes the hand, its per-team results (`TeamHand`), the teams' running
totals and statistics (`GameTeam`) and the game's state (`Game`) in one transaction.
The game row is locked first (``Game.objects.locked``: ``select_for_update``; on SQLite
the IMMEDIATE transaction mode serialises writers), so two devices saving at once queue up: one
hand is saved, the other device is told what happened, nothing is lost or doubled.

Raw inputs are stored as entered (`Hand.inputs`: one contract-shaped dict per team), so
:func:`~scoring.play.services.hands.rebuild_game` can recompute every derived row from
them.

Refusals are exceptions carrying a message in plain English (``exc.message``), in
:mod:`~scoring.play.services.errors`: ``HandRefused`` (the engine's refusals,
``exc.errors``), ``GameClosed``, ``GameSetupError`` and ``RuleSetRefused``; the two
that only recording raises live with it, in :mod:`~scoring.play.services.hands`:
``HandConflict`` (the hand was already entered, ``exc.existing_hand``) and
``StaleEdit`` (the hand changed since the form was opened, ``exc.current_hand``).

The modules:

- ``errors``: the refusals above
- ``rulesets``: the club default, a day's rules, copying and editing a rule set
- ``games``: starting a game and the next one, the checks on the teams
- ``hands``: record a hand or a whole played game, correct, undo, rebuild; a
  device's writes that count once (the key its form was drawn with): saving a hand,
  replacing one another phone saved first, a failed initial meld; the failed initial
  melds of the hand being played; the refusals only these raise, and who saved a hand
  first, in words
- ``replay``: the rows a hand derives (team rows, running totals, the game's state and
  who hears of it) and the replay of a game's hands from their inputs
- ``who_confirms``: who made a change, in words and for the history
  (``set_history``); whether a saved hand waits for the other team's OK, which side
  entered it, and the OK a saved or corrected hand opens
- ``preview``: scoring a hand without saving it
- ``confirmations``: the other team's OK of a hand (confirm, dispute, an officer's
  settlement)
- ``totals``: the stored season, partnership and all-games totals

The pure partnership rules (seat order, the club's draw) live in
:mod:`scoring.play.partnerships`; who deals each hand is the game's own
(``Game.dealer_for``). Other apps refuse a new hand or a next game through the signals
of :mod:`scoring.signals` (``saving_hand``, ``starting_next_game``), which these
services send and never import the apps.
"""
