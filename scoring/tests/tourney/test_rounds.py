"""The rounds of an event through the services: round 1 from the tables as seated, the
games started through the play services, a round's end seats the next by the
movement, double taps count once."""

from __future__ import annotations

import datetime as dt

import pytest

from members.models import Seat
from scoring.models import Game
from scoring.tests.tourney.conftest import START, key, play_round
from scoring.tourney.models import ClockAction, EventRound
from scoring.tourney.services.errors import AlreadyDone, EventRefused
from scoring.tourney.services.rounds import end_current_round, start_next_round

pytestmark = pytest.mark.django_db


def test_round_one_starts_a_game_at_every_table_as_seated(event, seated):
    row = start_next_round(event, number=1, key=key(), now=START)
    assert row.number == 1 and row.started_at == START
    games = Game.objects.filter(table__round_id=row.round_id).order_by("table__number")
    assert games.count() == 5
    first = games[0]
    teams = [sorted(t.players.values_list("pk", flat=True)) for t in first.teams.order_by("index")]
    p = [x.pk for x in seated[:4]]
    assert teams == [sorted([p[0], p[2]]), sorted([p[1], p[3]])]
    event.refresh_from_db()
    assert len(event.entrants) == 10 and event.version == 1


def test_a_double_tap_on_start_starts_once(event):
    same = key()
    start_next_round(event, number=1, key=same, now=START)
    with pytest.raises(AlreadyDone):
        start_next_round(event, number=1, key=same, now=START)
    assert EventRound.objects.count() == 1 and Game.objects.count() == 5
    assert ClockAction.objects.count() == 1


def test_starting_again_with_a_new_key_is_refused_in_words(event):
    start_next_round(event, number=1, key=key(), now=START)
    with pytest.raises(EventRefused, match="already started"):
        start_next_round(event, number=1, key=key(), now=START)
    assert ClockAction.objects.count() == 1  # the refused one left nothing


def test_a_table_of_three_is_refused_with_what_to_do(event, seated):
    Seat.objects.filter(person=seated[-1]).delete()
    with pytest.raises(EventRefused, match="Table 5 has 3 players"):
        start_next_round(event, number=1, key=key(), now=START)
    assert not EventRound.objects.exists() and not Game.objects.exists()


def test_too_many_mitchell_rounds_are_refused(event):
    event.rounds = 6
    event.save()
    with pytest.raises(EventRefused, match="at most 5 rounds"):
        start_next_round(event, number=1, key=key(), now=START)


def _run(event, rounds):
    now = START
    for number in range(1, rounds + 1):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row)
        now += dt.timedelta(minutes=50)
        end_current_round(event, number=number, key=key(), now=now)
        now += dt.timedelta(minutes=5)
    return list(EventRound.objects.order_by("number"))


def test_a_mitchell_keeps_north_south_and_moves_east_west_up(event):
    rounds = _run(event, 3)
    assert [r.number for r in rounds] == [1, 2, 3]
    event.refresh_from_db()
    assert event.finished_at is not None
    ns = {e["number"]: frozenset(e["people"]) for e in event.entrants if e["line"] == "ns"}
    ew = {e["number"]: frozenset(e["people"]) for e in event.entrants if e["line"] == "ew"}
    met = set()
    for r in rounds:
        for row in r.seating:
            side_ns, side_ew = (frozenset(s) for s in row["sides"])
            assert side_ns == ns[row["table"]]  # North–South stay
            ew_number = next(n for n, p in ew.items() if p == side_ew)
            assert row["table"] == (ew_number + r.number - 2) % 5 + 1  # East–West move up
            pair = (row["table"], ew_number)
            assert pair not in met
            met.add(pair)
    # Every game was played at the table the movement said, and each ended.
    assert Game.objects.count() == 15
    assert not Game.objects.filter(status="playing").exists()


def test_ending_a_round_twice_with_one_key_ends_it_once(event):
    row = start_next_round(event, number=1, key=key(), now=START)
    play_round(row)
    same = key()
    end_current_round(event, number=1, key=same, now=START + dt.timedelta(minutes=50))
    with pytest.raises(AlreadyDone):
        end_current_round(event, number=1, key=same, now=START + dt.timedelta(minutes=51))
    assert EventRound.objects.count() == 2  # round 2 seated once


def test_games_in_play_end_as_they_stand_when_the_round_ends(event):
    row = start_next_round(event, number=1, key=key(), now=START)
    play_round(row)  # one hand each: nobody has reached the target
    assert Game.objects.filter(status="playing").count() == 5
    end_current_round(event, number=1, key=key(), now=START + dt.timedelta(minutes=50))
    assert Game.objects.filter(status="finished", ended_early=True).count() == 5
