"""Recording hands: the next hand, a whole game played elsewhere, a correction, an undo
and a rebuild, each in one transaction with the game row locked first, and everything a
hand changes: its TeamHand rows, the teams' running totals (`GameTeam`), the game's
state (`Game`), the other team's OK it waits for, and who hears of a result.

Every path scores with :mod:`scoring.engine`; a second device saving the same hand is
told who saved it first (:class:`HandConflict`), and an edit of a hand that changed
since its form was drawn is refused (:class:`StaleEdit`). Hands store what was entered
(`Hand.inputs`), so a correction, an undo or a rebuild scores every hand again in order
from 0 (:func:`replay`) and rewrites the derived rows; a hand the engine refuses, or a
change that would end the game before hands already played, is refused before anything
is written.

The game row is locked with ``select_for_update`` (on SQLite the IMMEDIATE transaction
mode serialises writers), so two devices saving at once queue up.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.db import IntegrityError, transaction
from django.db.models import F, Subquery
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from clubsite.clock import clock_and_day
from members.permissions import is_officer, person_for
from scoring import engine
from scoring.models import (
    ClubSettings,
    Game,
    GameTeam,
    Hand,
    HandConfirmation,
    TeamHand,
    TeamPlayer,
)
from scoring.play.partnerships import dealer_for, seat_order
from scoring.play.services import totals
from scoring.play.services.errors import (
    GameClosed,
    GameSetupError,
    HandConflict,
    HandRefused,
    StaleEdit,
    conflict_message,
    last_editor,
    user_name,
)
from scoring.play.services.failed_melds import (
    failed_meld_counts,
    forget_failed_melds,
    settle_failed_melds,
    stored_failed_melds,
    with_failed_melds,
)
from scoring.signals import game_result_changed

#: The `Game` fields a recompute writes (writers add ``version`` and ``failed_melds``
#: when they change them too).
RECOMPUTED_GAME_FIELDS = ["hand_count", "status", "winner", "finished_at", "ended_early"]

# ---------------------------------------------------------------------------------------
# The derived rows, one writer for every path: each team's TeamHand and running totals


#: The `GameTeam` fields a recompute (and every hand) writes: the running totals.
RECOMPUTED_TEAM_FIELDS = [
    "total",
    "minimum",
    "points_against",
    "hands",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "red_threes",
    "times_out",
    "concealed_outs",
    "perfect_cuts",
    "best_hand",
    "won",
]

#: The `TeamHand` fields a recompute rewrites on rows it keeps.
RECOMPUTED_TEAM_HAND_FIELDS = [
    "melded_points",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "red_threes",
    "went_out",
    "hand_points",
    "perfect_cut",
    "penalty_points",
    "breakdown",
    "hand_score",
    "score_before",
    "score_after",
    "minimum_before",
    "minimum_next",
]


def fill_team_hand(row: TeamHand, result, before: int) -> None:
    for name, value in result.derived().items():
        setattr(row, name, value)
    row.perfect_cut = bool(result.perfect_cut)
    row.breakdown = dict(result.breakdown)
    row.hand_score = result.hand_score
    row.score_before = before
    row.score_after = result.score_after
    row.minimum_before = result.minimum_before
    row.minimum_next = result.minimum_next


def _add_to_stats(team: GameTeam, result) -> None:
    team.total = result.score_after
    team.minimum = result.minimum_next
    team.hands += 1
    team.natural_canastas += result.without_wild
    team.mixed_canastas += result.with_wild
    if any(result.canastas.values()):
        by_kind = dict(team.canastas_by_kind or {})
        for kind, n in result.canastas.items():
            if n:
                by_kind[kind] = by_kind.get(kind, 0) + n
        team.canastas_by_kind = by_kind
    team.red_threes += result.red_threes
    if result.went_out in ("out", "concealed"):
        team.times_out += 1
    if result.went_out == "concealed":
        team.concealed_outs += 1
    if result.perfect_cut:
        team.perfect_cuts += 1
    if team.best_hand is None or result.hand_score > team.best_hand:
        team.best_hand = result.hand_score


def reset_stats(team: GameTeam, rules) -> None:
    team.total = 0
    team.minimum = engine.initial_meld_minimum(rules, 0)
    team.points_against = 0
    team.hands = 0
    team.natural_canastas = team.mixed_canastas = team.red_threes = 0
    team.canastas_by_kind = {}
    team.times_out = team.concealed_outs = team.perfect_cuts = 0
    team.best_hand = None
    team.won = False


def finish_stats(teams: list[GameTeam], winner: int | None) -> None:
    grand = sum(t.total for t in teams)
    # Against the average opponent: a side's points against in a game of three single
    # players count like one opponent's, as in a game of two sides.
    opponents = max(len(teams) - 1, 1)
    for t in teams:
        t.points_against = round((grand - t.total) / opponents)
        t.won = winner is not None and t.index == winner


def score_rows(game, teams, hands, outcomes, befores, existing=None):
    """The TeamHand rows of ``hands`` as the engine scored them (``outcomes``, with each
    hand's totals before it in ``befores``), each result added to its team's running
    stats. Rows are taken from ``existing`` {(hand id, team id): row} when there.
    Returns (new rows, rows taken from ``existing``)."""
    existing = existing or {}
    new, kept = [], []
    for hand, outcome, before in zip(hands, outcomes, befores, strict=True):
        for team, result, score in zip(teams, outcome.teams, before, strict=True):
            row = existing.get((hand.pk, team.pk))
            if row is None:
                row = TeamHand(hand=hand, team=team, game=game)
                new.append(row)
            else:
                kept.append(row)
            fill_team_hand(row, result, score)
            _add_to_stats(team, result)
    return new, kept


def save_stats(teams: list[GameTeam]) -> None:
    """Write the teams' running totals: a save per team (two or three rows; about half
    a millisecond each, where ``bulk_update``'s CASE WHEN took about 10 ms to build)."""
    for team in teams:
        team.save(update_fields=RECOMPUTED_TEAM_FIELDS)


# ---------------------------------------------------------------------------------------
# The game's state after a change, and who must hear of it


class GameState(StrEnum):
    """What a change did to a game's outcome (the values are what listeners compare)."""

    FINISHED = "finished"  # the game has just ended
    CHANGED = "changed"  # a finished game was corrected, re-opened or rebuilt
    UNCHANGED = ""  # a game still being played: nobody needs to hear


def game_state(game: Game, teams: list[GameTeam], over: bool, winner, now) -> GameState:
    """Set the game's status/winner after a change; returns what ratings should hear."""
    was_finished = game.status == Game.Status.FINISHED
    if over:
        game.status = Game.Status.FINISHED
        game.winner = teams[winner]
        if not was_finished or game.finished_at is None:
            game.finished_at = now
    else:
        game.status = Game.Status.PLAYING
        game.winner = None
        game.finished_at = None
    if over and not was_finished:
        return GameState.FINISHED
    if was_finished:
        return GameState.CHANGED
    return GameState.UNCHANGED


def sole_leader(teams: list[GameTeam]) -> int | None:
    """The index of the one side ahead of every other (None when two or more share the
    highest total, or no hand was played: nobody leads a game at 0-0)."""
    if not teams or all(t.hands == 0 for t in teams):
        return None
    best = max(t.total for t in teams)
    ahead = [t for t in teams if t.total == best]
    return ahead[0].index if len(ahead) == 1 else None


def close_hands(game, teams, last, now) -> GameState:
    """After the rows are written: the game's state from its ``last`` hand's outcome
    (None: no hands), the teams' final stats saved. Returns what ratings should hear.

    A game ended early when its day closed (``ended_early``) stays ended, won by the
    side ahead, after a correction or an undo; should the sides then be level, it is
    back in play (unfinished)."""
    over = bool(last and last.game_over)
    winner = last.winner if over else None
    if over:
        game.ended_early = False
    elif game.ended_early:
        winner = sole_leader(teams)
        over = winner is not None
        game.ended_early = over
    tell = game_state(game, teams, over, winner, now)
    finish_stats(teams, winner)
    save_stats(teams)
    return tell


def tell_ratings(
    game: Game, what: GameState, *, rate: bool = True, people: list[int] | None = None
) -> None:
    """After a change to a game's outcome, in its transaction: the stored season
    totals of its players (``people``, when the caller read them) are recomputed, and
    listeners (the results cache and the ratings, :mod:`scoring.results.receivers`)
    are told. A hand of a game still in play changes neither."""
    if what is not GameState.UNCHANGED:
        totals.game_changed(game, people)
        game_result_changed.send(sender=Game, game=game, what=what, rate=rate)


def copy_state(source: Game, target: Game) -> None:
    """Keep the caller's game object in step with the saved row."""
    if source is target:
        return
    for name in (*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"):
        setattr(target, name, getattr(source, name))


# ---------------------------------------------------------------------------------------
# Replaying every hand from its stored inputs (corrections, undo, rebuild)


@dataclass
class Replay:
    outcomes: list  # one engine.HandOutcome per hand, in order
    scores_before: list  # per hand: the teams' totals before it


def replay(rules, hand_inputs: Sequence[list], n_teams: int, *, numbers: Sequence[int]):
    """Score every hand in order from 0; raises HandRefused naming the hand at fault, or
    when a hand ends the game while later hands exist."""
    scores = [0] * n_teams
    outcomes, befores = [], []
    for k, inputs in enumerate(hand_inputs):
        outcome = engine.score_hand(rules, inputs, list(scores), numbers[k])
        if not outcome.ok:
            raise HandRefused(
                outcome.errors,
                _("Hand %(number)s cannot be scored: %(reasons)s")
                % {"number": numbers[k], "reasons": " ".join(e.message for e in outcome.errors)},
            )
        befores.append(list(scores))
        outcomes.append(outcome)
        scores = [t.score_after for t in outcome.teams]
        if outcome.game_over and k < len(hand_inputs) - 1:
            winner = outcome.winner
            later = numbers[k + 1 :]
            words = {
                "number": numbers[k],
                "side": rules.team_label(winner),
                "score": number_format(scores[winner], force_grouping=True),
                "first": later[0],
                "last": later[-1],
            }
            if len(later) == 1:
                message = _(
                    "With this change the game ends at hand %(number)s (%(side)s reaches "
                    "%(score)s), but hand %(first)s was played after it. Check the numbers, "
                    "or undo the later hands first. Nothing was saved."
                )
            else:
                message = _(
                    "With this change the game ends at hand %(number)s (%(side)s reaches "
                    "%(score)s), but hands %(first)s–%(last)s were played after it. Check the "
                    "numbers, or undo the later hands first. Nothing was saved."
                )
            raise HandRefused([engine.Refusal("", message % words)])
    return Replay(outcomes, befores)


def recompute(game: Game, hands: list[Hand], now) -> tuple[GameState, list[GameTeam]]:
    """Rescore ``hands`` (every hand of the game, in order, with their inputs as they
    should be) and rewrite TeamHand rows, team totals and the game's state. Raises
    HandRefused (nothing written) if any hand is refused or the game would end early."""
    rules = game.engine_rules()
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    done = replay(rules, [h.inputs for h in hands], len(teams), numbers=[h.number for h in hands])
    existing = {(row.hand_id, row.team_id): row for row in TeamHand.objects.filter(game=game)}
    for team in teams:
        reset_stats(team, rules)
    to_create, to_update = score_rows(
        game, teams, hands, done.outcomes, done.scores_before, existing
    )
    keep = {row.pk for row in to_update}
    stale = [row.pk for row in existing.values() if row.pk not in keep]
    if stale:
        TeamHand.objects.filter(pk__in=stale).delete()
    if to_update:
        TeamHand.objects.bulk_update(to_update, RECOMPUTED_TEAM_HAND_FIELDS)
    if to_create:
        TeamHand.objects.bulk_create(to_create)
    tell = close_hands(game, teams, done.outcomes[-1] if done.outcomes else None, now)
    game.hand_count = hands[-1].number if hands else 0
    return tell, teams


# ---------------------------------------------------------------------------------------
# The lock, and who and why for the history


def set_history(obj, user, reason: str) -> None:
    """Who made this change, for django-simple-history (outside a request too)."""
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user
    if reason:
        obj._change_reason = reason[:100]


def lock_game(game: Game) -> Game:
    """The game's row, locked until the transaction ends (call inside ``atomic``).

    The lock is PostgreSQL's FOR NO KEY UPDATE (what an update of its fields takes):
    writers of the game queue up, and rows that merely point at it (a person's best
    game in the stored totals) can still be written. With FOR UPDATE a rebuild of the
    totals, or another game ending, waited for a correction that waited for them:
    "deadlock detected"."""
    return (
        Game.objects.select_for_update(of=("self",), no_key=True)
        .select_related("table")
        .get(pk=game.pk)
    )


def lock_for_hand(game: Game) -> tuple[Game, list[GameTeam], list[TeamPlayer]]:
    """The game's row and its teams' rows, locked, with the players in seat order: ONE
    query (the players joined to their teams and game) for saving the next hand, which
    also reads whether the hand waits for the other team's OK (the day's and the rule
    set's setting). The game's table is the caller's (it does not change). Locked as
    :func:`lock_game` locks."""
    players = list(
        TeamPlayer.objects.select_for_update(of=("team", "team__game"), no_key=True)
        .select_related("team__game")
        .filter(team__game_id=game.pk)
        .annotate(
            confirm_day=F("team__game__day__rules__confirm_hands"),
            confirm_club=_club_confirms(),
            confirm_rules=F("team__game__rule_set__confirm_hands"),
        )
        .order_by("team__index", "seat", "pk")
    )
    if not players:  # a game without players (never made by the services)
        locked = lock_game(game)
        return locked, list(GameTeam.objects.filter(game=locked).order_by("index")), []
    locked = players[0].team.game
    first = players[0]
    locked.confirm_setting = (first.confirm_day, first.confirm_club, first.confirm_rules)
    if Game.table.is_cached(game):
        locked.table = game.table
    teams: dict[int, GameTeam] = {}
    for player in players:
        team = teams.setdefault(player.team_id, player.team)
        team.game = locked
        player.team = team
    return locked, list(teams.values()), players


# ---------------------------------------------------------------------------------------
# The other team's OK: opened by a saved hand, reopened by a correction


def _club_confirms() -> Subquery:
    """The club's own setting of the other team's OK (None: as the rule set says)."""
    return Subquery(ClubSettings.objects.values("confirm_hands")[:1])


def _pick(day_value, club_value, rule_set_value) -> bool:
    if day_value is not None:
        return day_value
    return club_value if club_value is not None else bool(rule_set_value)


def confirmation_required(game: Game) -> bool:
    """Whether hands of ``game`` saved now need the other team's OK: the day's setting
    when it has one, else the club's, else the setting of the rule set the game started
    with (one query, or none when the game was read by ``lock_for_hand``)."""
    known = getattr(game, "confirm_setting", None)
    if known is not None:
        return _pick(*known)
    row = (
        Game.objects.filter(pk=game.pk)
        .annotate(confirm_club=_club_confirms())
        .values_list("day__rules__confirm_hands", "confirm_club", "rule_set__confirm_hands")
        .first()
    )
    return _pick(*row) if row else False


def entering_team_id(game: Game, user, players=None) -> int | None:
    """The side that entered a hand or its correction (the keeper rule): the side of
    the logged-in player who saved it, else the side of the game's score keeper; None
    when neither plays in the game (nobody may confirm until the table names its score
    keeper). ``players``: the game's ``TeamPlayer`` rows when the caller has them
    (saving a hand has), else read."""
    person = person_for(user)
    for person_id in (person.pk if person else None, game.score_keeper_id):
        if person_id is None:
            continue
        if players is not None:
            team_id = next((p.team_id for p in players if p.person_id == person_id), None)
            if team_id is not None:
                return team_id
            continue
        team_id = (
            TeamPlayer.objects.filter(game=game, person_id=person_id)
            .values_list("team_id", flat=True)
            .first()
        )
        if team_id is not None:
            return team_id
    return None


def open_confirmation(
    game: Game, hand: Hand, *, user=None, now=None, players=None
) -> HandConfirmation | None:
    """Called inside the transaction that saves ``hand``: when the game's day or rule
    set asks for it, the hand waits for the other team's OK."""
    if not confirmation_required(game):
        return None
    confirmation = HandConfirmation(
        hand=hand,
        game=game,
        status=HandConfirmation.Status.WAITING,
        hand_version=hand.version,
        keeper_team_id=entering_team_id(game, user, players),
        updated_at=now or timezone.now(),
    )
    set_history(confirmation, user, "waiting for the other team")
    confirmation.save()
    return confirmation


def after_correction(hand: Hand, *, game: Game, user=None, via: str = "", now=None) -> None:
    """Called inside the transaction that corrects ``hand`` (``game``: its game, locked):
    an officer's correction settles it; anyone else's puts it back to waiting for the
    other team's OK, as entered by the side that corrected it (the keeper rule of
    :func:`entering_team_id`, as for a new hand: never the side that entered it first,
    which might be the one now asked to confirm its own correction)."""
    confirmation = HandConfirmation.objects.filter(hand=hand).first()
    if confirmation is None:
        return
    confirmation.hand_version = hand.version
    confirmation.updated_at = now or timezone.now()
    confirmation.via = via[:120]
    if is_officer(user):
        confirmation.status = HandConfirmation.Status.SETTLED
        confirmation.officer = user
        reason = "settled by a correction"
    else:
        confirmation.status = HandConfirmation.Status.WAITING
        confirmation.person = None
        confirmation.reason = ""
        confirmation.keeper_team_id = entering_team_id(game, user)
        reason = "corrected: waiting for the other team again"
    set_history(confirmation, user, reason)
    confirmation.save()


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
) -> Hand:
    """Save hand ``number`` of ``game`` (the number the device believes is next) and
    update the running totals, minimums and the game's state, in one transaction.

    Raises :class:`HandRefused` (engine refusals), :class:`HandConflict` (hand
    ``number`` already exists, or is not the next one) or :class:`GameClosed`.
    """
    now = now or timezone.now()
    if type(number) is not int or number < 1:
        raise HandConflict(None, _("The hand number is missing or wrong; reload the page."))
    try:
        with transaction.atomic():
            return _record(game, inputs, number=number, user=user, via=via, now=now)
    except IntegrityError:
        # Two writers got past the lock (should not happen): the unique constraint on
        # (game, number) kept the second one out. Tell it who won.
        existing = (
            Hand.objects.filter(game_id=game.pk, number=number).select_related("entered_by").first()
        )
        if existing is None:
            raise
        raise HandConflict(existing, conflict_message(existing)) from None


def _record(game, inputs, *, number, user, via, now) -> Hand:
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
        raise GameClosed(
            _(
                "Game %(number)s at %(table)s is over; no more hands can be added. "
                "Start the next game."
            )
            % {"number": locked.number, "table": locked.table}
        )
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
    rules = locked.engine_rules()
    scores_before = [t.total for t in teams]
    inputs = with_failed_melds(inputs, failed_meld_counts(locked))
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
    tell = close_hands(locked, teams, outcome, now)
    locked.failed_melds = settle_failed_melds(locked, number)
    locked.hand_count = number
    locked.version += 1
    locked.save(update_fields=[*RECOMPUTED_GAME_FIELDS, "version", "failed_melds"])
    tell_ratings(locked, tell, people=[p.person_id for p in players] or None)
    copy_state(locked, game)
    return hand


def _new_hand(game, number, inputs, order, *, user, via, moment) -> Hand:
    return Hand(
        game=game,
        number=number,
        inputs=copy.deepcopy(inputs),
        dealer_id=dealer_for(game, number, order),
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
        locked = lock_game(game)
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
        game = lock_game(hand.game)
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
        locked = lock_game(game)
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
        locked = lock_game(game)
        hands = list(Hand.objects.filter(game=locked).order_by("number"))
        tell, _teams = recompute(locked, hands, now)  # a finished game keeps its finish time
        locked.save(update_fields=RECOMPUTED_GAME_FIELDS)
        # The inputs did not change: ratings are redone only for a game that now ends.
        tell_ratings(locked, tell, rate=tell is GameState.FINISHED)
        copy_state(locked, game)
    return locked
