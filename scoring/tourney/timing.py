"""The clock of an event's round, worked out from stored moments with the time passed
in: pure (no Django, no database, never reads the time itself).

A round starts at ``started_at`` and lasts ``minutes``; the officer's pauses add their
length (``paused_seconds``, plus the pause going on now), the minutes they add or take
off move the end (``shift_seconds``). The deadline is the moment time is called; the
room board's countdown runs in the browser from it. Later rounds shift with it: each
starts ``move_minutes`` after the one before ends (:func:`schedule`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

WAITING = "waiting"  # seated, not started
PLAYING = "playing"
WARNING = "warning"  # the last warning minutes
TIME_CALLED = "time_called"
PAUSED = "paused"
ENDED = "ended"


@dataclass(frozen=True)
class RoundClock:
    minutes: int
    started_at: dt.datetime | None = None
    paused_at: dt.datetime | None = None
    paused_seconds: int = 0
    shift_seconds: int = 0
    ended_at: dt.datetime | None = None

    def deadline(self, now: dt.datetime) -> dt.datetime | None:
        """When time is called (a pause going on pushes it on while it lasts)."""
        if self.started_at is None:
            return None
        seconds = self.minutes * 60 + self.shift_seconds + self.paused_seconds
        if self.paused_at is not None:
            seconds += max(0, int((now - self.paused_at).total_seconds()))
        return self.started_at + dt.timedelta(seconds=seconds)

    def remaining(self, now: dt.datetime) -> int:
        """Whole seconds until time is called (0 once called or ended; before the
        start, the round's whole length)."""
        if self.ended_at is not None:
            return 0
        if self.started_at is None:
            return self.minutes * 60 + self.shift_seconds
        left = (self.deadline(now) - now).total_seconds()
        return max(0, int(left + 0.999))  # 59.2 s left shows as 1:00, not 0:59

    def state(self, now: dt.datetime, warning_minutes: int = 0) -> str:
        if self.ended_at is not None:
            return ENDED
        if self.started_at is None:
            return WAITING
        if self.paused_at is not None:
            return PAUSED
        left = self.remaining(now)
        if left <= 0:
            return TIME_CALLED
        if left <= warning_minutes * 60:
            return WARNING
        return PLAYING


def pause(clock: RoundClock, now: dt.datetime) -> RoundClock:
    """The clock paused at ``now`` (a paused clock stays as it is)."""
    if clock.paused_at is not None:
        return clock
    return replace(clock, paused_at=now)


def resume(clock: RoundClock, now: dt.datetime) -> RoundClock:
    """The clock running again: the pause's length moves the deadline on."""
    if clock.paused_at is None:
        return clock
    gone = max(0, int((now - clock.paused_at).total_seconds()))
    return replace(clock, paused_at=None, paused_seconds=clock.paused_seconds + gone)


def shift(clock: RoundClock, seconds: int, now: dt.datetime) -> RoundClock:
    """The deadline moved by ``seconds`` (a minute more: 60; a minute less: -60).
    Refused (``ValueError``) when it would call time before ``now``."""
    moved = replace(clock, shift_seconds=clock.shift_seconds + seconds)
    if seconds < 0 and clock.started_at is not None and moved.remaining(now) <= 0:
        raise ValueError("less left than that")
    if moved.minutes * 60 + moved.shift_seconds <= 0:
        raise ValueError("a round needs some time")
    return moved


def schedule(
    deadline: dt.datetime, number: int, rounds: int, round_minutes: int, move_minutes: int
) -> list[tuple[int, dt.datetime, dt.datetime]]:
    """The rounds after ``number`` as (number, start, end), each starting
    ``move_minutes`` after the one before ends: a minute added to round ``number``
    shifts every later one."""
    out = []
    end = deadline
    for later in range(number + 1, rounds + 1):
        start = end + dt.timedelta(minutes=move_minutes)
        end = start + dt.timedelta(minutes=round_minutes)
        out.append((later, start, end))
    return out


def clock_words(seconds: int) -> str:
    """ "12:05" for 725 seconds; "1:02:05" past an hour."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
