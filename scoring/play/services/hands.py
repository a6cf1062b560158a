"""Recording hands: the next hand, a whole game played elsewhere, a correction, an undo
and a rebuild, each in one transaction with the game row locked first; a table
device's saves count once per form key (:func:`submit_hand`, :func:`replace_hand`,
:func:`count_failed_meld`), and the failed initial melds of the hand being played are
kept on the game until it is saved. What a hand
changes is written by :mod:`scoring.play.services.replay` (its TeamHand rows, the
teams' running totals, the game's state, who hears of a result) and
:mod:`scoring.play.services.who_confirms` (the other team's OK it waits for).

Every path scores with :mod:`scoring.engine`; a second device saving the same hand is
told who saved it first (:class:`HandConflict`), and an edit of a hand that changed
since its form was drawn is refused (:class:`StaleEdit`). Hands store what was entered
(`Hand.inputs`), so a correction, an undo or a rebuild scores every hand again in order
from 0 (:func:`replay`) and rewrites the derived rows; a hand the engine refuses, or a
change that would end the game before hands already played, is refused before anything
is written.

The game row is locked with ``Game.objects.locked`` (``select_for_update``; on SQLite
the IMMEDIATE transaction mode serialises writers), so two devices saving at once queue
up. Before a new hand is scored, other apps may refuse it (the signal
:data:`scoring.signals.saving_hand`); one that says the game ends as it stands with
this hand (an event's hand in play once time was called) has it closed so in the same
write.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from clubsite.clock import clock_and_day, full_stop
from scoring import engine
from scoring.models import (
    Game,
    GameTeam,
    Hand,
    Submission,
    TeamHand,
    TeamPlayer,
)
from scoring.models.games import replaced_reason, via_words
from scoring.play.partnerships import seat_order
from scoring.play.services.errors import (
    GameClosed,
    GameSetupError,
    HandRefused,
    ScoringError,
)
from scoring.play.services.replay import (
    RECOMPUTED_GAME_FIELDS,
    GameState,
    close_hands,
    copy_state,
    recompute,
    replay,
    reset_stats,
    score_rows,
    tell_ratings,
)
from scoring.play.services.who_confirms import (
    after_correction,
    club_confirms,
    open_confirmation,
    set_history,
    user_name,
)
from scoring.signals import saving_hand

# ---------------------------------------------------------------------------------------
# The refusals only recording raises, and the words that say who saved a hand first


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


def conflict_message(hand: Hand) -> str:
    """ "Hand 7 was already entered by the Table 3 link at 3:41 p.m." """
    when = full_stop(clock_and_day(hand.created_at))  # "7:15 a.m." takes no second one
    return _("Hand %(number)s was already entered by %(who)s at %(when)s") % {
        "number": hand.number,
        "who": hand.entered_by_label,
        "when": when,
    }


def game_over(game: Game) -> GameClosed:
    """The refusal of a hand (or of a failed meld's tap) after the game's last hand."""
    return GameClosed(
        _("Game %(number)s at %(table)s is over; no more hands can be added. Start the next game.")
        % {"number": game.number, "table": game.table}
    )


def last_editor(hand: Hand) -> str:
    """Who made the hand's latest change, from its history."""
    last = hand.history.order_by("-history_date").select_related("history_user").first()
    if last is None:
        return hand.entered_by_label
    if last.history_user_id:
        return user_name(last.history_user)
    return via_words(last.history_change_reason) or _("another device")


# ---------------------------------------------------------------------------------------
# The lock


def lock_for_hand(game: Game) -> tuple[Game, list[GameTeam], list[TeamPlayer]]:
    """The game's row and its teams' rows, locked, with the players in seat order: ONE
    query (the players joined to their teams and game) for saving the next hand, which
    also reads whether the hand waits for the other team's OK (the day's and the rule
    set's setting). The game's table is the caller's (it does not change). Locked as
    ``Game.objects.locked`` locks."""
    players = sorted(
        TeamPlayer.objects.select_for_update(of=("team", "team__game"), no_key=True)
        .select_related("team__game")
        .filter(team__game_id=game.pk)
        .annotate(
            confirm_day=F("team__game__day__rules__confirm_hands"),
            confirm_club=club_confirms(),
            confirm_rules=F("team__game__rule_set__confirm_hands"),
            event_day=F("team__game__day__has_event"),
        )
        .order_by(),  # put in order here: a handful of rows (0.4 ms less than SQL's)
        key=lambda p: (p.team.index, p.seat or 0, p.pk),
    )
    if not players:  # a game without players (never made by the services)
        locked = Game.objects.locked(game.pk)
        return locked, list(GameTeam.objects.filter(game=locked).order_by("index")), []
    locked = players[0].team.game
    first = players[0]
    locked.confirm_setting = (first.confirm_day, first.confirm_club, first.confirm_rules)
    locked.event_day = first.event_day
    if Game.table.is_cached(game):
        locked.table = game.table
    teams: dict[int, GameTeam] = {}
    for player in players:
        team = teams.setdefault(player.team_id, player.team)
        team.game = locked
        player.team = team
    return locked, list(teams.values()), players


# ---------------------------------------------------------------------------------------
# Failed initial melds in the hand being played: every device at the table sees the same
# counts, and each failure raises that team's minimum for the rest of the hand.
#
# The counts live on the game (``Game.failed_melds``) for hand ``hand_count + 1``; saving
# a hand keeps its counts under ``"saved"`` (hand number -> counts per team, only hands
# with a failed meld), for the workbook's Hands sheet, and undoing a hand drops its
# entry: ``{"hand": 4, "counts": [1, 0], "saved": {"2": [0, 1]}}``. A tap carries the
# hand it was for and the key of its form
# (:func:`count_failed_meld`): a double tap, or a reload that sends the tap again, counts
# once, and a tap for a hand already saved counts nothing. The rest is kept by the hand's
# writers below.

MAX_FAILED_MELDS = 20


def failed_meld_counts(game: Game) -> list[int]:
    """Failed initial melds per team in the hand being played (hand ``hand_count + 1``),
    as every device at the table sees them; zeros once that hand is saved or undone."""
    n = game.engine_rules().teams
    stored = game.failed_melds if isinstance(game.failed_melds, dict) else {}
    counts = stored.get("counts")
    if stored.get("hand") != game.hand_count + 1 or not isinstance(counts, list):
        return [0] * n
    counts = [c if type(c) is int and 0 <= c <= MAX_FAILED_MELDS else 0 for c in counts]
    return (counts + [0] * n)[:n]


def saved_part(game: Game) -> dict:
    stored = game.failed_melds if isinstance(game.failed_melds, dict) else {}
    saved = stored.get("saved")
    return {"saved": dict(saved)} if isinstance(saved, dict) and saved else {}


def settle_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is saved: its counts kept under
    ``"saved"`` (when a team failed a meld), nothing counted for the next hand."""
    counts = failed_meld_counts(game) if game.hand_count + 1 == number else []
    kept = saved_part(game)
    if any(counts):
        kept.setdefault("saved", {})[str(number)] = counts
    return kept


def for_new_hand(game: Game, inputs: list, number: int) -> tuple[list, dict]:
    """Saving hand ``number``: its inputs with each team's failed initial melds in it,
    and ``Game.failed_melds`` once it is saved (:func:`settle_failed_melds`)."""
    counts = failed_meld_counts(game)
    return with_failed_melds(inputs, counts), settle_failed_melds(game, number)


def forget_failed_melds(game: Game, number: int) -> dict:
    """``Game.failed_melds`` once hand ``number`` is undone: its saved counts dropped."""
    kept = saved_part(game)
    kept.get("saved", {}).pop(str(number), None)
    return kept if kept.get("saved") else {}


def saved_failed_melds(stored) -> dict[int, list[int]]:
    """Hand number → failed initial melds per team, from a game's ``failed_melds``
    (hands saved before the counts were kept have none)."""
    saved = stored.get("saved") if isinstance(stored, dict) else None
    if not isinstance(saved, dict):
        return {}
    out = {}
    for number, counts in saved.items():
        if str(number).isdigit() and isinstance(counts, list):
            out[int(number)] = [c if type(c) is int and c >= 0 else 0 for c in counts]
    return out


def with_failed_melds(inputs: list, counts: list[int]) -> list:
    """The teams' inputs with each team's failed initial melds in that hand
    (``failed_melds``, which raise the melded points the engine asks of the team), where
    a team's inputs do not say already."""
    out = []
    for index, team in enumerate(inputs):
        count = counts[index] if index < len(counts) else 0
        if isinstance(team, dict) and count and "failed_melds" not in team:
            team = {**team, "failed_melds": count}
        out.append(team)
    return out


def stored_failed_melds(inputs) -> list[int]:
    """The failed initial melds a saved hand's inputs carry, per team."""
    teams = inputs if isinstance(inputs, list) else []
    return [
        t.get("failed_melds") if isinstance(t, dict) and type(t.get("failed_melds")) is int else 0
        for t in teams
    ]


# ---------------------------------------------------------------------------------------
# Recording a hand


def record_hand(
    game: Game,
    inputs: list[dict],
    *,
    number: int,
    user=None,
    via: str = "",
    now=None,
    confirmed: bool = False,
) -> Hand:
    """Save hand ``number`` of ``game`` (the number the device believes is next) and
    update the running totals, minimums and the game's state, in one transaction.
    ``confirmed``: the players ticked the box a refusal of another app offered
    (:data:`scoring.signals.saving_hand`).

    Raises :class:`HandRefused` (engine refusals), :class:`HandConflict` (hand
    ``number`` already exists, or is not the next one) or :class:`GameClosed`.
    """
    now = now or timezone.now()
    if type(number) is not int or number < 1:
        raise HandConflict(None, _("The hand number is missing or wrong; reload the page."))
    try:
        with transaction.atomic():
            return _record(
                game, inputs, number=number, user=user, via=via, now=now, confirmed=confirmed
            )
    except IntegrityError:
        # Two writers got past the lock (should not happen): the unique constraint on
        # (game, number) kept the second one out. Tell it who won.
        existing = (
            Hand.objects.filter(game_id=game.pk, number=number).select_related("entered_by").first()
        )
        if existing is None:
            raise
        raise HandConflict(existing, conflict_message(existing)) from None


def _record(game, inputs, *, number, user, via, now, confirmed=False) -> Hand:
    locked, teams, players = lock_for_hand(game)
    if number <= locked.hand_count:
        existing = (
            Hand.objects.filter(game=locked, number=number).select_related("entered_by").first()
        )
        raise HandConflict(
            existing,
            conflict_message(existing)
            if existing
            else _("Hand %(number)s was already entered; reload the page.") % {"number": number},
        )
    # A hand already saved is a conflict even when it ended the game (two phones
    # entering the last hand both see both versions); only a hand after it is refused.
    if locked.status == Game.Status.FINISHED:
        raise game_over(locked)
    if number != locked.hand_count + 1:
        raise HandConflict(
            None,
            ngettext(
                "Hand %(number)s cannot be entered yet: the game has %(count)s hand, so the "
                "next is hand %(next)s. Reload the page.",
                "Hand %(number)s cannot be entered yet: the game has %(count)s hands, so the "
                "next is hand %(next)s. Reload the page.",
                locked.hand_count,
            )
            % {"number": number, "count": locked.hand_count, "next": locked.hand_count + 1},
        )
    # Other apps' checks (an event's round whose time is called takes the hand in
    # play, then the game ends as it stands): a receiver refuses the hand by raising.
    answers = saving_hand.send(
        sender=Game, game=locked, inputs=inputs, now=now, confirmed=confirmed
    )
    ends = any(answer for _receiver, answer in answers)
    rules = locked.engine_rules()
    scores_before = [t.total for t in teams]
    inputs, failed_after = for_new_hand(locked, inputs, number)
    outcome = engine.score_hand(rules, inputs, scores_before, number)
    if not outcome.ok:
        raise HandRefused(outcome.errors)
    hand = _new_hand(locked, number, inputs, seat_order(players), user=user, via=via, moment=now)
    set_history(hand, user, via)
    hand.save()
    open_confirmation(locked, hand, user=user, now=now, players=players)
    rows, _kept = score_rows(locked, teams, [hand], [outcome], [scores_before])
    TeamHand.objects.bulk_create(rows)
    hand.team_rows = rows  # what the saved message shows, without reading it again
    tell = close_hands(locked, teams, outcome, now, as_it_stands=ends)
    locked.failed_melds = failed_after
    locked.hand_count = number
    locked.version += 1
    locked.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"])
    copy_state(locked, game)
    tell_ratings(locked, tell, people=[p.person_id for p in players] or None)
    return hand


def _new_hand(game, number, inputs, order, *, user, via, moment) -> Hand:
    return Hand(
        game=game,
        number=number,
        inputs=copy.deepcopy(inputs),
        dealer_id=game.dealer_for(number, order),
        entered_by=user if getattr(user, "is_authenticated", False) else None,
        entered_via=via[:120],
        version=1,
        created_at=moment,
        updated_at=moment,
    )


def record_played_game(
    game: Game,
    hand_inputs: Sequence[list],
    *,
    times: Sequence,
    via: str = "",
    user=None,
    rate: bool = True,
) -> list[Hand]:
    """Record every hand of a game that was played elsewhere (a generated league, an
    import from paper), in one transaction: the same Hand, TeamHand, history, team and
    game rows as :func:`record_hand` called hand by hand, written in bulk.

    ``times`` gives each hand's time. The game must have no hands yet. Raises
    :class:`HandRefused` naming the hand at fault (or a game that ends before its last
    hand); nothing is saved then. ``rate=False`` leaves the ratings to a later
    ``ratings.replay_from`` (a bulk import replays them once at the end).
    """
    if len(times) != len(hand_inputs) or not hand_inputs:
        raise GameSetupError(_("Give one time for each hand, and at least one hand."))
    with transaction.atomic():
        locked = Game.objects.locked(game.pk)
        if locked.hand_count or locked.status == Game.Status.FINISHED:
            raise GameSetupError(
                _(
                    "Game %(number)s at %(table)s already has hands; record the next ones one "
                    "by one."
                )
                % {"number": locked.number, "table": locked.table}
            )
        rules = locked.engine_rules()
        teams = list(GameTeam.objects.filter(game=locked).order_by("index"))
        numbers = list(range(1, len(hand_inputs) + 1))
        done = replay(rules, hand_inputs, len(teams), numbers=numbers)
        order = seat_order(TeamPlayer.objects.filter(game=locked).only("person_id", "seat", "pk"))
        hands = [
            _new_hand(locked, number, inputs, order, user=user, via=via, moment=moment)
            for number, inputs, moment in zip(numbers, hand_inputs, times, strict=True)
        ]
        hands = bulk_create_with_history(
            hands,
            Hand,
            default_user=hands[0].entered_by,
            default_change_reason=via[:100] or None,
        )
        for team in teams:
            reset_stats(team, rules)
        rows, _kept = score_rows(locked, teams, hands, done.outcomes, done.scores_before)
        TeamHand.objects.bulk_create(rows)
        tell = close_hands(locked, teams, done.outcomes[-1], times[-1])
        locked.hand_count = numbers[-1]
        locked.version += len(numbers)
        locked.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version"])
        tell_ratings(locked, tell, rate=rate)
        copy_state(locked, game)
    return hands


# ---------------------------------------------------------------------------------------
# Corrections, undo, rebuild


def _current_hand(hand: Hand, expected_version) -> Hand:
    """The hand as saved now, locked; :class:`StaleEdit` if it was undone or changed
    since its form was opened at ``expected_version``."""
    current = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("entered_by")
        .filter(pk=hand.pk)
        .first()
    )
    if current is None:
        raise StaleEdit(
            None,
            _(
                "Hand %(number)s was undone on another device after you opened it; nothing "
                "was saved."
            )
            % {"number": hand.number},
        )
    if type(expected_version) is not int or current.version != expected_version:
        raise StaleEdit(
            current,
            _(
                "Hand %(number)s was changed after you opened it (by %(who)s at %(when)s). "
                "Your changes were not saved; they are still in the form below. Check the "
                "hand as it is now, then save again to replace it."
            )
            % {
                "number": current.number,
                "who": last_editor(current),
                "when": clock_and_day(current.updated_at),
            },
        )
    return current


def correct_hand(
    hand: Hand,
    inputs: list[dict],
    *,
    expected_version: int,
    user=None,
    via: str = "",
    now=None,
) -> Hand:
    """Replace an earlier hand's inputs; every later hand, the totals, the minimums and
    the game's end are recomputed. ``expected_version`` is the hand's version when the
    form was opened: if it changed since, :class:`StaleEdit` and nothing is saved.

    A correction that would end the game before hands already played after it is
    refused (:class:`HandRefused` with one message naming the hand); undo the later
    hands first.
    """
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.locked(hand.game_id)
        current = _current_hand(hand, expected_version)
        inputs = with_failed_melds(inputs, stored_failed_melds(current.inputs))
        rules = game.engine_rules()
        # Check the corrected hand alone first, so its refusals name its own fields.
        befores = TeamHand.objects.filter(hand=current).order_by("team__index")
        scores_before = [row.score_before for row in befores]
        outcome = engine.score_hand(rules, inputs, scores_before or None, current.number)
        if not outcome.ok:
            raise HandRefused(outcome.errors)
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        for h in hands:
            if h.pk == current.pk:
                h.inputs = copy.deepcopy(inputs)
        tell, _teams = recompute(game, hands, now)
        current.inputs = copy.deepcopy(inputs)
        current.version += 1
        current.updated_at = now
        reason = via or (f"corrected by {user_name(user)}" if user else "corrected")
        set_history(current, user, reason)
        current.save(update_fields=["inputs", "version", "updated_at"])
        after_correction(current, game=game, user=user, via=via, now=now)
        game.version += 1
        game.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version"])
        tell_ratings(game, tell)
        copy_state(game, hand.game)
    return current


def undo_last_hand(
    game: Game, *, expected_hand_count: int, user=None, via: str = "", now=None
) -> Hand:
    """Delete the game's last hand (the history keeps it) and recompute; a finished game
    is re-opened. ``expected_hand_count`` is the number of hands the device saw: if
    another hand was saved or undone since, :class:`StaleEdit` and nothing changes.
    Returns the deleted hand (no longer in the database)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.locked(game.pk)
        if locked.hand_count == 0:
            raise StaleEdit(None, _("There is no hand to undo."))
        if type(expected_hand_count) is not int or locked.hand_count != expected_hand_count:
            raise StaleEdit(
                None,
                _(
                    "The game now has %(count)s hands, not %(expected)s: another device "
                    "changed it. Nothing was undone; look at the hands again."
                )
                % {"count": locked.hand_count, "expected": expected_hand_count},
            )
        hands = list(Hand.objects.filter(game=locked).order_by("number"))
        last = hands.pop()
        reason = via or (f"undone by {user_name(user)}" if user else "undone")
        set_history(last, user, reason)
        last.delete()
        tell, _teams = recompute(locked, hands, now)
        locked.version += 1
        locked.failed_melds = forget_failed_melds(locked, last.number)
        locked.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"])
        tell_ratings(locked, tell)
        copy_state(locked, game)
    return last


def rebuild_game(game: Game, *, now=None) -> Game:
    """Recompute every derived row of a game (TeamHand, GameTeam, Game state) from the
    stored inputs. Raises HandRefused if a stored hand no longer scores."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.locked(game.pk)
        hands = list(Hand.objects.filter(game=locked).order_by("number"))
        tell, _teams = recompute(locked, hands, now)  # a finished game keeps its finish time
        locked.save(update_fields=RECOMPUTED_GAME_FIELDS)
        # The inputs did not change: ratings are redone only for a game that now ends.
        tell_ratings(locked, tell, rate=tell is GameState.FINISHED)
        copy_state(locked, game)
    return locked


# ---------------------------------------------------------------------------------------
# Writes from a table device that count once: each carries the key its form was drawn
# with (a hidden field, 16 to 64 letters, digits, ``-`` or ``_``), stored with what it
# wrote in the same transaction (`Submission`). A repeat of the key (a retry, a double
# tap, a reload, a form kept on the phone and sent when the connection came back) is
# answered with the first result and writes nothing: saving a hand (:func:`submit_hand`,
# around :func:`record_hand`), replacing one another phone saved first
# (:func:`replace_hand`, a :func:`correct_hand` whose history says who and when), and a
# failed initial meld tapped in the hand being played (:func:`count_failed_meld`).

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
    except (HandConflict, GameClosed, HandRefused, IntegrityError):
        # The hand is saved already: by this very send (a double tap, a retry, a reload;
        # the game's lock made it wait for the first, which may have ended the game, or
        # an earlier hand corrected since makes these inputs refused), or by another
        # device, or never: then the refusal stands. (IntegrityError: the key saved a
        # hand that has since been undone; nothing is saved again.)
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
    signed_in = getattr(user, "is_authenticated", False)
    reason = replaced_reason(via or (user_name(user) if signed_in else ""), hand.number)
    with transaction.atomic():
        Game.objects.locked(hand.game_id)
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
        locked = Game.objects.locked(game.pk)
        if locked.status == Game.Status.FINISHED:
            raise game_over(locked)
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
