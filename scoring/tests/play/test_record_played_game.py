"""record_played_game: a whole game's hands in one step, the same as one by one."""

import datetime

import pytest
from django.utils import timezone

from scoring.models import Hand, TeamHand
from scoring.play.services.errors import GameSetupError, HandRefused
from scoring.play.services.hands import record_hand, record_played_game
from scoring.tests.samples import quick

WIN = [quick(300, 1, 1, out="out"), quick(100, hand=30)]  # 1,200 and 70
TIMES = [timezone.make_aware(datetime.datetime(2025, 3, 6, 14, m)) for m in range(0, 60, 10)]


def test_a_whole_game_at_once_is_scored_and_finished(game):
    hands = record_played_game(game, [WIN] * 5, times=TIMES[:5], via="Paper sheet")
    game.refresh_from_db()
    assert [h.number for h in hands] == [1, 2, 3, 4, 5]
    assert game.is_finished and game.hand_count == 5
    teams = list(game.teams.order_by("index"))
    assert [t.total for t in teams] == [6000, 350]
    assert teams[0].won and not teams[1].won
    assert teams[0].points_against == 350
    assert list(TeamHand.objects.filter(team=teams[0]).values_list("score_after", flat=True)) == [
        1200,
        2400,
        3600,
        4800,
        6000,
    ]
    # One history row per hand, with the reason, as record_hand leaves.
    assert Hand.history.filter(game_id=game.pk, history_type="+").count() == 5
    assert set(Hand.history.values_list("history_change_reason", flat=True)) == {"Paper sheet"}
    assert Hand.objects.get(game=game, number=3).created_at == TIMES[2]


def test_a_refused_hand_saves_nothing_and_names_the_hand(game):
    both_out = [quick(300, 1, 1, out="out"), quick(300, 1, 1, out="out")]
    with pytest.raises(HandRefused) as refused:
        record_played_game(game, [WIN, both_out], times=TIMES[:2])
    assert refused.value.message.startswith("Hand 2 cannot be scored")
    game.refresh_from_db()
    assert game.hand_count == 0
    assert not Hand.objects.filter(game=game).exists()


def test_a_game_that_ends_before_its_last_hand_is_refused(game):
    with pytest.raises(HandRefused, match="ends at hand 5"):
        record_played_game(game, [WIN] * 6, times=TIMES)
    assert not Hand.objects.filter(game=game).exists()


def test_only_for_a_game_without_hands(game):
    record_hand(game, WIN, number=1)
    with pytest.raises(GameSetupError, match="already has hands"):
        record_played_game(game, [WIN], times=TIMES[:1])
    with pytest.raises(GameSetupError, match="one time for each hand"):
        record_played_game(game, [WIN, WIN], times=TIMES[:1])
