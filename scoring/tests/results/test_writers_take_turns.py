"""Writers of derived rows take turns (PostgreSQL, real transactions).

Ratings: a game finishing while another transaction writes ratings (a replay after a
correction, say) waits for it, so it is rated from the ratings that transaction wrote,
and rating points appear in the order of their ids (a person's page relies on it:
scoring.results.cache.person_stamp_of). Totals: two transactions rewriting one
player's stored rows wait for each other; two games ending at once never write the
same row; a rewrite of everyone's rows waits for the games ending, and they for it."""

import contextvars
import datetime
import threading
import time
from functools import partial

import pytest
from django.db import connection, connections, transaction

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import (
    Game,
    Hand,
    PartnershipTotal,
    PersonTotal,
    RatingPoint,
    Season,
    SeasonTotal,
    TeamPlayer,
)
from scoring.play.services import totals
from scoring.play.services.games import start_game
from scoring.play.services.hands import correct_hand, record_hand
from scoring.results import ratings
from scoring.tests import games
from scoring.tests.samples import CONCEALED, LOSE, WIN

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


START = datetime.date(2025, 3, 6)


def _needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")


@pytest.fixture
def league_games(request):
    """A table's games (``request.param`` of them, default 2) on PostgreSQL."""
    _needs_postgresql()
    games.league(days=1, tables=1, games=getattr(request, "param", 2))
    return list(Game.objects.order_by("number"))


def _thread(body, failures: list) -> threading.Thread:
    """``body`` started in a thread of its own (its own database connection, closed at
    the end); an exception is added to ``failures``."""

    def run():
        try:
            body()
        except Exception as exc:  # reported by the test
            failures.append(repr(exc))
        finally:
            connections.close_all()

    # In the test's club: a new thread starts outside every scope.
    thread = threading.Thread(target=contextvars.copy_context().run, args=(run,))
    thread.start()
    return thread


def _done(*threads) -> bool:
    for thread in threads:
        thread.join(timeout=60)
    return not any(thread.is_alive() for thread in threads)


def test_a_game_is_rated_after_the_other_rating_writer_commits(league_games):
    first, second = league_games
    RatingPoint.objects.filter(game=second).delete()  # its rating is still due
    moved = RatingPoint.objects.filter(game=first).first()  # the other writer writes it again
    RatingPoint.objects.filter(pk=moved.pk).delete()
    holding, rater_started = threading.Event(), threading.Event()
    written, failures = {}, []

    def other_writer():
        with transaction.atomic():
            ratings.one_writer_at_a_time()
            holding.set()
            rater_started.wait(timeout=30)
            time.sleep(1)  # time enough for a rater that did not wait to write
            moved.pk = None
            moved.save()
            written["other"] = moved.pk

    def rate():
        rater_started.set()
        ratings.game_finished(second)

    other = _thread(other_writer, failures)
    assert holding.wait(timeout=30)
    rater = _thread(rate, failures)
    assert _done(other, rater)
    assert failures == []
    rated = list(RatingPoint.objects.filter(game=second).values_list("pk", flat=True))
    assert len(rated) == 4
    # The game was rated once the other writer had committed: after its point.
    assert min(rated) > written["other"]


@pytest.mark.parametrize("first_writer", ["a correction", "a season edited"])
def test_two_writers_of_one_players_totals_take_turns(league_games, first_writer):
    """A correction of an old game (or a season's dates edited: everyone's rows) and a
    game finishing at the same moment, with the same players: the second waits for the
    first, then writes its rows (before, its insert of the person's all-games row, or
    of their season row, failed on the row the first had written)."""
    first, second = league_games
    season = Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    wrote, release = threading.Event(), threading.Event()
    failures = []

    def correction():  # rewrites the players' rows, then is slow to commit
        with transaction.atomic():
            if first_writer == "a correction":
                totals.game_changed(first)
            else:
                totals.refresh_season(season)
            wrote.set()
            release.wait(timeout=30)

    def finishing():
        with transaction.atomic():
            totals.game_changed(second)

    other = _thread(correction, failures)
    assert wrote.wait(timeout=30)
    finisher = _thread(finishing, failures)
    time.sleep(1)  # time enough for a writer that did not wait to reach its insert
    release.set()
    assert _done(other, finisher)
    assert failures == []
    players = list(TeamPlayer.objects.filter(game=second).values_list("person_id", flat=True))
    records = list(PersonTotal.objects.filter(person_id__in=players))
    season_rows = list(SeasonTotal.objects.filter(season=season, person_id__in=players))
    assert len(records) == len(season_rows) == len(players) == 4
    for record in records:
        assert record.games == 2
    for record in season_rows:
        assert record.games == 2


@pytest.mark.parametrize("league_games", [1], indirect=True)
def test_a_correction_commits_while_the_ratings_are_being_replayed(league_games):
    """Rating writers wait for each other, never a hand's save: a correction commits
    while a replay holds the ratings' turn, and its own replay follows."""
    hand = Hand.objects.get(game=league_games[0], number=1)
    holding, release = threading.Event(), threading.Event()
    failures = []

    def replay_running():
        with transaction.atomic():
            ratings.one_writer_at_a_time()
            holding.set()
            release.wait(timeout=60)

    def correct():
        correct_hand(hand, [CONCEALED, LOSE], expected_version=hand.version)

    replay = _thread(replay_running, failures)
    assert holding.wait(timeout=30)
    corrector = _thread(correct, failures)
    deadline = time.monotonic() + 30
    while Hand.objects.get(pk=hand.pk).version == hand.version and time.monotonic() < deadline:
        time.sleep(0.05)
    committed_while_held = Hand.objects.get(pk=hand.pk).version != hand.version
    release.set()
    assert _done(replay, corrector)
    assert committed_while_held
    assert failures == []
    assert RatingPoint.objects.filter(game=hand.game_id).count() == 4


def _stored_totals() -> dict:
    """Every stored totals row, without its id (a rewrite gives new ids)."""
    stored = {}
    for model in (SeasonTotal, PartnershipTotal, PersonTotal):
        names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
        stored[model.__name__] = sorted(model.objects.values_list(*names))
    return stored


def _assert_a_rebuild_changes_nothing() -> None:
    stored = _stored_totals()
    totals.rebuild_all()
    assert _stored_totals() == stored


def _season() -> Season:
    return Season.objects.create(name="2025", start=START, end=datetime.date(2025, 12, 31))


def _last_hand(game, inputs, together=None) -> None:
    """The hand that ends ``game`` (its third), saved as a score keeper's phone does,
    once every thread waiting at ``together`` is there."""
    if together is not None:
        together.wait(timeout=30)
    record_hand(Game.objects.get(pk=game.pk), inputs, number=3, via="Table link")


def test_two_games_end_at_once_where_players_partnered_across_the_tables():
    """Two tables end their games at the same moment, and each player there partnered
    someone at the other table earlier in the season: every save succeeds and the
    stored totals are what a rebuild gives. Before, each game rewrote every pair row
    of its players, the pairs with the other table's players included, without
    locking those players: the second insert of such a pair failed with an
    IntegrityError on partnership_total_once (a 500 for that table's score keeper)."""
    _needs_postgresql()
    _season()
    a, b, c, d, e, f, g, h = games.people(8)
    day = ClubDayFactory(date=START, signed_in=[a, b, c, d, e, f, g, h])
    one = TableFactory(round__day=day, number=1, seated=[a, b, c, d])
    two = TableFactory(round__day=day, number=2, seated=[e, f, g, h])
    # Earlier in the season, partners across the two tables.
    games.play(one, [[a, e], [b, f]], [[WIN, LOSE]] * 3, check_seating=False)
    games.play(two, [[c, g], [d, h]], [[WIN, LOSE]] * 3, check_seating=False)
    tries, failures = 12, []
    pairings = [
        ([[a, b], [c, d]], [[e, f], [g, h]]),
        ([[a, c], [b, d]], [[e, g], [f, h]]),
        ([[a, d], [b, c]], [[e, h], [f, g]]),
    ]
    for attempt in range(tries):
        teams_one, teams_two = pairings[attempt % 3]
        ending = [
            games.play(one, teams_one, [[WIN, LOSE]] * 2),
            games.play(two, teams_two, [[LOSE, WIN]] * 2),
        ]
        together = threading.Barrier(len(ending))
        threads = [
            _thread(partial(_last_hand, ending[0], [WIN, LOSE], together), failures),
            _thread(partial(_last_hand, ending[1], [LOSE, WIN], together), failures),
        ]
        assert _done(*threads)
        if failures:  # a game left unfinished: the next cannot start at its table
            break
    assert failures == []
    assert Game.objects.finished().count() == 2 + 2 * tries
    _assert_a_rebuild_changes_nothing()


def test_a_rewrite_of_everyone_and_newcomers_games_ending_take_turns(monkeypatch):
    """A season's dates edited (everyone's rows rewritten, as ``rebuild_totals`` does)
    while people who had never played when it began finish their first and second
    games: each waits for the other and the stored totals are what a rebuild gives.
    Before, the rewrite locked only the people who had played when it began: a
    newcomer's first game committed in between was added up by the rewrite, and their
    second game's insert of their season row failed on the row the rewrite wrote."""
    _needs_postgresql()
    season = _season()
    games.league(days=1, tables=1, games=1, start=START)
    paused, go, wrote, release = (threading.Event() for _ in range(4))
    real_refresh = totals.refresh

    def refresh(season, person_ids, apps=None, **options):
        if person_ids is None:  # the rewrite of everyone, once it has its turn
            paused.set()
            go.wait(timeout=30)
        real_refresh(season, person_ids, apps=apps, **options)

    monkeypatch.setattr(totals, "refresh", refresh)
    failures = []

    def rewrite():
        with transaction.atomic():
            totals.refresh_season(season)
            wrote.set()
            release.wait(timeout=30)

    rewriter = _thread(rewrite, failures)
    assert paused.wait(timeout=30)
    newcomers = games.people(4, prefix="N")
    day = ClubDayFactory(date=START + datetime.timedelta(days=7), signed_in=newcomers)
    tables = [
        TableFactory(round__day=day, round__number=n, number=1, seated=newcomers) for n in (1, 2)
    ]
    teams = [newcomers[:2], newcomers[2:]]
    first, second = (start_game(t, teams, check_seating=False) for t in tables)
    for game in (first, second):
        for number in (1, 2):
            record_hand(game, [WIN, LOSE], number=number)

    first_ends = _thread(partial(_last_hand, first, [WIN, LOSE]), failures)
    first_ends.join(timeout=2)  # it ends now, or waits for the rewrite
    go.set()
    assert wrote.wait(timeout=30)
    second_ends = _thread(partial(_last_hand, second, [WIN, LOSE]), failures)
    time.sleep(1)  # time enough for a game that did not wait to reach its insert
    release.set()
    assert _done(rewriter, first_ends, second_ends)
    assert failures == []
    rows = SeasonTotal.objects.filter(season=season, person__in=newcomers)
    assert sorted(rows.values_list("games", flat=True)) == [2, 2, 2, 2]
    _assert_a_rebuild_changes_nothing()


def test_a_rebuild_and_a_correction_of_a_finished_game_take_turns(monkeypatch):
    """``rebuild_totals`` while a score keeper corrects a finished game: the correction
    waits for the rebuild, then writes. Before, the correction held its game's row
    locked against every other use, and the rebuild, writing a person's best game (that
    game), waited for it while it waited for the rebuild: PostgreSQL ended one of them
    with "deadlock detected"."""
    _needs_postgresql()
    _season()
    games.league(days=1, tables=1, games=2, start=START)
    paused, go = threading.Event(), threading.Event()
    real_refresh = totals.refresh

    def refresh(season, person_ids, apps=None, **options):
        if person_ids is None:  # the rebuild, once it has its turn
            paused.set()
            go.wait(timeout=30)
        real_refresh(season, person_ids, apps=apps, **options)

    monkeypatch.setattr(totals, "refresh", refresh)
    failures = []
    rebuild = _thread(totals.rebuild_all, failures)
    assert paused.wait(timeout=30)
    hand = Hand.objects.filter(game__status="finished").order_by("game_id", "number").first()
    correcting = _thread(
        partial(correct_hand, hand, [LOSE, CONCEALED], expected_version=hand.version), failures
    )
    time.sleep(1)  # time enough for the correction to lock its game and wait
    go.set()
    assert _done(rebuild, correcting)
    assert failures == []
    _assert_a_rebuild_changes_nothing()
