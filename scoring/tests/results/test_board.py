"""The room board: who gets in (board code, link, officers), when it ends, what it
shows, and what a poll costs."""

import datetime

import pytest
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from members.services.days import close_day
from members.tests.factories import ClubDayFactory, TableFactory
from scoring.play.rooms import format_room_code
from scoring.play.services.hands import record_hand
from scoring.results.board import BOARD_KEY
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db


@pytest.fixture
def today():
    """A club day of today: table 1 has a game in play (one hand: 1,900 to 150), table 2
    a finished game, table 3 nobody has started."""
    day = ClubDayFactory(date=timezone.localdate(), title="Tonight")
    people = games.people(12)
    t1 = TableFactory(round__day=day, seated=people[0:4])
    t2 = TableFactory(round__day=day, seated=people[4:8])
    TableFactory(round__day=day, seated=people[8:12])
    playing = games.play(t1, [people[0:2], people[2:4]], [[WIN, LOSE]])
    games.win(t2, people[4:6], people[6:8])
    return {"day": day, "people": people, "playing": playing}


def play_on(game, hand):
    """One more hand of a game in play, through the services."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        record_hand(game, [dict(t) for t in hand], number=game.hand_count + 1)
    game.refresh_from_db()
    return game


def board_url(day):
    return reverse("scoring:board", args=[day.pk])


def live_url(day):
    return reverse("scoring:board_live", args=[day.pk])


def test_the_board_code_opens_the_board(client, today):
    day = today["day"]
    response = client.post(
        reverse("scoring:board_entry"), {"board_code": format_room_code(day.board_code).lower()}
    )
    assert response.status_code == 302
    assert response["Location"] == board_url(day)
    page = client.get(board_url(day))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 1" in text and "Table 2" in text and "Table 3" in text


def test_the_board_link_opens_the_board(client, today):
    day = today["day"]
    response = client.get(reverse("scoring:board_link", args=[day.board_code]))
    assert response.status_code == 302
    assert client.get(board_url(day)).status_code == 200


def test_a_wrong_board_code_is_refused_and_counted(client, today):
    response = client.post(reverse("scoring:board_entry"), {"board_code": "ABCD-EFGH"})
    assert response.status_code == 200
    assert "No club day has the board code ABCD-EFGH" in response.content.decode()
    assert BOARD_KEY not in client.session
    assert client.session["scoring_room_fails"]["count"] == 1
    assert client.get(board_url(today["day"])).status_code == 404


def test_wrong_codes_end_in_a_wait_like_room_codes(client, today):
    for _ in range(5):
        client.post(reverse("scoring:board_entry"), {"board_code": "ABCD-EFGH"})
    day = today["day"]
    response = client.post(reverse("scoring:board_entry"), {"board_code": day.board_code})
    assert response.status_code == 200
    assert "Too many wrong codes" in response.content.decode()


def test_a_board_code_of_a_closed_day_is_refused(client, today):
    day = close_day(today["day"])
    response = client.post(reverse("scoring:board_entry"), {"board_code": day.board_code})
    assert response.status_code == 200
    assert "room board has ended" in response.content.decode()
    assert BOARD_KEY not in client.session


def test_a_board_code_of_a_past_day_is_refused(client):
    day = ClubDayFactory(date=timezone.localdate() - datetime.timedelta(days=2))
    response = client.get(reverse("scoring:board_link", args=[day.board_code]))
    assert response.status_code == 404
    assert "room board has ended" in response.content.decode()


def test_an_open_board_stops_when_the_day_closes(client, today):
    day = today["day"]
    client.get(reverse("scoring:board_link", args=[day.board_code]))
    close_day(day)
    page = client.get(board_url(day))
    assert page.status_code == 410
    assert "The board of this day has ended" in page.content.decode()
    live = client.get(live_url(day))
    assert live.status_code == 286  # htmx stops polling and shows the message
    assert "The board of this day has ended" in live.content.decode()


def test_a_grant_opens_only_its_own_day(client, today):
    other = ClubDayFactory(date=timezone.localdate(), title="Afternoon")
    client.get(reverse("scoring:board_link", args=[other.board_code]))
    assert client.get(board_url(today["day"])).status_code == 404
    assert client.get(live_url(today["day"])).status_code == 404


def test_nobody_sees_a_board_without_a_code(client, member_client, today):
    assert client.get(board_url(today["day"])).status_code == 404
    assert member_client.get(live_url(today["day"])).status_code == 404


def test_officers_see_any_board_even_after_the_day(officer_client, today):
    day = close_day(today["day"])
    assert officer_client.get(board_url(day)).status_code == 200


def test_the_board_shows_every_table_its_players_totals_and_leader(officer_client, today):
    text = officer_client.get(live_url(today["day"])).content.decode()
    people = today["people"]
    for person in people:
        assert person.full_name in text
    assert "Game 1 · 1 hand" in text
    assert "Team 1 leads by 1,750" in text
    assert "1,900" in text and "150" in text
    assert "Team 1 won" in text
    assert "Not started yet" in text
    assert "Top scores today" in text and "5,700" in text


def test_the_board_changes_after_a_hand_is_saved(officer_client, today):
    day, game = today["day"], today["playing"]
    before = officer_client.get(live_url(day)).content.decode()
    assert "Game 1 · 1 hand" in before
    play_on(game, [LOSE, WIN])
    after = officer_client.get(live_url(day)).content.decode()
    assert "Game 1 · 2 hands" in after
    assert "2,050" in after  # 1,900 + 150
    assert "Level at 2,050" in after  # 1,900 + 150 against 150 + 1,900


def test_three_single_players_are_named_players(officer_client):
    day = ClubDayFactory(date=timezone.localdate())
    a, b, c = games.people(3)
    table = TableFactory(round__day=day, seated=[a, b, c])
    try:
        games.play(table, [[a], [b], [c]], [], rule_set=three_player_rules())
    except Exception as exc:  # the three-player work may not be merged yet
        pytest.skip(f"three-player games not available here: {exc}")
    text = officer_client.get(live_url(day)).content.decode()
    assert "Player 1" in text and "Player 3" in text


def three_player_rules():
    from scoring.models import RuleSet

    return RuleSet.objects.get(slug="three-player")


def test_a_poll_of_an_unchanged_board_costs_little(client, today, django_assert_max_num_queries):
    day = today["day"]
    client.get(reverse("scoring:board_link", args=[day.board_code]))
    client.get(live_url(day))  # draws and caches the body
    # The club, the session, the day, the data fingerprint and the cached body.
    with django_assert_max_num_queries(5):
        response = client.get(live_url(day))
    assert response.status_code == 200


def test_drawing_the_board_does_not_grow_with_tables(client, today, django_assert_max_num_queries):
    day = today["day"]
    client.get(reverse("scoring:board_link", args=[day.board_code]))
    # Session, day, fingerprint, cache read and write (3), games, teams, players,
    # tables, seats, top scores (cut, rows, players).
    with django_assert_max_num_queries(20) as first:
        client.get(live_url(day))
    people = games.people(8, prefix="Q")
    for start in (0, 4):
        table = TableFactory(round__day=day, seated=people[start : start + 4])
        games.win(table, people[start : start + 2], people[start + 2 : start + 4])
    with django_assert_max_num_queries(len(first)):
        client.get(live_url(day))


def test_a_hand_at_another_days_table_leaves_the_board_cached(
    client, today, django_assert_max_num_queries
):
    """Each board's cached body follows its own day's games: a save at another club
    day's table (another club night on the same site) does not draw it again, a save at
    its own day's table does."""
    day = today["day"]
    other_day = ClubDayFactory(date=timezone.localdate(), title="Another room")
    others = games.people(4, prefix="O")
    elsewhere = games.play(
        TableFactory(round__day=other_day, seated=others), [others[:2], others[2:]], [[WIN, LOSE]]
    )
    client.get(reverse("scoring:board_link", args=[day.board_code]))
    client.get(live_url(day))  # draws and caches the body
    play_on(elsewhere, [LOSE, WIN])
    with django_assert_max_num_queries(5):  # club, session, day, fingerprint, cached body
        assert "Game 1 · 1 hand" in client.get(live_url(day)).content.decode()
    play_on(today["playing"], [LOSE, WIN])
    assert "Game 1 · 2 hands" in client.get(live_url(day)).content.decode()
