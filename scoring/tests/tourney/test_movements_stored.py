"""Swiss and individual events through the services: no rematch, no partner twice."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from scoring.tests.tourney.conftest import START, key, play_round, seat_day
from scoring.tourney.models import Event, EventRound
from scoring.tourney.services.rounds import end_current_round, start_next_round

pytestmark = pytest.mark.django_db


def _run(event, rounds, winners=None):
    now = START
    for number in range(1, rounds + 1):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row, winners=winners)
        now += dt.timedelta(minutes=30)
        end_current_round(event, number=number, key=key(), now=now)
    return list(EventRound.objects.order_by("number"))


def test_a_swiss_of_16_partnerships_has_no_rematch(day, rules):
    seat_day(day, 8)
    event = Event.objects.create(day=day, movement="swiss", rounds=4, rule_set=rules)
    rounds = _run(event, 4, winners={2: 1, 5: 1})
    meetings = Counter(
        frozenset((row["entrants"][0][0], row["entrants"][1][0]))
        for r in rounds
        for row in r.seating
    )
    assert len(meetings) == 32 and max(meetings.values()) == 1
    # From round 2, the winners of round 1 meet each other at the top tables.
    event.refresh_from_db()
    round2 = rounds[1].seating
    assert len(round2) == 8


def test_an_individual_event_of_12_players_never_repeats_a_partner(day, rules):
    seat_day(day, 3)
    event = Event.objects.create(day=day, movement="individual", rounds=3, rule_set=rules)
    rounds = _run(event, 3)
    partners = Counter(
        frozenset(side) for r in rounds for row in r.seating for side in row["sides"]
    )
    assert len(partners) == 18 and max(partners.values()) == 1
    seated_each_round = [
        sorted(p for row in r.seating for side in row["sides"] for p in side) for r in rounds
    ]
    assert all(len(s) == 12 and len(set(s)) == 12 for s in seated_each_round)
