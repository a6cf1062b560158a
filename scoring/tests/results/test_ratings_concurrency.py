"""Rating writes one at a time (PostgreSQL, real transactions): a game finishing while
another transaction writes ratings (a replay after a correction, say) waits for it, so
it is rated from the ratings that transaction wrote, and rating points appear in the
order of their ids (a person's page relies on it: scoring.results.cache.person_stamp_of)."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from scoring.models import Game, RatingPoint
from scoring.results import ratings
from scoring.tests import games


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_is_rated_after_the_other_rating_writer_commits():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    games.league(days=1, tables=1, games=2)
    first, second = Game.objects.order_by("number")
    RatingPoint.objects.filter(game=second).delete()  # its rating is still due
    moved = RatingPoint.objects.filter(game=first).first()  # the other writer writes it again
    RatingPoint.objects.filter(pk=moved.pk).delete()
    holding, rater_started = threading.Event(), threading.Event()
    written = {}

    def other_writer():
        try:
            with transaction.atomic():
                ratings.one_writer_at_a_time()
                holding.set()
                rater_started.wait(timeout=30)
                time.sleep(1)  # time enough for a rater that did not wait to write
                moved.pk = None
                moved.save()
                written["other"] = moved.pk
        finally:
            connections.close_all()

    def rate():
        try:
            rater_started.set()
            ratings.game_finished(second)
        finally:
            connections.close_all()

    other = threading.Thread(target=other_writer)
    other.start()
    assert holding.wait(timeout=30)
    rater = threading.Thread(target=rate)
    rater.start()
    other.join(timeout=60)
    rater.join(timeout=60)
    assert not other.is_alive() and not rater.is_alive()
    rated = list(RatingPoint.objects.filter(game=second).values_list("pk", flat=True))
    assert len(rated) == 4
    # The game was rated once the other writer had committed: after its point.
    assert min(rated) > written["other"]
