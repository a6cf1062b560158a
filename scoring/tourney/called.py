"""What "time called" does to a table's game in an event, as the club chose
(``Event.time_called``). Once the round's time is called a table may save one more
hand, the hand in play, and then its game ends as it stands (the side ahead wins; a
level game waits for the end of the round, where it counts as a draw). No new hand
is started after it:

- **finish the hand in play**: the hand is played out as usual, and a side that goes
  out scores its going-out bonus;
- **score at time**: play stops at once and the hand counts as it lies, melds and
  cards in hand: nobody goes out in it, so nobody gets a going-out bonus for it.

Once the director ends the round its games take no hand at all (the director can still
correct them); a pause that begins after time was called does not undo the call.

The play services ask here through their signals (``saving_hand`` and
``starting_next_game`` of :mod:`scoring.signals`, which
:class:`scoring.tourney.apps.TourneyConfig` connects to), only about a game of a day
that has an event (``ClubDay.has_event``, read with the game's lock): a hand of an
ordinary club day makes no query for events. A hand that ended before time was called but is entered
after it is the hand in play for this purpose: scoring at time, its going out is
refused unless the players tick "This hand ended before time was called", and then it
counts as it was played (the truth is never refused; the director can still correct
it, corrections do not come here).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring import engine
from scoring.models import Game, Hand
from scoring.play.services.errors import GameClosed, GameSetupError, HandRefused
from scoring.tourney.models import Event, EventRound
from scoring.tourney.timing import TIME_CALLED, RoundClock

#: A team's ``went_out`` values that mean it did not go out.
NOT_OUT = (None, "", "none")


@dataclass(frozen=True)
class Called:
    """Time is called in the event round a game belongs to (``ended``: the director
    has ended the round, so its games take no more hands)."""

    policy: str  # Event.TimeCalled
    deadline: dt.datetime
    round_number: int
    ended: bool = False


def time_called(game: Game, now: dt.datetime) -> Called | None:
    """Whether time is called now in the event round ``game`` is played in (None: it
    is not, or the game is not an event's: one query). A round the director has ended
    counts as called (and ended); so does a round paused after its time was called:
    the pause holds the clock, it does not give the tables their time back."""
    row = (
        EventRound.objects.filter(round__tables__games=game)
        .select_related("event")
        .only(
            "number",
            "started_at",
            "paused_at",
            "paused_seconds",
            "shift_seconds",
            "ended_at",
            "event__round_minutes",
            "event__time_called",
        )
        .first()
    )
    if row is None or row.started_at is None:
        return None
    clock = RoundClock(
        minutes=row.event.round_minutes,
        started_at=row.started_at,
        paused_at=row.paused_at,
        paused_seconds=row.paused_seconds,
        shift_seconds=row.shift_seconds,
    )
    if row.ended_at is not None and row.ended_at <= now:
        deadline = clock.deadline(row.paused_at or row.ended_at)
        return Called(row.event.time_called, min(deadline, row.ended_at), row.number, ended=True)
    if row.paused_at is not None:
        # Paused: called only if the pause began once time was already called.
        deadline = clock.deadline(row.paused_at)
        if deadline > row.paused_at:
            return None
        return Called(row.event.time_called, deadline, row.number)
    if clock.state(now) != TIME_CALLED:
        return None
    return Called(row.event.time_called, clock.deadline(now), row.number)


def check_hand(game: Game, inputs: list, called: Called, *, confirmed: bool = False) -> None:
    """Refuse a hand that the club's choice does not allow once time is called: a
    hand after the hand in play, any hand once the round has ended, or, scoring at
    time, a going out, unless the players confirm (``confirmed``) that the hand ended
    before time was called: it then counts as it was played."""
    if called.ended:
        raise GameClosed(
            _(
                "Round %(number)s is over: the director has ended it, so no hand can be "
                "added to its games. If a hand is missing or wrong, tell the director, "
                "who can still correct this game."
            )
            % {"number": called.round_number}
        )
    # Every hand of the table's round: a game started there after the one of the round
    # (by an officer, or before the next game was refused) takes no hand either.
    if Hand.objects.filter(game__table_id=game.table_id, created_at__gte=called.deadline).exists():
        raise GameClosed(
            _(
                "Time was called and this table has saved the hand in play: the game is "
                "over for this round, so no new hand can be entered. When the director "
                "ends the round, this page says where you go."
            )
        )
    if called.policy != Event.TimeCalled.AT_TIME or confirmed:
        # Confirmed: the hand ended before time was called, so it counts as played
        # (a going out scores its bonus), and the game ends with it.
        return
    refusals = [
        engine.Refusal(
            f"teams[{i}].went_out",
            _(
                "Time was called, so the hand in play counts as it lies: nobody goes out "
                "and nobody gets the going-out bonus. Set “Went out” to “No” and enter "
                "what each side has melded and holds. If this hand really ended before "
                "time was called, tick “This hand ended before time was called” and save "
                "again: it counts as it was played."
            ),
        )
        for i, team in enumerate(inputs)
        if isinstance(team, dict) and team.get("went_out") not in NOT_OUT
    ]
    if refusals:
        raise HandRefused(refusals[:1], confirm=_("This hand ended before time was called"))


def hand_check(sender, *, game: Game, inputs: list, now: dt.datetime, confirmed=False, **kwargs):
    """The receiver of ``saving_hand`` (:mod:`scoring.signals`): nothing for a game of a
    day without an event; else the checks above once time is called, and True: the game
    ends as it stands once the hand is saved."""
    if not getattr(game, "event_day", False):
        return False
    called = time_called(game, now)
    if called is None:
        return False
    check_hand(game, inputs, called, confirmed=confirmed)
    return True


def next_game_check(sender, *, previous: Game, **kwargs) -> None:
    """The receiver of ``starting_next_game`` (:mod:`scoring.signals`): a table of an
    event's round plays one game a round, so no next game starts there; when the
    director ends the round the table page says where each player goes."""
    table = previous.table
    if not table.round.day.has_event:
        return
    row = EventRound.objects.filter(round_id=table.round_id).only("number").first()
    if row is None:
        return
    raise GameSetupError(
        _(
            "%(table)s plays round %(number)s of the event: one game a round, so no next "
            "game starts here. When the director ends the round, the table page says "
            "where each of you goes next."
        )
        % {"table": table, "number": row.number}
    )
