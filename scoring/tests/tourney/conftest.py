"""An event's world: today's club day with tables of four seated by the door's draw
(20 players at 5 tables by default), the club's rule set, and helpers that play a
round's games through the play services."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.utils import timezone

from members.tests.factories import ClubDayFactory, MemberFactory, SignInFactory, TableFactory
from scoring.models import Game, RuleSet
from scoring.play.services.hands import record_hand
from scoring.tests.samples import BIG, LOSE, SMALL, WIN
from scoring.tourney.services.setup import create_event

_keys = itertools.count(1)

START = dt.datetime(2026, 11, 28, 19, 0, tzinfo=dt.UTC)


def key() -> str:
    """A fresh form key (as a drawn form carries)."""
    return f"test-key-{next(_keys):08d}-abcdef"


def seat_day(day, tables: int):
    """``tables`` tables of four in round 1, everyone signed in; the people in seat order."""
    from members.tests.factories import RoundFactory

    round1 = RoundFactory(day=day, number=1)
    people = []
    for t in range(1, tables + 1):
        four = [
            MemberFactory(first_name=f"P{t}{s}", last_name=f"T{t}", membership_number=f"{t}{s}0")
            for s in range(1, 5)
        ]
        TableFactory(round=round1, number=t, seated=four)
        for person in four:
            SignInFactory(day=day, person=person)
        people.extend(four)
    return people


@pytest.fixture
def day(db):
    return ClubDayFactory(date=timezone.localdate(), title="Spring pairs")


@pytest.fixture
def rules(db):
    return RuleSet.objects.get(slug="club")


@pytest.fixture
def seated(day):
    return seat_day(day, 5)


@pytest.fixture
def event(day, rules, seated):
    return create_event(day, name="Spring pairs", rounds=3, round_minutes=50, rule_set=rules)


def play_round(event_round, *, winners=None, now=None):
    """One hand at each table of the round: side 0 wins with ``WIN`` against ``LOSE``
    (1,900 to 150) unless ``winners`` says side 1 wins at that table number; a table in
    ``winners`` with ``"small"`` plays ``BIG`` against ``SMALL`` (1,400 to 80). The
    hands are saved at ``now``: by default a minute into the round (not later than
    now), before its time is called."""
    winners = winners or {}
    if now is None and event_round.started_at is not None:
        now = min(event_round.started_at + dt.timedelta(minutes=1), timezone.now())
    games = Game.objects.filter(table__round_id=event_round.round_id).select_related("table")
    for game in games:
        how = winners.get(game.table.number, 0)
        hands = {0: [WIN, LOSE], 1: [LOSE, WIN], "small": [BIG, SMALL]}[how]
        record_hand(game, hands, number=1, now=now)
