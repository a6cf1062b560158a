"""An officer edits a season's dates at the moment a game ends (PostgreSQL, real
transactions): the stored totals are those of the new dates, the game counted.

The edit rewrites the season's rows for everyone with the stored totals to itself
(``totals.only_writer``); a game ending takes the same lock, shared with other games,
before it reads which seasons cover its day. Before, the game read the seasons while
the edit was not yet committed (the old dates, which left its day out), and the edit
added up the season without the game, not yet committed either: the season's rows
missed the game until the next rebuild."""

import datetime
import threading
import time

import pytest
from django.db import connection, connections

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import Game, Season, SeasonTotal
from scoring.play.services import totals
from scoring.play.services.hands import record_hand
from scoring.results.services import save_season
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DAY = datetime.date(2025, 3, 6)


def _thread(body, failures: list) -> threading.Thread:
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


def _stored_totals() -> list:
    names = [f.attname for f in SeasonTotal._meta.concrete_fields if not f.primary_key]
    return sorted(SeasonTotal.objects.values_list(*names))


@pytest.mark.parametrize(
    ("old_end", "new_end"),
    [
        (datetime.date(2025, 2, 28), datetime.date(2025, 12, 31)),  # the day comes in
        (datetime.date(2025, 12, 31), datetime.date(2025, 2, 28)),  # the day goes out
    ],
)
def test_a_season_edited_while_a_game_ends_has_the_totals_of_its_new_dates(
    monkeypatch, old_end, new_end
):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    season = Season.objects.create(name="2025", start=datetime.date(2025, 1, 1), end=old_end)
    people = games.people(4)
    day = ClubDayFactory(date=DAY, signed_in=people)
    table = TableFactory(round__day=day, number=1, seated=people)
    game = games.play(table, [people[:2], people[2:]], [[WIN, LOSE]] * 2)
    rewrote, go_on = threading.Event(), threading.Event()
    real_refresh = totals.refresh

    def refresh(season, person_ids, apps=None, **options):
        real_refresh(season, person_ids, apps=apps, **options)
        if person_ids is None:  # the edit's rewrite of everyone, not yet committed
            rewrote.set()
            go_on.wait(timeout=30)

    monkeypatch.setattr(totals, "refresh", refresh)
    failures = []

    def edit():
        edited = Season.objects.get(pk=season.pk)
        edited.end = new_end
        save_season(edited)

    def last_hand():
        record_hand(Game.objects.get(pk=game.pk), [WIN, LOSE], number=3, via="Table link")

    editor = _thread(edit, failures)
    assert rewrote.wait(timeout=30)
    ending = _thread(last_hand, failures)
    time.sleep(1)  # time enough for a game that did not wait to read the seasons
    go_on.set()
    for thread in (editor, ending):
        thread.join(timeout=60)
    assert not editor.is_alive() and not ending.is_alive()
    assert failures == []
    assert Game.objects.get(pk=game.pk).is_finished
    rows = SeasonTotal.objects.filter(season=season)
    assert sorted(rows.values_list("games", flat=True)) == ([1, 1, 1, 1] if new_end > DAY else [])
    stored = _stored_totals()
    totals.rebuild_all()
    assert _stored_totals() == stored
