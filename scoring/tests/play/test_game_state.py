"""What the services tell listeners when a game's outcome moves (``game_result_changed``
with a :class:`GameState`), and the fields a recompute writes."""

from scoring.models import Game, GameTeam, Hand
from scoring.play.services.hands import rebuild_game, record_hand, undo_last_hand
from scoring.play.services.replay import RECOMPUTED_GAME_FIELDS, RECOMPUTED_TEAM_FIELDS, GameState
from scoring.signals import game_result_changed
from scoring.tests.samples import BIG, SMALL


def _listen():
    heard = []

    def receiver(sender, game, what, rate=True, **kwargs):
        heard.append((what, rate))

    game_result_changed.connect(receiver, weak=False, dispatch_uid="test-game-state")
    return heard


def test_game_state_values_are_the_words_listeners_compare():
    assert GameState.FINISHED == "finished" and GameState.CHANGED == "changed"
    assert GameState.UNCHANGED == ""


def test_listeners_hear_finished_then_changed_and_nothing_while_playing(game):
    heard = _listen()
    try:
        number = 0
        while not game.is_finished:
            number += 1
            record_hand(game, [BIG, SMALL], number=number)
            if not game.is_finished:
                assert heard == []
        assert heard == [(GameState.FINISHED, True)]
        assert heard[0][0] == "finished"
        undo_last_hand(game, expected_hand_count=number)
        assert heard[-1] == (GameState.CHANGED, True)
        undo_last_hand(game, expected_hand_count=number - 1)
        assert len(heard) == 2  # a game still being played: nobody hears
        rebuild_game(game)
        assert len(heard) == 2
    finally:
        game_result_changed.disconnect(dispatch_uid="test-game-state")


def test_recompute_fields_are_fields_of_the_models():
    game_fields = {f.name for f in Game._meta.get_fields()}
    team_fields = {f.name for f in GameTeam._meta.get_fields()}
    assert set(RECOMPUTED_GAME_FIELDS) <= game_fields
    assert set(RECOMPUTED_TEAM_FIELDS) <= team_fields
    assert "version" not in RECOMPUTED_GAME_FIELDS  # writers that change it add it


def test_rebuild_writes_the_recomputed_game_fields(game):
    record_hand(game, [BIG, SMALL], number=1)
    Game.objects.filter(pk=game.pk).update(hand_count=7)
    GameTeam.objects.filter(game=game).update(total=0)
    rebuild_game(game)
    game.refresh_from_db()
    assert game.hand_count == Hand.objects.filter(game=game).count() == 1
    assert sorted(GameTeam.objects.filter(game=game).values_list("total", flat=True)) != [0, 0]


def test_saved_hands_leave_the_totals_a_recompute_gives(game):
    """Hands saved one by one leave every team's running totals as the rebuild from the
    stored inputs writes them."""
    for number, teams in enumerate([[BIG, SMALL], [SMALL, BIG], [SMALL, SMALL]], start=1):
        record_hand(game, teams, number=number)

    def stored():
        return [
            {name: getattr(team, name) for name in RECOMPUTED_TEAM_FIELDS}
            for team in GameTeam.objects.filter(game=game).order_by("index")
        ]

    saved = stored()
    assert saved[0]["hands"] == 3 and saved[0]["total"] != 0
    GameTeam.objects.filter(game=game).update(total=0, hands=0, best_hand=None)
    rebuild_game(game)
    assert stored() == saved
