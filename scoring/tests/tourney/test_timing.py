"""The clock's arithmetic with the time passed in (pure: no database)."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.tourney import timing
from scoring.tourney.timing import RoundClock

T0 = dt.datetime(2026, 11, 28, 19, 0, tzinfo=dt.UTC)


def at(minutes=0, seconds=0):
    return T0 + dt.timedelta(minutes=minutes, seconds=seconds)


def test_the_countdown_runs_from_the_start():
    clock = RoundClock(minutes=50, started_at=T0)
    assert clock.remaining(at(0)) == 3000
    assert clock.remaining(at(49, 30)) == 30
    assert clock.state(at(39), warning_minutes=10) == timing.PLAYING
    assert clock.state(at(40), warning_minutes=10) == timing.WARNING
    assert clock.state(at(50), warning_minutes=10) == timing.TIME_CALLED
    assert clock.remaining(at(55)) == 0


def test_a_pause_stops_the_countdown_and_moves_the_deadline():
    clock = timing.pause(RoundClock(minutes=50, started_at=T0), at(10))
    assert clock.state(at(20)) == timing.PAUSED
    assert clock.remaining(at(20)) == 40 * 60  # frozen while paused
    assert clock.deadline(at(20)) == at(60)
    clock = timing.resume(clock, at(20))
    assert clock.paused_seconds == 600 and clock.paused_at is None
    assert clock.deadline(at(30)) == at(60)
    assert clock.remaining(at(30)) == 30 * 60


def test_pausing_twice_or_resuming_a_running_clock_changes_nothing():
    clock = timing.pause(RoundClock(minutes=50, started_at=T0), at(10))
    assert timing.pause(clock, at(15)) == clock
    running = RoundClock(minutes=50, started_at=T0)
    assert timing.resume(running, at(15)) == running


def test_minutes_added_or_taken_off_move_time_called_and_later_rounds():
    clock = timing.shift(RoundClock(minutes=50, started_at=T0), 60, at(5))
    assert clock.deadline(at(5)) == at(51)
    later = timing.schedule(clock.deadline(at(5)), 1, 3, 50, 5)
    assert later == [(2, at(56), at(106)), (3, at(111), at(161))]
    clock = timing.shift(clock, -120, at(5))
    assert clock.deadline(at(5)) == at(49)


def test_a_minute_cannot_be_taken_off_the_last_minute():
    clock = RoundClock(minutes=50, started_at=T0)
    with pytest.raises(ValueError):
        timing.shift(clock, -60, at(49, 10))


def test_an_ended_round_has_no_time_left_and_a_seated_one_its_whole_length():
    assert RoundClock(minutes=50, started_at=T0, ended_at=at(30)).remaining(at(31)) == 0
    assert RoundClock(minutes=50).state(at(0)) == timing.WAITING
    assert RoundClock(minutes=50).remaining(at(0)) == 3000


def test_clock_words():
    assert timing.clock_words(725) == "12:05"
    assert timing.clock_words(3725) == "1:02:05"
    assert timing.clock_words(-5) == "0:00"


def test_the_clock_and_the_seating_know_nothing_of_django_nor_read_the_time():
    """timing.py and seating.py are pure: the time is passed in, never read."""
    import ast
    from pathlib import Path

    import scoring.tourney

    folder = Path(scoring.tourney.__file__).parent
    for name in ("timing.py", "seating.py"):
        tree = ast.parse((folder / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                modules = [node.module] if isinstance(node, ast.ImportFrom) else []
                modules += [a.name for a in node.names] if isinstance(node, ast.Import) else []
                for module in filter(None, modules):
                    assert module.split(".")[0] != "django", (name, module)
                    assert not module.startswith(("members", "scoring.models")), (name, module)
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("now", "utcnow", "today", "time"), (name, node.attr)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "Se ha cantado el tiempo: dejen de jugar."),
        ("pt-br", "O tempo acabou: parem de jogar."),
    ],
)
def test_time_called_is_said_in_the_readers_language(language, words):
    from django.utils import translation

    from scoring.tourney.words import time_called_words

    with translation.override(language):
        assert time_called_words("at_time").startswith(words)
