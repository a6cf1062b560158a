"""The stored season totals (issue #14) agree with a recompute from the games: after
games finish, after a correction, an undo that re-opens a finished game, a season
added or moved after the games, a merge of two people, and ``rebuild_totals``."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone

from members.services.merge import merge_people
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import Game, Hand, PartnershipTotal, RuleSet, Season, SeasonTotal
from scoring.models.totals import STAT_FIELDS
from scoring.play.services.games import start_game
from scoring.play.services.hands import correct_hand, record_hand, undo_last_hand
from scoring.results.standings.individual import (
    individual,
    partnerships,
    season_individual,
    season_partnerships,
)
from scoring.tests.games import league, play, win
from scoring.tests.samples import BIG, LOSE, SMALL, WIN

START = datetime.date(2025, 3, 6)


def _by_person(rows) -> dict:
    return {r["person_id"]: {k: r[k] for k in (*STAT_FIELDS, "rating")} for r in rows}


def _by_pair(rows) -> dict:
    return {r["pair"]: {k: r[k] for k in (*STAT_FIELDS, "rating")} for r in rows}


def assert_agree(season: Season) -> None:
    """The stored rows, read as the standings read them, equal the aggregate over the
    season's finished games (the path every other period takes)."""
    season.refresh_from_db()
    for guests in (True, False):
        stored = _by_person(season_individual(season, include_guests=guests))
        computed = _by_person(individual(season.start, season.end, include_guests=guests))
        assert stored == computed
        stored = _by_pair(season_partnerships(season, include_guests=guests))
        computed = _by_pair(partnerships(season.start, season.end, include_guests=guests))
        assert stored == computed


@pytest.fixture
def spring(db):
    return Season.objects.create(name="Spring", start=START, end=START + datetime.timedelta(60))


def test_totals_follow_games_corrections_and_undo(spring):
    league(days=3, tables=2, games=2, start=START)
    assert SeasonTotal.objects.filter(season=spring).count() == 8
    assert PartnershipTotal.objects.filter(season=spring).exists()
    assert_agree(spring)
    # A correction of a finished game changes who won.
    game = _last_finished()
    hand = Hand.objects.get(game=game, number=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(hand, [LOSE, WIN], expected_version=hand.version)
    assert_agree(spring)
    # Undo re-opens it: its games no longer count.
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        undo_last_hand(game, expected_hand_count=game.hand_count)
    assert_agree(spring)


def _last_finished():
    return Game.objects.finished().order_by("-pk").first()


def test_a_season_added_or_moved_after_the_games_is_added_up(db):
    league(days=3, tables=1, games=2, start=START)
    later = Season.objects.create(
        name="Late", start=START + datetime.timedelta(7), end=START + datetime.timedelta(30)
    )
    assert_agree(later)
    later.start = START
    later.save()
    assert_agree(later)
    assert SeasonTotal.objects.filter(season=later).count() == 4


@pytest.mark.parametrize("slug, seats", [("two-player", 2), ("three-player", 3)])
def test_single_players_count_as_a_win_or_a_loss_each_and_have_no_partnership(spring, slug, seats):
    people = [MemberFactory(first_name=f"Solo{i}") for i in range(seats)]
    day = ClubDayFactory(date=START + datetime.timedelta(1))
    tbl = TableFactory(round__day=day, number=1, seated=people)
    rules = RuleSet.objects.get(slug=slug)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = start_game(tbl, [[p] for p in people], rule_set=rules, now=_noon(day))
    hand = [WIN] + [LOSE] * (seats - 1)
    while not game.is_finished:
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_hand(game, hand, number=game.hand_count + 1, now=_noon(day))
    rows = {r.person_id: r for r in SeasonTotal.objects.filter(season=spring)}
    assert sorted(r.wins for r in rows.values()) == [0] * (seats - 1) + [1]
    assert {r.games for r in rows.values()} == {1}
    assert not PartnershipTotal.objects.filter(season=spring).exists()
    assert_agree(spring)


def _noon(day):
    return timezone.make_aware(datetime.datetime.combine(day.date, datetime.time(12)))


def test_a_merge_adds_the_two_records_up_as_one(spring):
    pool = league(days=2, tables=2, games=1, start=START)
    kept = pool[0][0]
    removed = MemberFactory(first_name="Twice", last_name="Recorded")
    merge_day = ClubDayFactory(date=START + datetime.timedelta(20))
    foursome = [removed, *pool[1][1:]]
    tbl = TableFactory(round__day=merge_day, number=1, seated=foursome)
    win(tbl, foursome[:2], foursome[2:])
    assert SeasonTotal.objects.filter(person=removed, season=spring).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        merge_people(kept, removed)
    assert not SeasonTotal.objects.filter(person=removed).exists()
    assert_agree(spring)


def test_rebuild_totals_puts_back_what_was_lost(spring):
    league(days=2, tables=2, games=1, start=START)
    before = sorted(tuple(r.stats().values()) + (r.person_id,) for r in SeasonTotal.objects.all())
    SeasonTotal.objects.all().delete()
    PartnershipTotal.objects.all().delete()
    call_command("rebuild_totals", stdout=io.StringIO())
    after = sorted(tuple(r.stats().values()) + (r.person_id,) for r in SeasonTotal.objects.all())
    assert after == before
    assert_agree(spring)


def test_a_game_in_play_leaves_the_totals_alone(spring):
    league(days=1, tables=1, games=1, start=START)
    before = list(SeasonTotal.objects.values_list("games", flat=True))
    day = ClubDayFactory(date=START + datetime.timedelta(2))
    people = [MemberFactory() for _ in range(4)]
    tbl = TableFactory(round__day=day, number=1, seated=people)
    play(tbl, [people[:2], people[2:]], [[SMALL, SMALL], [BIG, SMALL]])
    assert list(SeasonTotal.objects.values_list("games", flat=True)) == before
