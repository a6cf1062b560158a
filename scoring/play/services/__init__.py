"""The only code that writes scores: start a game, record, correct and undo a hand.

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
changed since the form was opened, ``exc.current_hand``), :class:`GameClosed` and
:class:`GameSetupError`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from members.models import Seat, Table
from scoring import engine
from scoring.labels import clock_and_day
from scoring.models import (
    DayRules,
    Game,
    GameTeam,
    Hand,
    RuleSet,
    TeamHand,
    TeamPlayer,
)
from scoring.signals import game_result_changed

# ---------------------------------------------------------------------------------------
# Exceptions


class ScoringError(Exception):
    """Base of every refusal of the services; ``message`` is a sentence for people."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class GameSetupError(ScoringError):
    """A game cannot be started as asked (wrong teams, players not at the table...)."""


class GameClosed(ScoringError):
    """The game is over: no more hands can be added to it."""


class HandRefused(ScoringError):
    """The engine refused the hand; ``errors`` holds its refusals (field, message)."""

    def __init__(self, errors: Sequence[engine.Refusal], message: str = ""):
        self.errors = list(errors)
        super().__init__(
            message or " ".join(error.message for error in self.errors) or "Hand refused."
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


# ---------------------------------------------------------------------------------------
# Small helpers


def _now(now=None):
    return now or timezone.now()


def _time_words(moment) -> str:
    """ "3:41 p.m." in the site's time zone (with the date when not today)."""
    return clock_and_day(moment)


def who_entered(hand: Hand) -> str:
    return hand.entered_by_label


def conflict_message(hand: Hand) -> str:
    """ "Hand 7 was already entered by the Table 3 link at 3:41 p.m." """
    return (
        f"Hand {hand.number} was already entered by {who_entered(hand)} at "
        f"{_time_words(hand.created_at)}."
    )


def _set_history(obj, user, reason: str) -> None:
    """Who made this change, for django-simple-history (outside a request too)."""
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user
    if reason:
        obj._change_reason = reason[:100]


def rule_set_for_day(day) -> RuleSet | None:
    """The rule set a club day plays: its own choice, else the club default."""
    chosen = DayRules.objects.filter(day=day).select_related("rule_set").first()
    if chosen is not None:
        return chosen.rule_set
    return RuleSet.objects.club_default()


def ensure_presets() -> None:
    """Create any missing preset rows (the data migration does this too) and make `club`
    the club default if the club has none."""
    for slug in engine.PRESET_SLUGS:
        rules = engine.PRESETS[slug]
        if RuleSet.objects.filter(slug=slug).exists():
            continue
        name = rules.label
        if RuleSet.objects.filter(name=name).exists():
            name = f"{rules.label} (preset)"
        RuleSet.objects.create(
            name=name,
            slug=slug,
            based_on=slug,
            is_preset=True,
            settings=rules.to_dict(),
        )
    if not RuleSet.objects.filter(is_club_default=True).exists():
        RuleSet.objects.filter(slug="club").update(is_club_default=True)


def set_club_default(rule_set: RuleSet) -> None:
    with transaction.atomic():
        RuleSet.objects.filter(is_club_default=True).exclude(pk=rule_set.pk).update(
            is_club_default=False
        )
        if not rule_set.is_club_default:
            rule_set.is_club_default = True
            rule_set.save(update_fields=["is_club_default", "updated_at"])


def set_day_rules(day, rule_set: RuleSet) -> DayRules:
    """Choose the rule set a club day plays; games already started keep theirs."""
    obj, _ = DayRules.objects.update_or_create(day=day, defaults={"rule_set": rule_set})
    return obj


# ---------------------------------------------------------------------------------------
# Seating, dealers, partnerships


def seat_order(players: Iterable[TeamPlayer]) -> list[int]:
    """Person ids clockwise from game seat 1."""
    return [p.person_id for p in sorted(players, key=lambda p: (p.seat or 0, p.pk or 0))]


def dealer_for(game: Game, number: int, order: list[int]) -> int | None:
    """The person id who deals hand ``number``: the deal passes clockwise (to the left)
    from the game's first dealer."""
    if not order:
        return None
    start = order.index(game.first_dealer_id) if game.first_dealer_id in order else 0
    return order[(start + number - 1) % len(order)]


def club_partnerships(seat_order_people: Sequence, score_keeper, high_card) -> list[list]:
    """The club's rule for the next game (seed 002): the players to the right and to the
    left of the score keeper draw a card, and the one with the higher card partners the
    score keeper; the other two play together.

    ``seat_order_people`` is the four players clockwise (each player's left is the next
    one clockwise); ``high_card`` the player (left or right of the keeper) who drew
    higher. Returns ``[[score_keeper, high_card], [across, other]]``.
    """
    people = list(seat_order_people)
    if len(people) != 4:
        raise GameSetupError(
            "The club's partnership draw is for tables of four; choose the partners instead."
        )
    if score_keeper not in people:
        raise GameSetupError("The score keeper must be one of the four players.")
    k = people.index(score_keeper)
    left, across, right = people[(k + 1) % 4], people[(k + 2) % 4], people[(k + 3) % 4]
    if high_card not in (left, right):
        raise GameSetupError(
            "Only the players to the left and to the right of the score keeper draw; "
            "choose one of them as the high card."
        )
    other = right if high_card == left else left
    return [[score_keeper, high_card], [across, other]]


def keeper_neighbours(seat_order_people: Sequence, score_keeper) -> tuple:
    """(left, right) of the score keeper in a clockwise seat order of four players."""
    people = list(seat_order_people)
    k = people.index(score_keeper)
    return people[(k + 1) % len(people)], people[(k - 1) % len(people)]


# ---------------------------------------------------------------------------------------
# Starting games


def _check_teams(rules: engine.RuleSet, teams: Sequence[Sequence]) -> None:
    word = rules.team_word
    if len(teams) != rules.teams:
        raise GameSetupError(
            f"These rules ({rules.label}) need {rules.teams} "
            f"{word.lower()}s, but {len(teams)} were given."
        )
    seen = set()
    for i, team in enumerate(teams):
        if len(team) != rules.players_per_team:
            need = rules.players_per_team
            raise GameSetupError(
                f"{word} {i + 1} needs {need} player{'s' if need != 1 else ''} "
                f"under these rules ({rules.label}), but has {len(team)}."
            )
        for person in team:
            if person is None:
                raise GameSetupError(f"Choose every player of {word.lower()} {i + 1}.")
            if person.pk in seen:
                raise GameSetupError(f"{person.full_name} cannot play in two places at once.")
            seen.add(person.pk)


def _start(
    table: Table,
    teams: Sequence[Sequence],
    *,
    settings_dict: dict,
    rules_name: str,
    rule_set: RuleSet | None,
    score_keeper=None,
    first_dealer=None,
    number: int | None = None,
    check_seating: bool = True,
    now=None,
) -> Game:
    try:
        rules = engine.RuleSet.from_dict(settings_dict)
    except ValueError as exc:
        raise GameSetupError(f"The rule set cannot be used: {exc}") from exc
    _check_teams(rules, teams)
    players = [person for team in teams for person in team]
    ids = {p.pk for p in players}
    table_seats = {
        s.person_id: s.position for s in Seat.objects.filter(table=table, round_id=table.round_id)
    }
    if check_seating:
        missing = [p.full_name for p in players if p.pk not in table_seats]
        if missing:
            raise GameSetupError(
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not seated at "
                f"{table} in this round."
            )
    if score_keeper is not None and score_keeper.pk not in ids:
        raise GameSetupError("The score keeper must be one of the players of the game.")
    if first_dealer is not None and first_dealer.pk not in ids:
        raise GameSetupError("The first dealer must be one of the players of the game.")
    day = table.round.day
    now = _now(now)
    try:
        return _create_game(
            table,
            teams,
            day=day,
            rules=rules,
            rules_name=rules_name,
            rule_set=rule_set,
            table_seats=table_seats,
            score_keeper=score_keeper,
            first_dealer=first_dealer,
            number=number,
            now=now,
        )
    except IntegrityError as exc:
        # Another device started a game at this table at the same moment.
        raise GameSetupError(
            f"A game was just started at {table} on another device; reload the table page."
        ) from exc


def _create_game(
    table,
    teams,
    *,
    day,
    rules,
    rules_name,
    rule_set,
    table_seats,
    score_keeper,
    first_dealer,
    number,
    now,
) -> Game:
    with transaction.atomic():
        # Lock the table's games so two devices cannot start two games at once.
        existing = list(Game.objects.select_for_update().filter(table=table).order_by("number"))
        playing = [g for g in existing if g.status == Game.Status.PLAYING]
        if playing:
            raise GameSetupError(
                f"Game {playing[0].number} at {table} is still being played; finish it first."
            )
        if number is None:
            number = (existing[-1].number + 1) if existing else 1
        elif any(g.number == number for g in existing):
            raise GameSetupError(f"{table} already has a game {number}.")
        # Game seats: partners alternate round the table (1 & 3, 2 & 4 for four players).
        # Within a team, players keep the order of their seats at the table.
        ordered = [sorted(team, key=lambda p: table_seats.get(p.pk, 99)) for team in teams]
        if first_dealer is None:
            first_dealer = ordered[0][0]
        game = Game.objects.create(
            table=table,
            day=day,
            day_date=day.date,
            number=number,
            rule_set=rule_set,
            rules=rules.to_dict(),
            rules_name=rules_name[:80],
            status=Game.Status.PLAYING,
            score_keeper=score_keeper,
            first_dealer=first_dealer,
            started_at=now,
        )
        minimum = engine.initial_meld_minimum(rules, 0)
        game_teams = GameTeam.objects.bulk_create(
            [GameTeam(game=game, index=i, minimum=minimum) for i in range(len(teams))]
        )
        n_teams = len(teams)
        TeamPlayer.objects.bulk_create(
            [
                TeamPlayer(team=game_teams[i], person=person, game=game, seat=i + j * n_teams + 1)
                for i, team in enumerate(ordered)
                for j, person in enumerate(team)
            ]
        )
    return game


def start_game(
    table: Table,
    teams: Sequence[Sequence],
    *,
    rule_set: RuleSet | None = None,
    score_keeper=None,
    first_dealer=None,
    number: int | None = None,
    check_seating: bool = True,
    now=None,
) -> Game:
    """Start a game at a table under a frozen copy of a rule set.

    ``teams`` is a list of teams, each a list of `Person` (in the order of the rule
    set's teams). ``rule_set`` defaults to the one the club day plays (`DayRules`), else
    the club default. Players must be seated at that table in that round, unless
    ``check_seating=False`` (for officers and generated leagues). Raises
    :class:`GameSetupError`.
    """
    if rule_set is None:
        rule_set = rule_set_for_day(table.round.day)
    if rule_set is None:
        raise GameSetupError(
            "No rule set is chosen for this club day and the club has no default; "
            "an officer can choose one on the rule sets page."
        )
    return _start(
        table,
        teams,
        settings_dict=rule_set.settings,
        rules_name=rule_set.name,
        rule_set=rule_set,
        score_keeper=score_keeper,
        first_dealer=first_dealer,
        number=number,
        check_seating=check_seating,
        now=now,
    )


def next_game(
    previous_game: Game,
    teams: Sequence[Sequence],
    *,
    score_keeper=None,
    first_dealer=None,
    check_seating: bool = True,
    now=None,
) -> Game:
    """Start the next game at the same table with new partnerships (see
    :func:`club_partnerships`). It is played under the previous game's rule set as that
    rule set stands now (or the previous game's frozen copy if the rule set is gone)."""
    if previous_game.status != Game.Status.FINISHED:
        raise GameSetupError(
            f"Game {previous_game.number} is still being played; finish it before the next."
        )
    rule_set = previous_game.rule_set
    if rule_set is not None:
        settings_dict, name = rule_set.settings, rule_set.name
    else:
        settings_dict, name = previous_game.rules, previous_game.rules_name
    if score_keeper is None:
        score_keeper = previous_game.score_keeper
        if score_keeper is not None and score_keeper.pk not in {
            p.pk for team in teams for p in team
        }:
            score_keeper = None
    return _start(
        previous_game.table,
        teams,
        settings_dict=settings_dict,
        rules_name=name,
        rule_set=rule_set,
        score_keeper=score_keeper,
        first_dealer=first_dealer,
        number=None,
        check_seating=check_seating,
        now=now,
    )


# ---------------------------------------------------------------------------------------
# Replaying hands: the derived rows from the raw inputs


@dataclass
class _Replay:
    outcomes: list  # one engine.HandOutcome per hand, in order
    scores_before: list  # per hand: the teams' totals before it


def _replay(rules, hand_inputs: Sequence[list], n_teams: int, *, numbers: Sequence[int]):
    """Score every hand in order from 0; raises HandRefused naming the hand at fault, or
    when a hand ends the game while later hands exist."""
    totals = [0] * n_teams
    outcomes, befores = [], []
    for k, inputs in enumerate(hand_inputs):
        outcome = engine.score_hand(rules, inputs, list(totals))
        if not outcome.ok:
            raise HandRefused(
                outcome.errors,
                f"Hand {numbers[k]} cannot be scored: "
                + " ".join(e.message for e in outcome.errors),
            )
        befores.append(list(totals))
        outcomes.append(outcome)
        totals = [t.score_after for t in outcome.teams]
        if outcome.game_over and k < len(hand_inputs) - 1:
            winner = outcome.winner
            later = numbers[k + 1 :]
            later_words = (
                f"hand {later[0]} was" if len(later) == 1 else f"hands {later[0]}–{later[-1]} were"
            )
            raise HandRefused(
                [
                    engine.Refusal(
                        "",
                        f"With this change the game ends at hand {numbers[k]} "
                        f"({rules.team_label(winner)} reaches {totals[winner]:,}), "
                        f"but {later_words} played after it. Check the numbers, or undo "
                        f"the later hands first. Nothing was saved.",
                    )
                ]
            )
    return _Replay(outcomes, befores)


_STAT_FIELDS = [
    "total",
    "minimum",
    "points_against",
    "hands",
    "natural_canastas",
    "mixed_canastas",
    "red_threes",
    "times_out",
    "concealed_outs",
    "perfect_cuts",
    "best_hand",
    "won",
]

_TEAMHAND_FIELDS = [
    "melded_points",
    "natural_canastas",
    "mixed_canastas",
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


def _fill_team_hand(row: TeamHand, result, before: int) -> None:
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
    team.natural_canastas += result.natural_canastas
    team.mixed_canastas += result.mixed_canastas
    team.red_threes += result.red_threes
    if result.went_out in ("out", "concealed"):
        team.times_out += 1
    if result.went_out == "concealed":
        team.concealed_outs += 1
    if result.perfect_cut:
        team.perfect_cuts += 1
    if team.best_hand is None or result.hand_score > team.best_hand:
        team.best_hand = result.hand_score


def _reset_stats(team: GameTeam, rules) -> None:
    team.total = 0
    team.minimum = engine.initial_meld_minimum(rules, 0)
    team.points_against = 0
    team.hands = 0
    team.natural_canastas = team.mixed_canastas = team.red_threes = 0
    team.times_out = team.concealed_outs = team.perfect_cuts = 0
    team.best_hand = None
    team.won = False


def _finish_stats(teams: list[GameTeam], winner: int | None) -> None:
    grand = sum(t.total for t in teams)
    for t in teams:
        t.points_against = grand - t.total
        t.won = winner is not None and t.index == winner


def _score_rows(game, teams, hands, outcomes, befores, existing=None):
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
            _fill_team_hand(row, result, score)
            _add_to_stats(team, result)
    return new, kept


def _close_hands(game, teams, last, now) -> str:
    """After the rows are written: the game's state from its ``last`` hand's outcome
    (None: no hands), the teams' final stats saved. Returns what ratings should hear."""
    over = bool(last and last.game_over)
    winner = last.winner if over else None
    tell = _game_state(game, teams, over, winner, now)
    _finish_stats(teams, winner)
    _save_stats(teams)
    return tell


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


def _save_stats(teams: list[GameTeam]) -> None:
    """Write the teams' running totals. A save per team (two or three rows) is an
    order of magnitude faster than bulk_update's CASE WHEN statement here."""
    for team in teams:
        team.save(update_fields=_STAT_FIELDS)


def _lock_game(game: Game) -> Game:
    return Game.objects.select_for_update(of=("self",)).select_related("table").get(pk=game.pk)


def _game_state(game: Game, teams: list[GameTeam], over: bool, winner, now) -> str:
    """Set the game's status/winner after a change; returns what ratings should hear:
    "finished", "changed" or ""."""
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
        return "finished"
    if was_finished:
        return "changed"
    return ""


def _tell_ratings(game: Game, what: str, *, rate: bool = True) -> None:
    """After a change to a game ("finished", "changed" or ""): listeners (the results
    cache and the ratings, :mod:`scoring.results.receivers`) are told."""
    if what:
        game_result_changed.send(sender=Game, game=game, what=what, rate=rate)


# ---------------------------------------------------------------------------------------
# Failed initial melds in the hand being played

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


def count_failed_meld(game: Game, team_index: int, *, step: int = 1) -> list[int]:
    """A team's failed initial meld in the hand being played (``step=-1`` takes one back):
    its minimum rises by the rule set's increase for the rest of that hand. Returns the
    new counts. Raises :class:`GameClosed` when the game is over."""
    with transaction.atomic():
        locked = _lock_game(game)
        if locked.status == Game.Status.FINISHED:
            raise GameClosed(f"Game {locked.number} at {locked.table} is over.")
        counts = failed_meld_counts(locked)
        if 0 <= team_index < len(counts):
            counts[team_index] = min(max(counts[team_index] + step, 0), MAX_FAILED_MELDS)
            locked.failed_melds = {"hand": locked.hand_count + 1, "counts": counts}
            locked.save(update_fields=["failed_melds"])
        game.failed_melds = locked.failed_melds
        game.hand_count = locked.hand_count
    return counts


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
    now = _now(now)
    if type(number) is not int or number < 1:
        raise HandConflict(None, "The hand number is missing or wrong; reload the page.")
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
    locked = _lock_game(game)
    if locked.status == Game.Status.FINISHED:
        raise GameClosed(
            f"Game {locked.number} at {locked.table} is over; no more hands can be added. "
            f"Start the next game."
        )
    if number <= locked.hand_count:
        existing = (
            Hand.objects.filter(game=locked, number=number).select_related("entered_by").first()
        )
        raise HandConflict(
            existing,
            conflict_message(existing)
            if existing
            else f"Hand {number} was already entered; reload the page.",
        )
    if number != locked.hand_count + 1:
        raise HandConflict(
            None,
            f"Hand {number} cannot be entered yet: the game has {locked.hand_count} "
            f"hand{'s' if locked.hand_count != 1 else ''}, so the next is hand "
            f"{locked.hand_count + 1}. Reload the page.",
        )
    rules = locked.engine_rules()
    teams = list(GameTeam.objects.filter(game=locked).order_by("index"))
    scores_before = [t.total for t in teams]
    outcome = engine.score_hand(rules, inputs, scores_before)
    if not outcome.ok:
        raise HandRefused(outcome.errors)
    order = seat_order(TeamPlayer.objects.filter(game=locked).only("person_id", "seat", "pk"))
    hand = _new_hand(locked, number, inputs, order, user=user, via=via, moment=now)
    _set_history(hand, user, via)
    hand.save()
    rows, _kept = _score_rows(locked, teams, [hand], [outcome], [scores_before])
    TeamHand.objects.bulk_create(rows)
    tell = _close_hands(locked, teams, outcome, now)
    locked.hand_count = number
    locked.version += 1
    locked.failed_melds = {}
    locked.save(
        update_fields=["hand_count", "version", "status", "winner", "finished_at", "failed_melds"]
    )
    _tell_ratings(locked, tell)
    _copy_state(locked, game)
    return hand


def _copy_state(source: Game, target: Game) -> None:
    """Keep the caller's game object in step with the saved row."""
    if source is target:
        return
    for name in ("hand_count", "version", "status", "finished_at", "failed_melds"):
        setattr(target, name, getattr(source, name))
    target.winner = source.winner


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
        raise GameSetupError("Give one time for each hand, and at least one hand.")
    with transaction.atomic():
        locked = _lock_game(game)
        if locked.hand_count or locked.status == Game.Status.FINISHED:
            raise GameSetupError(
                f"Game {locked.number} at {locked.table} already has hands; record the "
                "next ones one by one."
            )
        rules = locked.engine_rules()
        teams = list(GameTeam.objects.filter(game=locked).order_by("index"))
        numbers = list(range(1, len(hand_inputs) + 1))
        replay = _replay(rules, hand_inputs, len(teams), numbers=numbers)
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
            _reset_stats(team, rules)
        rows, _kept = _score_rows(locked, teams, hands, replay.outcomes, replay.scores_before)
        TeamHand.objects.bulk_create(rows)
        tell = _close_hands(locked, teams, replay.outcomes[-1], times[-1])
        locked.hand_count = numbers[-1]
        locked.version += len(numbers)
        locked.save(update_fields=["hand_count", "version", "status", "winner", "finished_at"])
        _tell_ratings(locked, tell, rate=rate)
        _copy_state(locked, game)
    return hands


# ---------------------------------------------------------------------------------------
# Corrections, undo, rebuild


def _recompute(game: Game, hands: list[Hand], now) -> tuple[str, list[GameTeam]]:
    """Rescore ``hands`` (every hand of the game, in order, with their inputs as they
    should be) and rewrite TeamHand rows, team totals and the game's state. Raises
    HandRefused (nothing written) if any hand is refused or the game would end early."""
    rules = game.engine_rules()
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    replay = _replay(
        rules, [h.inputs for h in hands], len(teams), numbers=[h.number for h in hands]
    )
    existing = {(row.hand_id, row.team_id): row for row in TeamHand.objects.filter(game=game)}
    for team in teams:
        _reset_stats(team, rules)
    to_create, to_update = _score_rows(
        game, teams, hands, replay.outcomes, replay.scores_before, existing
    )
    keep = {row.pk for row in to_update}
    stale = [row.pk for row in existing.values() if row.pk not in keep]
    if stale:
        TeamHand.objects.filter(pk__in=stale).delete()
    if to_update:
        TeamHand.objects.bulk_update(to_update, _TEAMHAND_FIELDS)
    if to_create:
        TeamHand.objects.bulk_create(to_create)
    tell = _close_hands(game, teams, replay.outcomes[-1] if replay.outcomes else None, now)
    game.hand_count = hands[-1].number if hands else 0
    return tell, teams


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
    now = _now(now)
    with transaction.atomic():
        game = _lock_game(hand.game)
        current = (
            Hand.objects.select_for_update(of=("self",))
            .select_related("entered_by")
            .filter(pk=hand.pk)
            .first()
        )
        if current is None:
            raise StaleEdit(
                None,
                f"Hand {hand.number} was undone on another device after you opened it; "
                f"nothing was saved.",
            )
        if type(expected_version) is not int or current.version != expected_version:
            raise StaleEdit(
                current,
                f"Hand {current.number} was changed after you opened it (by "
                f"{_last_editor(current)} at {_time_words(current.updated_at)}). Your "
                f"changes were not saved; they are still in the form below. Check the "
                f"hand as it is now, then save again to replace it.",
            )
        rules = game.engine_rules()
        # Check the corrected hand alone first, so its refusals name its own fields.
        befores = TeamHand.objects.filter(hand=current).order_by("team__index")
        scores_before = [row.score_before for row in befores]
        outcome = engine.score_hand(rules, inputs, scores_before or None)
        if not outcome.ok:
            raise HandRefused(outcome.errors)
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        for h in hands:
            if h.pk == current.pk:
                h.inputs = copy.deepcopy(inputs)
        tell, _teams = _recompute(game, hands, now)
        current.inputs = copy.deepcopy(inputs)
        current.version += 1
        current.updated_at = now
        reason = via or (f"corrected by {_user_name(user)}" if user else "corrected")
        _set_history(current, user, reason)
        current.save(update_fields=["inputs", "version", "updated_at"])
        game.version += 1
        game.save(update_fields=["hand_count", "version", "status", "winner", "finished_at"])
        _tell_ratings(game, tell)
        _copy_state(game, hand.game)
    return current


def _user_name(user) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return "a table link"
    return user.get_full_name() or user.get_username()


def _last_editor(hand: Hand) -> str:
    last = hand.history.order_by("-history_date").select_related("history_user").first()
    if last is None:
        return who_entered(hand)
    if last.history_user_id:
        return _user_name(last.history_user)
    return last.history_change_reason or "another device"


def undo_last_hand(
    game: Game, *, expected_hand_count: int, user=None, via: str = "", now=None
) -> Hand:
    """Delete the game's last hand (the history keeps it) and recompute; a finished game
    is re-opened. ``expected_hand_count`` is the number of hands the device saw: if
    another hand was saved or undone since, :class:`StaleEdit` and nothing changes.
    Returns the deleted hand (no longer in the database)."""
    now = _now(now)
    with transaction.atomic():
        locked = _lock_game(game)
        if locked.hand_count == 0:
            raise StaleEdit(None, "There is no hand to undo.")
        if type(expected_hand_count) is not int or locked.hand_count != expected_hand_count:
            raise StaleEdit(
                None,
                f"The game now has {locked.hand_count} hands, not {expected_hand_count}: "
                f"another device changed it. Nothing was undone; look at the hands again.",
            )
        hands = list(Hand.objects.filter(game=locked).order_by("number"))
        last = hands.pop()
        reason = via or (f"undone by {_user_name(user)}" if user else "undone")
        _set_history(last, user, reason)
        last.delete()
        tell, _teams = _recompute(locked, hands, now)
        locked.version += 1
        locked.failed_melds = {}
        locked.save(
            update_fields=[
                "hand_count",
                "version",
                "status",
                "winner",
                "finished_at",
                "failed_melds",
            ]
        )
        _tell_ratings(locked, tell)
        _copy_state(locked, game)
    return last


def rebuild_game(game: Game, *, now=None) -> Game:
    """Recompute every derived row of a game (TeamHand, GameTeam, Game state) from the
    stored inputs. Raises HandRefused if a stored hand no longer scores."""
    now = _now(now)
    with transaction.atomic():
        locked = _lock_game(game)
        hands = list(Hand.objects.filter(game=locked).order_by("number"))
        tell, _teams = _recompute(locked, hands, now)  # a finished game keeps its finish time
        locked.save(update_fields=["hand_count", "status", "winner", "finished_at"])
        # The inputs did not change: ratings are redone only for a game that now ends.
        _tell_ratings(locked, tell, rate=tell == "finished")
        _copy_state(locked, game)
    return locked


# ---------------------------------------------------------------------------------------
# Reading: scores before the next hand, for previews


def preview_hand(game: Game, inputs: list[dict], *, number: int | None = None):
    """Score ``inputs`` as hand ``number`` (default: the next hand) without saving;
    returns (engine.HandOutcome, scores_before)."""
    rules = game.engine_rules()
    if number is None or number > game.hand_count:
        scores_before = [t.total for t in GameTeam.objects.filter(game=game).order_by("index")]
    else:
        scores_before = list(
            TeamHand.objects.filter(hand__game=game, hand__number=number)
            .order_by("team__index")
            .values_list("score_before", flat=True)
        )
    return engine.score_hand(rules, inputs, scores_before or None), scores_before
