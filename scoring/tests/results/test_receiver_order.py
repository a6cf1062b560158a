"""A game's result reaches its listeners in order: its players' stored totals are written
(``totals_after_game``) before the results cache hears of it (``results_after_game``),
both in the save's own transaction, so a page drawn on the new results version never
reads the totals of before the game."""

import datetime

import pytest

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import Game, PersonTotal
from scoring.results import receivers
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db


def test_the_totals_are_written_before_the_results_hear_of_a_finished_game(monkeypatch):
    people = games.people(4)
    day = ClubDayFactory(date=datetime.date(2025, 3, 6), signed_in=people)
    table = TableFactory(round__day=day, number=1, seated=people)
    heard = []
    told = receivers.results_changed

    def results_changed(*args, **kwargs):
        heard.append({total.person_id: total.games for total in PersonTotal.objects.all()})
        return told(*args, **kwargs)

    monkeypatch.setattr(receivers, "results_changed", results_changed)
    game = games.play(table, [people[:2], people[2:]], [[WIN, LOSE]] * 3)
    assert game.status == Game.Status.FINISHED
    # Told once, when the game finished, and by then each player's one game was counted.
    assert heard == [{person.pk: 1 for person in people}]
