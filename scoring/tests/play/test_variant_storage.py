"""Stored hands and totals count canastas by kind (issue 25, migration 0022).

Every team hand and game team keeps its canastas by kind (``canastas_by_kind``); the natural and
mixed columns the standings, records and workbook add up count every kind: the ones
without a wild card (sevens, aces, sequences) as natural, those with wild cards as mixed.
The migration gives stored rows their kinds, and ``rebuild_totals`` then changes nothing.
"""

from __future__ import annotations

import datetime
import importlib
import io

import pytest
from django.apps import apps
from django.core.management import call_command

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import Game, GameTeam, Hand, PersonTotal, RuleSet, Season, SeasonTotal, TeamHand
from scoring.models.totals import STAT_FIELDS
from scoring.play.services.hands import correct_hand
from scoring.results.standings.individual import season_individual
from scoring.tests.games import people, play

migration = importlib.import_module("scoring.migrations.0022_canastas_by_kind")

TINY = ["--people", "24", "--years", "1", "--days-per-year", "3", "--tables-min", "2"]
TINY += ["--tables-max", "3", "--quiet"]

_TEAM_HAND = (
    "pk",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "hand_score",
    "score_after",
)
_GAME_TEAM = (
    "pk",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "total",
    "won",
    "minimum",
)


def _snapshot() -> dict:
    return {
        "team_hands": sorted(TeamHand.objects.values_list(*_TEAM_HAND)),
        "game_teams": sorted(GameTeam.objects.values_list(*_GAME_TEAM)),
        "seasons": sorted(
            (r.season_id, r.person_id, *r.stats().values()) for r in SeasonTotal.objects.all()
        ),
        "people": sorted(
            (r.person_id, r.most_canastas, *r.stats().values()) for r in PersonTotal.objects.all()
        ),
        "games": sorted(Game.objects.values_list("pk", "status", "winner_id", "hand_count")),
    }


@pytest.mark.django_db
def test_the_migration_and_rebuild_totals_change_nothing_on_a_generated_league():
    call_command("generate_league", *TINY)
    assert TeamHand.objects.exclude(canastas_by_kind={}).exists()
    before = _snapshot()
    # As stored before the kinds: no canastas by kind anywhere.
    TeamHand.objects.update(canastas_by_kind={})
    GameTeam.objects.update(canastas_by_kind={})

    migration.fill(apps, None)

    assert _snapshot() == before
    call_command("rebuild_totals", stdout=io.StringIO())
    assert _snapshot() == before


def _samba_day():
    day = ClubDayFactory(date=datetime.date(2025, 4, 3))
    four = people(4, "S")
    return TableFactory(round__day=day, number=1, seated=four), four


SAMBA_HAND = {
    "melded_points": 300,
    "canastas": {"natural": 1, "sequence": 2},
    "red_threes": 6,
    "went_out": "out",
}


@pytest.mark.django_db
def test_a_samba_game_stores_its_canastas_by_kind():
    tbl, four = _samba_day()
    samba = RuleSet.objects.get(slug="samba")
    hands = [[SAMBA_HAND, {"melded_points": 100, "mixed_canastas": 1}]] * 2
    game = play(tbl, [four[:2], four[2:]], hands, rule_set=samba)
    first = TeamHand.objects.filter(game=game, team__index=0).order_by("hand__number").first()
    assert first.canastas_by_kind == {"natural": 1, "sequence": 2}
    # Sambas hold no wild card: the natural column counts them.
    assert (first.natural_canastas, first.mixed_canastas) == (3, 0)
    # 300 + 500 + 2 x 1,500 + all six red threes 1,000 + going out 200 = 5,000.
    assert first.hand_score == 5000
    team = game.teams.get(index=0)
    assert team.canastas_by_kind == {"natural": 2, "sequence": 4}
    assert team.natural_canastas == 6
    assert game.teams.get(index=1).canastas_by_kind == {"mixed": 2}


@pytest.mark.django_db
def test_a_correction_rewrites_the_kinds():
    tbl, four = _samba_day()
    samba = RuleSet.objects.get(slug="samba")
    game = play(tbl, [four[:2], four[2:]], [[SAMBA_HAND, {}]], rule_set=samba)
    hand = Hand.objects.get(game=game, number=1)
    fewer = {**SAMBA_HAND, "canastas": {"natural": 2}}
    correct_hand(hand, [fewer, {}], expected_version=hand.version)
    assert game.teams.get(index=0).canastas_by_kind == {"natural": 2}
    assert TeamHand.objects.get(hand=hand, team__index=0).natural_canastas == 2


@pytest.mark.django_db
def test_a_finished_modern_american_game_counts_in_the_standings():
    season = Season.objects.create(
        name="Spring", start=datetime.date(2025, 3, 1), end=datetime.date(2025, 5, 31)
    )
    tbl, four = _samba_day()
    modern = RuleSet.objects.get(slug="modern-american")
    big = {
        "melded_points": 400,
        "canastas": {"sevens": 1, "aces": 1, "wild": 1},
        "went_out": "out",
    }
    game = play(tbl, [four[:2], four[2:]], [[big, {}], [big, {}]], rule_set=modern)
    assert game.status == Game.Status.FINISHED  # 2 x (400 + 7,000 + 100) = 15,000
    rows = {row["person_id"]: row for row in season_individual(season)}
    winner = rows[four[0].pk]
    assert (winner["natural_canastas"], winner["mixed_canastas"]) == (4, 2)
    assert set(STAT_FIELDS) <= set(winner)
    record = PersonTotal.objects.get(person=four[0])
    assert record.most_canastas == 6
