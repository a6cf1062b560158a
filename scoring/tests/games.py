"""Games and hands for tests, made only through the play services.

Never write `Game`, `GameTeam` or `Hand` rows by hand: the services keep the totals the
results pages read, so a test built this way checks the numbers the club would really
see. The services tell `scoring.results.ratings` about finished games "on commit"; these
helpers run those callbacks at once (tests run inside a transaction that never commits).

The stored rows around a game (people, club days, tables, seats) come from
`members.tests.factories`; the hands from `scoring.tests.samples`.
"""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Sequence

from django.test import TestCase
from django.utils import timezone

from members.models import Person, Table
from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand
from scoring.tests.samples import CONCEALED, LOSE, WIN

_clock = itertools.count(1)


def moment(day) -> datetime.datetime:
    """Distinct, increasing times on the club day (so finished_at orders games)."""
    tick = next(_clock)
    base = datetime.datetime.combine(day.date, datetime.time(12, 0))
    return timezone.make_aware(base + datetime.timedelta(seconds=tick))


def play(
    tbl: Table,
    teams: Sequence[Sequence[Person]],
    hands: Sequence[Sequence[dict]],
    *,
    on_the_day: bool = True,
    **options,
):
    """Start a game at ``tbl`` with ``teams`` (``options`` go to ``start_game``: rule
    set, score keeper, first dealer) and record ``hands``, each a list of one team dict
    per team. With ``on_the_day`` the game is played at moments of the table's club
    day; without it, at the services' own clock (now)."""
    day = tbl.round.day

    def when():
        return {"now": moment(day)} if on_the_day else {}

    with TestCase.captureOnCommitCallbacks(execute=True):
        game = start_game(tbl, [list(t) for t in teams], **options, **when())
    for inputs in hands:
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_hand(game, [dict(i) for i in inputs], number=game.hand_count + 1, **when())
    game.refresh_from_db()
    return game


def win(tbl: Table, winners: Sequence[Person], losers: Sequence[Person], hands: int = 3):
    """A finished game: ``winners`` score WIN every hand, ``losers`` LOSE. Three hands
    (the default) end it at 5,700 to 450."""
    return play(tbl, [winners, losers], [[WIN, LOSE]] * hands)


def people(n: int, prefix: str = "P") -> list[Person]:
    """``n`` members named ``<prefix>01 Player``, ``<prefix>02 Player``, ... (the
    results pages sort by name, so the order is known)."""
    return [
        MemberFactory(first_name=f"{prefix}{i:02d}", last_name="Player") for i in range(1, n + 1)
    ]


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
        pool = [_foursome(i) for i in range(tables)]
    for d in range(days):
        date = start + datetime.timedelta(days=7 * d)
        everyone = [p for group in pool for p in group]
        day = ClubDayFactory(date=date, title=f"Week {d + 1}", signed_in=everyone)
        for t, (a, b, c, g) in enumerate(pool):
            tbl = TableFactory(round__day=day, number=t + 1, seated=[a, b, c, g])
            pairings = [([a, c], [b, g]), ([a, b], [c, g]), ([a, g], [b, c])]
            for n in range(games):
                first, second = pairings[(d + n) % 3]
                winners, losers = (first, second) if (d + n + t) % 2 == 0 else (second, first)
                play(tbl, [winners, losers], [[CONCEALED, LOSE], [WIN, LOSE], [WIN, LOSE]])
    return pool


def _foursome(i: int) -> list[Person]:
    """Three members and a guest (brought by nobody on record) for table ``i``."""
    members = [
        MemberFactory(first_name=f"M{i}{k}", last_name=f"Member{i}{k}", name_only=True)
        for k in range(3)
    ]
    return members + [GuestFactory(first_name=f"G{i}", last_name=f"Guest{i}", brought_by=None)]
