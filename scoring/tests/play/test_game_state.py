"""What the services tell listeners when a game's outcome moves (``game_result_changed``
with a :class:`GameState`), and the fields a recompute writes."""

from scoring.models import Game, GameTeam, Hand
from scoring.play import services
from scoring.play.services.rows import RECOMPUTED_TEAM_FIELDS
from scoring.play.services.state import RECOMPUTED_GAME_FIELDS, GameState
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
            services.record_hand(game, [BIG, SMALL], number=number)
            if not game.is_finished:
                assert heard == []
        assert heard == [(GameState.FINISHED, True)]
        assert heard[0][0] == "finished"
        services.undo_last_hand(game, expected_hand_count=number)
        assert heard[-1] == (GameState.CHANGED, True)
        services.undo_last_hand(game, expected_hand_count=number - 1)
        assert len(heard) == 2  # a game still being played: nobody hears
        services.rebuild_game(game)
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
    services.record_hand(game, [BIG, SMALL], number=1)
    Game.objects.filter(pk=game.pk).update(hand_count=7)
    GameTeam.objects.filter(game=game).update(total=0)
    services.rebuild_game(game)
    game.refresh_from_db()
    assert game.hand_count == Hand.objects.filter(game=game).count() == 1
    assert sorted(GameTeam.objects.filter(game=game).values_list("total", flat=True)) != [0, 0]
