"""What "time called" does, as the club chose: with "finish the hand in play" the
table saves that hand (a going out scores its bonus) and its game ends; with "score at
time" the hand in play counts as it lies, nobody going out, and the game ends. No hand
after it; before time is called nothing changes; an ordinary club day's hands never
ask about events."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from members.models import Table
from members.tests.factories import TableFactory
from scoring.models import Game, Hand, TeamPlayer
from scoring.play.forms import hand_form_data
from scoring.play.services.errors import GameClosed, GameSetupError, HandRefused
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import record_hand
from scoring.signals import game_result_changed
from scoring.tests import games
from scoring.tests.samples import LOSE, SMALL, WIN
from scoring.tests.tourney.conftest import key
from scoring.tourney.services.rounds import end_current_round, start_next_round

pytestmark = pytest.mark.django_db


def _round(event, policy, *, minutes_ago):
    """Round 1 started ``minutes_ago`` (50-minute rounds: over 50, time is called)."""
    event.time_called = policy
    event.save(update_fields=["time_called"])
    started = timezone.now() - dt.timedelta(minutes=minutes_ago)
    row = start_next_round(event, number=1, key=key(), now=started)
    table = Table.objects.get(round_id=row.round_id, number=1)
    return row, Game.objects.get(table=table)


def test_finish_the_hand_in_play_then_the_game_ends(event):
    _row, game = _round(event, "finish_hand", minutes_ago=52)
    record_hand(game, [WIN, LOSE], number=1)  # gone out after the call: the bonus counts
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_early
    teams = sorted(game.teams.all(), key=lambda t: t.index)
    assert [t.total for t in teams] == [1900, 150] and teams[0].won
    with pytest.raises(GameClosed):
        record_hand(game, [WIN, LOSE], number=2)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_level_game_takes_no_hand_after_the_hand_in_play(event):
    row, game = _round(event, "finish_hand", minutes_ago=52)
    record_hand(game, [LOSE, LOSE], number=1)  # 150 each: nobody leads, it cannot end
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    with pytest.raises(GameClosed, match="saved the hand in play"):
        record_hand(game, [WIN, LOSE], number=2)
    assert Hand.objects.filter(game=game).count() == 1
    end_current_round(event, number=1, key=key(), now=timezone.now())
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING  # a draw at its totals, as the ranking counts it


def test_score_at_time_counts_the_hand_in_play_with_nobody_going_out(event):
    _row, game = _round(event, "at_time", minutes_ago=52)
    with pytest.raises(HandRefused) as refused:
        record_hand(game, [WIN, LOSE], number=1)
    assert refused.value.errors[0].field == "teams[0].went_out"
    assert "nobody gets the going-out bonus" in refused.value.errors[0].message
    assert Hand.objects.filter(game=game).count() == 0
    record_hand(game, [LOSE, SMALL], number=1)  # as it lies: 150 to 80
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_early
    assert [t.total for t in sorted(game.teams.all(), key=lambda t: t.index)] == [150, 80]


def test_before_time_is_called_nothing_changes(event):
    _row, game = _round(event, "at_time", minutes_ago=10)
    record_hand(game, [WIN, LOSE], number=1)
    record_hand(game, [WIN, LOSE], number=2)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.hand_count == 2


def test_a_paused_clock_has_not_called_time(event):
    row, game = _round(event, "at_time", minutes_ago=52)
    row.paused_at = row.started_at + dt.timedelta(minutes=30)
    row.save(update_fields=["paused_at"])
    record_hand(game, [WIN, LOSE], number=1)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_an_ordinary_days_hand_asks_nothing_about_events(django_assert_max_num_queries):
    ann, bob, cat, dan = games.people(4)
    table = TableFactory(seated=[ann, bob, cat, dan])
    assert not table.round.day.has_event
    game = start_game(table, [[ann, cat], [bob, dan]])
    with django_assert_max_num_queries(40) as saved:
        record_hand(game, [WIN, LOSE], number=1)
    assert not any("tourney" in q["sql"] for q in saved.captured_queries)


def test_the_phone_says_the_game_is_over_and_offers_no_next_game(client, event):
    _row, game = _round(event, "finish_hand", minutes_ago=52)
    record_hand(game, [WIN, LOSE], number=1)
    table = game.table
    assert client.get(f"/t/{table.token}/").status_code == 302
    html = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "Your game of round 1 is over." in html
    assert "where each of you goes next" in html
    assert reverse("scoring:next_game", args=[game.pk]) not in html


def test_the_phone_says_what_to_fix_when_a_hand_goes_out_at_time(client, event):
    _row, game = _round(event, "at_time", minutes_ago=52)
    table = game.table
    assert client.get(f"/t/{table.token}/").status_code == 302
    url = reverse("scoring:hand_new", args=[game.pk])
    response = client.post(url, hand_form_data([WIN, LOSE], 1, action="save"))
    html = response.content.decode()
    assert response.status_code == 200  # the page again, everything typed kept
    assert "nobody gets the going-out bonus" in html
    assert Hand.objects.filter(game=game).count() == 0
    response = client.post(url, hand_form_data([LOSE, SMALL], 1, action="save"))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_early


def test_a_hand_after_the_director_ends_the_round_is_refused(event):
    _row, game = _round(event, "finish_hand", minutes_ago=20)  # time not called yet
    record_hand(game, [LOSE, LOSE], number=1)  # level: the game goes on
    end_current_round(event, number=1, key=key(), now=timezone.now())
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING  # a draw at its totals
    with pytest.raises(GameClosed, match="Round 1 is over") as refused:
        record_hand(game, [WIN, LOSE], number=2)
    assert "tell the director" in refused.value.message
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.hand_count == 1


def test_a_hand_after_the_round_ended_with_time_called_is_refused(event):
    _row, game = _round(event, "at_time", minutes_ago=52)
    end_current_round(event, number=1, key=key(), now=timezone.now())
    with pytest.raises(GameClosed, match="Round 1 is over"):
        record_hand(game, [LOSE, SMALL], number=1)
    assert Hand.objects.filter(game=game).count() == 0


def test_a_clock_paused_after_time_was_called_still_counts_as_called(event):
    row, game = _round(event, "at_time", minutes_ago=52)
    row.paused_at = row.started_at + dt.timedelta(minutes=51)  # a minute after the call
    row.save(update_fields=["paused_at"])
    with pytest.raises(HandRefused):
        record_hand(game, [WIN, LOSE], number=1)  # scoring at time: nobody goes out
    record_hand(game, [LOSE, SMALL], number=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_early


def test_no_next_game_at_a_table_of_an_event_round(client, event):
    _row, game = _round(event, "finish_hand", minutes_ago=52)
    record_hand(game, [WIN, LOSE], number=1)  # the hand in play: the game is over
    game.refresh_from_db()
    table = game.table
    assert client.get(f"/t/{table.token}/").status_code == 302
    html = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Back to the table" in html
    assert reverse("scoring:next_game", args=[game.pk]) not in html
    teams = [list(team.players.all()) for team in game.teams.order_by("index")]
    url = reverse("scoring:next_game", args=[game.pk])
    for method in ("get", "post"):
        response = getattr(client, method)(url, {"method": "draw"})
        assert response.status_code == 302 and response.url == reverse(
            "scoring:table", args=[table.pk]
        )
    page = client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "one game a round" in page
    with pytest.raises(GameSetupError, match="one game a round"):
        next_game(game, [[teams[0][0], teams[1][0]], [teams[0][1], teams[1][1]]])
    assert Game.objects.filter(table=table).count() == 1


def test_after_the_hand_in_play_no_game_at_the_table_takes_a_hand(event):
    _row, game = _round(event, "finish_hand", minutes_ago=52)
    record_hand(game, [WIN, LOSE], number=1)  # the hand in play: the game is over
    people = [tp.person for tp in TeamPlayer.objects.filter(team__game=game).order_by("pk")]
    later = start_game(game.table, [people[:2], people[2:]], check_seating=False)
    with pytest.raises(GameClosed, match="saved the hand in play"):
        record_hand(later, [WIN, LOSE], number=1)
    assert Hand.objects.filter(game=later).count() == 0


def test_a_hand_that_ended_before_the_call_counts_as_played_once_the_players_say_so(event):
    _row, game = _round(event, "at_time", minutes_ago=52)
    with pytest.raises(HandRefused) as refused:
        record_hand(game, [WIN, LOSE], number=1)  # entered after the call
    assert refused.value.confirm == "This hand ended before time was called"
    assert "tick “This hand ended before time was called”" in refused.value.errors[0].message
    assert Hand.objects.filter(game=game).count() == 0
    record_hand(game, [WIN, LOSE], number=1, confirmed=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.ended_early
    teams = sorted(game.teams.all(), key=lambda t: t.index)
    assert [t.total for t in teams] == [1900, 150]  # the going-out bonus counts
    with pytest.raises(GameClosed):
        record_hand(game, [WIN, LOSE], number=2, confirmed=True)


def test_the_phone_offers_the_box_and_saves_the_hand_as_played(client, event):
    _row, game = _round(event, "at_time", minutes_ago=52)
    assert client.get(f"/t/{game.table.token}/").status_code == 302
    url = reverse("scoring:hand_new", args=[game.pk])
    data = hand_form_data([WIN, LOSE], 1, action="save")
    html = client.post(url, data).content.decode()
    assert 'name="confirmed" value="yes"' in html
    assert "This hand ended before time was called" in html
    assert Hand.objects.filter(game=game).count() == 0
    response = client.post(url, {**data, "confirmed": "yes"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.hand_count == 1
    assert [t.total for t in game.teams.order_by("index")] == [1900, 150]
    page = client.get(reverse("scoring:table", args=[game.table.pk])).content.decode()
    assert 'name="confirmed"' not in page


def test_a_hand_after_the_call_that_reaches_the_target_ends_the_game_as_any_would(event):
    """The hand in play reaches the target: the game is over as any game is (not "ended
    early"), its winner the side that passed the target, and the results hear of it once,
    with its players."""
    _row, game = _round(event, "finish_hand", minutes_ago=52)
    game.rules = {**game.rules, "target_score": 1500}
    game.save(update_fields=["rules"])
    heard = []

    def receiver(sender, game, what, people=None, **kwargs):
        heard.append((game.pk, what, sorted(people or [])))

    game_result_changed.connect(receiver, dispatch_uid="test.heard")
    try:
        record_hand(game, [WIN, LOSE], number=1)
    finally:
        game_result_changed.disconnect(dispatch_uid="test.heard")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.ended_early
    teams = sorted(game.teams.all(), key=lambda t: t.index)
    assert [t.total for t in teams] == [1900, 150] and teams[0].won and not teams[1].won
    players = sorted(TeamPlayer.objects.filter(team__game=game).values_list("person_id", flat=True))
    assert heard == [(game.pk, "finished", players)]
