"""The hot path of saving a hand (issue #14): the teams' running totals are written in
one statement built by hand (``bulk_update`` spent 10–15 ms building it), and that
statement must write exactly what a save per team would."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import GameTeam
from scoring.play import services
from scoring.play.services.rows import RECOMPUTED_TEAM_FIELDS, save_stats

from .conftest import BIG, SMALL


def _stored(game):
    return [
        {name: getattr(team, name) for name in RECOMPUTED_TEAM_FIELDS}
        for team in GameTeam.objects.filter(game=game).order_by("index")
    ]


def test_the_one_statement_writes_what_a_save_per_team_writes(game):
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    names = RECOMPUTED_TEAM_FIELDS
    values = [
        dict(zip(names, (-35, 15, 120, 3, 1, 0, 2, 1, 0, 1, None, False), strict=True)),
        dict(zip(names, (5120, 120, -35, 3, 4, 2, 0, 2, 1, 0, 2890, True), strict=True)),
    ]
    for team, these in zip(teams, values, strict=True):
        for name, value in these.items():
            setattr(team, name, value)
    with CaptureQueriesContext(connection) as captured:
        save_stats(teams, bulk=True)
    updates = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    assert _stored(game) == values


def test_saved_hands_leave_the_totals_a_recompute_gives(game):
    """Hands saved one by one (the one-statement write) leave every team's running
    totals as the rebuild from the stored inputs writes them (a save per team)."""
    for number, teams in enumerate([[BIG, SMALL], [SMALL, BIG], [SMALL, SMALL]], start=1):
        services.record_hand(game, teams, number=number)
    saved = _stored(game)
    assert saved[0]["hands"] == 3 and saved[0]["total"] != 0
    GameTeam.objects.filter(game=game).update(total=0, hands=0, best_hand=None)
    services.rebuild_game(game)
    assert _stored(game) == saved


def test_a_single_team_is_saved_on_its_own(game):
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))[:1]
    teams[0].total = 70
    save_stats(teams, bulk=True)
    assert GameTeam.objects.get(pk=teams[0].pk).total == 70
