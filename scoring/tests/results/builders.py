"""Test data for the results pages, built through the real services.

Games are started and scored with `scoring.play.services` (never by writing `GameTeam`
totals by hand), so the tests check the numbers the club would really see. The
services tell `scoring.results.ratings` about finished games "on commit"; the builders run those
callbacks at once (tests run inside a transaction that never commits).

Hand shapes (club rules, worked out with the engine):

- ``WIN``: 400 melded + 2 natural (1,000) + 1 mixed (300) + 1 red three (100) + out
  (100) = **1,900**; with ``LOSE`` alongside, three of them end a game (5,700).
- ``LOSE``: 200 melded − 50 left in hand = **150**.
- ``BIG``: ``WIN`` gone out concealed (200) with four red threes (800) and a perfect cut
  (100) = **2,800**.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Sequence

from django.test import TestCase
from django.utils import timezone

from members.models import ClubDay, Person, Round, Seat, SignIn, Table
from scoring.play import services

WIN = {
    "melded_points": 400,
    "natural_canastas": 2,
    "mixed_canastas": 1,
    "red_threes": 1,
    "went_out": "out",
    "hand_points": 0,
}
LOSE = {
    "melded_points": 200,
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "red_threes": 0,
    "went_out": "none",
    "hand_points": 50,
}
BIG = dict(WIN, went_out="concealed", red_threes=4, perfect_cut=True)
WIN_SCORE, LOSE_SCORE, BIG_SCORE = 1900, 150, 2800

_numbers = itertools.count(5000)
_clock = itertools.count(1)


def person(first: str, last: str = "", *, guest: bool = False, **extra) -> Person:
    if guest:
        return Person.objects.create(
            kind=Person.Kind.GUEST, first_name=first, last_name=last, **extra
        )
    extra.setdefault("membership_number", str(next(_numbers)))
    return Person.objects.create(kind=Person.Kind.MEMBER, first_name=first, last_name=last, **extra)


def people(n: int, prefix: str = "P") -> list[Person]:
    return [person(f"{prefix}{i:02d}", "Player") for i in range(1, n + 1)]


def club_day(date: datetime.date, title: str = "", sign_in: Sequence[Person] = ()) -> ClubDay:
    day = ClubDay.objects.create(date=date, title=title)
    for p in sign_in:
        SignIn.objects.create(day=day, person=p, card_shown=not p.is_guest)
    return day


def table(day: ClubDay, seated: Sequence[Person], number: int = 1, round_number: int = 1) -> Table:
    """A table of ``day`` with ``seated`` at positions 1, 2, 3, 4 (one round each)."""
    rnd, _ = Round.objects.get_or_create(day=day, number=round_number)
    tbl = Table.objects.create(round=rnd, number=number)
    for position, p in enumerate(seated, start=1):
        Seat.objects.create(round=rnd, table=tbl, person=p, position=position)
    return tbl


def _moment(day: ClubDay) -> datetime.datetime:
    """Distinct, increasing times on the club day (so finished_at orders games)."""
    tick = next(_clock)
    base = datetime.datetime.combine(day.date, datetime.time(12, 0))
    return timezone.make_aware(base + datetime.timedelta(seconds=tick))


def play(tbl: Table, teams: Sequence[Sequence[Person]], hands: Sequence[Sequence[dict]]):
    """Start a game at ``tbl`` with ``teams`` and record ``hands`` (each a list of one
    input dict per team) through the services; rating callbacks run at once."""
    day = tbl.round.day
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = services.start_game(tbl, [list(t) for t in teams], now=_moment(day))
    for inputs in hands:
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.record_hand(
                game, [dict(i) for i in inputs], number=game.hand_count + 1, now=_moment(day)
            )
    game.refresh_from_db()
    return game


def win(tbl: Table, winners: Sequence[Person], losers: Sequence[Person], hands: int = 3):
    """A finished game: ``winners`` score WIN every hand, ``losers`` LOSE. Three hands
    (the default) end it at 5,700 to 450."""
    return play(tbl, [winners, losers], [[WIN, LOSE]] * hands)


def league(
    days: int = 2,
    tables: int = 2,
    games: int = 2,
    start=datetime.date(2025, 3, 6),
    pool: list[list[Person]] | None = None,
):
    """A small league: ``days`` weekly club days from ``start``, ``tables`` tables of
    four each day, ``games`` games per table with partners rotating, a guest at every
    table, sign-ins, a big hand with four red threes in every game. ``pool`` (the
    groups of four of an earlier call) plays on with the same people. Returns the
    pool."""
    if pool is None:
        pool = []
        for i in range(tables):
            pool.append(
                [person(f"M{i}{k}", f"Member{i}{k}") for k in range(3)]
                + [person(f"G{i}", f"Guest{i}", guest=True)]
            )
    tables = len(pool)
    for d in range(days):
        date = start + datetime.timedelta(days=7 * d)
        day = club_day(date, f"Week {d + 1}", sign_in=[p for group in pool for p in group])
        for t in range(tables):
            a, b, c, g = pool[t]
            tbl = table(day, [a, b, c, g], number=t + 1)
            pairings = [([a, c], [b, g]), ([a, b], [c, g]), ([a, g], [b, c])]
            for n in range(games):
                first, second = pairings[(d + n) % 3]
                winners, losers = (first, second) if (d + n + t) % 2 == 0 else (second, first)
                play(tbl, [winners, losers], [[BIG, LOSE], [WIN, LOSE], [WIN, LOSE]])
    return pool
