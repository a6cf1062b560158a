"""Saving a hand writes the teams' running totals that a recompute from the stored
inputs gives."""

from scoring.models import GameTeam
from scoring.play import services
from scoring.play.services.rows import RECOMPUTED_TEAM_FIELDS

from .conftest import BIG, SMALL


def _stored(game):
    return [
        {name: getattr(team, name) for name in RECOMPUTED_TEAM_FIELDS}
        for team in GameTeam.objects.filter(game=game).order_by("index")
    ]


def test_saved_hands_leave_the_totals_a_recompute_gives(game):
    """Hands saved one by one leave every team's running totals as the rebuild from the
    stored inputs writes them."""
    for number, teams in enumerate([[BIG, SMALL], [SMALL, BIG], [SMALL, SMALL]], start=1):
        services.record_hand(game, teams, number=number)
    saved = _stored(game)
    assert saved[0]["hands"] == 3 and saved[0]["total"] != 0
    GameTeam.objects.filter(game=game).update(total=0, hands=0, best_hand=None)
    services.rebuild_game(game)
    assert _stored(game) == saved
