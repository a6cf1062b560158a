"""Writers of derived rows take turns (PostgreSQL, real transactions).

Ratings: a game finishing while another transaction writes ratings (a replay after a
correction, say) waits for it, so it is rated from the ratings that transaction wrote,
and rating points appear in the order of their ids (a person's page relies on it:
scoring.results.cache.person_stamp_of). Totals: two transactions rewriting one
player's stored rows wait for each other."""

import datetime
import threading
import time

import pytest
from django.db import connection, connections, transaction

from scoring.models import Game, Hand, PersonTotal, RatingPoint, Season, SeasonTotal, TeamPlayer
from scoring.play import services
from scoring.play.services import totals
from scoring.results import ratings
from scoring.tests import games
from scoring.tests.samples import CONCEALED, LOSE


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_is_rated_after_the_other_rating_writer_commits():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    services.ensure_presets()  # a transactional test starts from empty tables
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


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("first_writer", ["a correction", "a season edited"])
def test_two_writers_of_one_players_totals_take_turns(first_writer):
    """A correction of an old game (or a season's dates edited: everyone's rows) and a
    game finishing at the same moment, with the same players: the second waits for the
    first, then writes its rows (before, its insert of the person's all-games row, or
    of their season row, failed on the row the first had written)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    services.ensure_presets()  # a transactional test starts from empty tables
    games.league(days=1, tables=1, games=2)
    season = Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    first, second = Game.objects.order_by("number")
    wrote, release = threading.Event(), threading.Event()
    failures = []

    def rewrite():
        if first_writer == "a correction":
            totals.game_changed(first)
        else:
            totals.refresh_season(season)

    def correction():  # rewrites the players' rows, then is slow to commit
        try:
            with transaction.atomic():
                rewrite()
                wrote.set()
                release.wait(timeout=30)
        except Exception as exc:  # reported below
            failures.append(repr(exc))
        finally:
            connections.close_all()

    def finishing():
        try:
            with transaction.atomic():
                totals.game_changed(second)
        except Exception as exc:  # reported below
            failures.append(repr(exc))
        finally:
            connections.close_all()

    other = threading.Thread(target=correction)
    other.start()
    assert wrote.wait(timeout=30)
    finisher = threading.Thread(target=finishing)
    finisher.start()
    time.sleep(1)  # time enough for a writer that did not wait to reach its insert
    release.set()
    other.join(timeout=60)
    finisher.join(timeout=60)
    assert failures == []
    players = TeamPlayer.objects.filter(game=second).values_list("person_id", flat=True)
    for record in PersonTotal.objects.filter(person_id__in=players):
        assert record.games == 2
    for record in SeasonTotal.objects.filter(season=season, person_id__in=players):
        assert record.games == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_correction_commits_while_the_ratings_are_being_replayed():
    """Rating writers wait for each other, never a hand's save: a correction commits
    while a replay holds the ratings' turn, and its own replay follows."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    services.ensure_presets()
    games.league(days=1, tables=1, games=1)
    hand = Hand.objects.get(game=Game.objects.get(), number=1)
    holding, release = threading.Event(), threading.Event()
    failures = []

    def replay_running():
        try:
            with transaction.atomic():
                ratings.one_writer_at_a_time()
                holding.set()
                release.wait(timeout=60)
        finally:
            connections.close_all()

    def correct():
        try:
            services.correct_hand(hand, [CONCEALED, LOSE], expected_version=hand.version)
        except Exception as exc:  # reported below
            failures.append(repr(exc))
        finally:
            connections.close_all()

    replay = threading.Thread(target=replay_running)
    replay.start()
    assert holding.wait(timeout=30)
    corrector = threading.Thread(target=correct)
    corrector.start()
    deadline = time.monotonic() + 30
    while Hand.objects.get(pk=hand.pk).version == hand.version and time.monotonic() < deadline:
        time.sleep(0.05)
    committed_while_held = Hand.objects.get(pk=hand.pk).version != hand.version
    release.set()
    replay.join(timeout=60)
    corrector.join(timeout=60)
    assert committed_while_held
    assert failures == [] and not corrector.is_alive()
    assert RatingPoint.objects.filter(game=hand.game_id).count() == 4
