"""Closing a club day while its tables save hands (PostgreSQL, real transactions).

The close takes its locks in one fixed order: the day's row first, then the day's games
in play by id, and only then writes anything (each game it ends: its players' rows, the
stored totals, the results version). A hand saved at one of its tables locks one game,
then the same rows. Before, the close ended one game (holding the results version's
row) and then waited for the next game's row, held by a hand that was ending that game
and waited for the results version: PostgreSQL ended one of them with "deadlock
detected". And two officers closing the day at once both went through."""

import datetime
import threading
import time

import pytest
from django.db import connection, connections

from members.models import ClubDay
from members.services.days import close_day
from members.services.errors import DayRefused
from members.signals import day_closed
from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import Game, PartnershipTotal, PersonTotal, SeasonTotal
from scoring.play.services import totals
from scoring.play.services.hands import record_hand
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _thread(body, failures: list) -> threading.Thread:
    """``body`` in a thread of its own (its own connection); exceptions go to
    ``failures``."""

    def run():
        try:
            body()
        except Exception as exc:  # reported by the test
            failures.append(repr(exc))
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _done(*threads) -> bool:
    for thread in threads:
        thread.join(timeout=60)
    return not any(thread.is_alive() for thread in threads)


@pytest.fixture
def evening():
    """A club day with two tables, each in the middle of a game (two hands, the first
    side ahead): the third hand at either table ends its game."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    people = games.people(8)
    day = ClubDayFactory(date=datetime.date(2025, 3, 6), signed_in=people)
    tables = [
        TableFactory(round__day=day, number=n + 1, seated=people[4 * n : 4 * n + 4])
        for n in range(2)
    ]
    in_play = [
        games.play(t, [people[4 * n : 4 * n + 2], people[4 * n + 2 : 4 * n + 4]], [[WIN, LOSE]] * 2)
        for n, t in enumerate(tables)
    ]
    return day, in_play


def _stored_totals() -> dict:
    """Every stored totals row, without its id (a rebuild gives new ids)."""
    stored = {}
    for model in (SeasonTotal, PartnershipTotal, PersonTotal):
        names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
        stored[model.__name__] = sorted(model.objects.values_list(*names))
    return stored


def _end_them_all(in_play) -> dict:
    """The closing page's answers: end every game as it stands, at the version shown."""
    choices = {}
    for game in in_play:
        choices[f"game-{game.pk}"] = "end"
        choices[f"game-{game.pk}-version"] = str(game.version)
    return choices


def test_closing_a_day_while_a_hand_ends_one_of_its_games(evening, monkeypatch):
    """The officer closes the day, ending both games as they stand, at the moment the
    second table saves the hand that ends its game. The close ends the first game while
    the hand holds the second game's row, if it can: then each waited for the other."""
    day, (first, second) = evening
    hand_holds_its_game, first_ended = threading.Event(), threading.Event()
    real_game_changed = totals.game_changed

    def game_changed(game, people=None):
        if game.pk == second.pk:  # the hand ending the second game, its row locked
            hand_holds_its_game.set()
            if first_ended.wait(timeout=5):  # the close ended the first game meanwhile
                time.sleep(0.5)  # time enough for the close to reach the second game
        real_game_changed(game, people)
        if game.pk == first.pk:
            first_ended.set()

    monkeypatch.setattr(totals, "game_changed", game_changed)
    failures, closed = [], {}

    def save_the_last_hand():
        record_hand(Game.objects.get(pk=second.pk), [WIN, LOSE], number=3, via="Table link")

    def close():
        closed["day"] = close_day(
            ClubDay.objects.get(pk=day.pk), choices=_end_them_all([first, second])
        )

    hand = _thread(save_the_last_hand, failures)
    assert hand_holds_its_game.wait(timeout=30)
    closer = _thread(close, failures)
    assert _done(hand, closer)
    assert failures == []
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.is_finished and first.ended_early
    assert second.is_finished and not second.ended_early  # its own last hand ended it
    assert second.hand_count == 3
    assert not ClubDay.objects.get(pk=day.pk).is_open
    assert closed["day"].closing_notes == [
        f"Game 1 at {first.table} was ended as it stood: P01 Player & P02 Player won 3,800."
    ]
    stored = _stored_totals()
    totals.rebuild_all()
    assert _stored_totals() == stored


def test_two_officers_closing_a_day_at_once(evening):
    """The second close waits for the first (the day's row is locked) and is told the
    day is closed already; the games are ended once."""
    day, in_play = evening
    first_is_closing, go_on = threading.Event(), threading.Event()

    def slow_first(sender, day, **kwargs):
        if not first_is_closing.is_set():
            first_is_closing.set()
            go_on.wait(timeout=30)
        return []

    day_closed.connect(slow_first, dispatch_uid="test-slow-first")
    try:
        failures, refusals = [], []

        def close():
            try:
                close_day(ClubDay.objects.get(pk=day.pk), choices=_end_them_all(in_play))
            except DayRefused as refusal:
                refusals.append(refusal.message)

        one = _thread(close, failures)
        assert first_is_closing.wait(timeout=30)
        two = _thread(close, failures)
        time.sleep(1)  # time enough for a close that did not wait to go through
        go_on.set()
        assert _done(one, two)
    finally:
        day_closed.disconnect(dispatch_uid="test-slow-first")
    assert failures == []
    assert refusals == [f"{ClubDay.objects.get(pk=day.pk)} is already closed."]
    for game in in_play:
        game.refresh_from_db()
        assert game.is_finished and game.ended_early
