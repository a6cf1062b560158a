"""The event on the room board and the table phones: the clock and "time called",
each table's next seating, the phone's taps; what a poll and a table page cost with an
event running and without one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from members.models import Table
from scoring.models import Game
from scoring.tests.tourney.conftest import key, play_round
from scoring.tourney import reads
from scoring.tourney.models import Arrival, Event, EventRound
from scoring.tourney.services.clock import pause, shift
from scoring.tourney.services.rounds import end_current_round, start_next_round
from scoring.tourney.services.setup import create_event, delete_event

pytestmark = pytest.mark.django_db


def live_url(day):
    return reverse("scoring:board_live", args=[day.pk])


def table_url(table):
    return reverse("scoring:table", args=[table.pk])


def _board_client(client, day):
    client.get(reverse("scoring:board_link", args=[day.board_code]))
    return client


def _link_client(client, table):
    assert client.get(f"/t/{table.token}/").status_code == 302
    return client


def test_the_board_counts_down_from_the_deadline_and_calls_time(client, day, event):
    now = timezone.now()
    start_next_round(event, number=1, key=key(), now=now - dt.timedelta(minutes=45))
    html = _board_client(client, day).get(live_url(day)).content.decode()
    assert "Round 1 of 3" in html and "Spring pairs" in html
    deadline = int((now + dt.timedelta(minutes=5)).timestamp())
    assert f'data-deadline="{deadline}"' in html or f'data-deadline="{deadline - 1}"' in html
    assert "Last minutes" in html  # 5 minutes left, the warning is at 10
    row = EventRound.objects.get()
    row.started_at = now - dt.timedelta(minutes=51)
    row.save()
    shift(event, number=1, minutes=1, key=key(), now=now)  # an event write: a new version
    html = client.get(live_url(day)).content.decode()
    assert "Time called" in html and "stop playing" in html


def test_between_rounds_the_board_shows_where_everyone_sits(client, day, event):
    now = timezone.now()
    row = start_next_round(event, number=1, key=key(), now=now)
    play_round(row)
    end_current_round(event, number=1, key=key(), now=now)
    html = _board_client(client, day).get(live_url(day)).content.decode()
    assert "Round 2: where everyone sits" in html
    assert "(from table 1)" in html  # East–West of table 1 moved up to table 2


def test_a_board_poll_costs_the_same_with_an_event_and_without(
    client, day, event, seated, django_assert_max_num_queries
):
    _board_client(client, day)
    client.get(live_url(day))
    # The club, the session, the day, the fingerprint (with the event's version) and
    # the cached body: no day without an event pays for events.
    with django_assert_max_num_queries(5) as without:
        client.get(live_url(day))
    assert not any("tourney_" in q["sql"] for q in without.captured_queries[:3])
    start_next_round(event, number=1, key=key(), now=timezone.now())
    client.get(live_url(day))
    with django_assert_max_num_queries(5):
        client.get(live_url(day))


def test_the_board_of_a_day_without_an_event_reads_no_event_table(
    client, day, seated, django_assert_max_num_queries
):
    _board_client(client, day)
    with django_assert_max_num_queries(30) as drawn:
        html = client.get(live_url(day)).content.decode()
    assert "Round 1 of" not in html
    tourney = [q["sql"] for q in drawn.captured_queries if 'FROM "tourney_' in q["sql"]]
    assert tourney == []


def _events_asked(queries) -> list[str]:
    """The statements that read the event tables or the event's copy in the cache."""
    return [q["sql"] for q in queries if "tourney_" in q["sql"] or "tourney:day" in q["sql"]]


def test_a_table_page_of_a_day_without_an_event_asks_nothing_about_events(
    client, day, seated, django_assert_max_num_queries
):
    table = Table.objects.get(number=1)
    _link_client(client, table)
    client.get(table_url(table))
    with django_assert_max_num_queries(20) as page:
        html = client.get(table_url(table)).content.decode()
    assert "event-phone" not in html
    # Not the event tables, and not the shared cache either (a SELECT of the cache
    # table with the default database cache): the day says it has no event.
    assert _events_asked(page.captured_queries) == []


def test_a_table_page_of_a_day_with_an_event_reads_only_the_cache_once(
    client, day, event, seated, django_assert_max_num_queries
):
    row = start_next_round(event, number=1, key=key(), now=timezone.now())
    table = Table.objects.get(round_id=row.round_id, number=1)
    _link_client(client, table)
    client.get(table_url(table))
    with django_assert_max_num_queries(25) as page:
        html = client.get(table_url(table)).content.decode()
    assert "event-phone" in html and "Round 1 of 3" in html
    sqls = _events_asked(page.captured_queries)
    assert not any("tourney_" in sql for sql in sqls)
    assert len(sqls) == 1 and "tourney:day" in sqls[0]  # one read of the shared cache


def test_a_deleted_event_leaves_an_ordinary_club_day(
    client, day, event, seated, django_assert_max_num_queries
):
    day.refresh_from_db()
    assert day.has_event
    delete_event(event)
    day.refresh_from_db()
    assert not day.has_event and not Event.objects.exists()
    table = Table.objects.get(number=1)
    _link_client(client, table)
    with django_assert_max_num_queries(20) as page:
        html = client.get(table_url(table)).content.decode()
    assert "event-phone" not in html
    assert _events_asked(page.captured_queries) == []


def test_the_phone_shows_time_called_and_then_where_its_players_go(client, day, event, seated):
    now = timezone.now()
    row = start_next_round(event, number=1, key=key(), now=now - dt.timedelta(minutes=40))
    play_round(row)  # the hands of the round, before time is called
    table = Table.objects.get(round_id=row.round_id, number=1)
    _link_client(client, table)
    row.started_at = now - dt.timedelta(minutes=52)  # twelve minutes later
    row.save(update_fields=["started_at"])
    Event.objects.filter(pk=event.pk).update(version=event.version + 100)
    reads.refresh(day.pk)
    html = client.get(table_url(table)).content.decode()
    assert "Time is called: stop playing" in html
    end_current_round(event, number=1, key=key(), now=now)
    html = client.get(table_url(table)).content.decode()
    ns = seated[0].full_name, seated[2].full_name
    ew = seated[1].full_name, seated[3].full_name
    for name in ns:
        assert f"{name}: stay at table 1" in html
    for name in ew:
        assert f"{name}: go to table 2" in html
    # The phone stays with its table: it opens table 1 of round 2.
    response = client.post(reverse("scoring:event_follow", args=[table.pk]))
    round2 = EventRound.objects.get(number=2)
    new_table = Table.objects.get(round_id=round2.round_id, number=1)
    assert response["Location"] == table_url(new_table)
    html = client.get(table_url(new_table)).content.decode()
    assert "East–West: we are here" in html


def test_arriving_players_tap_once(client, day, event):
    now = timezone.now()
    row = start_next_round(event, number=1, key=key(), now=now)
    play_round(row)
    end_current_round(event, number=1, key=key(), now=now)
    round2 = EventRound.objects.get(number=2)
    table = Table.objects.get(round_id=round2.round_id, number=3)
    _link_client(client, table)
    url = reverse("scoring:event_arrive", args=[table.pk])
    for _ in range(2):
        assert client.post(url, {"side": "1"}).status_code == 302
    assert Arrival.objects.count() == 1
    html = client.get(table_url(table)).content.decode()
    assert "already" in html.lower() and "East–West: we are here" not in html
    assert client.post(url, {"side": "7"}).status_code == 302
    assert Arrival.objects.count() == 1


def test_a_phone_of_another_table_cannot_tap_for_this_one(client, day, event):
    row = start_next_round(event, number=1, key=key(), now=timezone.now())
    mine = Table.objects.get(round_id=row.round_id, number=1)
    theirs = Table.objects.get(round_id=row.round_id, number=2)
    _link_client(client, mine)
    assert (
        client.post(reverse("scoring:event_arrive", args=[theirs.pk]), {"side": "0"}).status_code
        == 404
    )
    assert client.post(reverse("scoring:event_follow", args=[theirs.pk])).status_code == 404
    assert not Arrival.objects.exists()


def test_anonymous_visitors_cannot_tap(client, day, event):
    row = start_next_round(event, number=1, key=key(), now=timezone.now())
    table = Table.objects.get(round_id=row.round_id, number=1)
    assert (
        client.post(reverse("scoring:event_arrive", args=[table.pk]), {"side": "0"}).status_code
        == 404
    )
    assert not Arrival.objects.exists() and Game.objects.count() == 5


def test_a_late_copy_of_an_earlier_action_never_replaces_a_later_one(event, monkeypatch):
    """Two devices act close together: the director pauses, and a minute more is added
    from another device while the pause's copy is still on its way to the cache. The
    later action's copy must stay, not the pause's (for the rest of the day)."""
    now = timezone.now()
    start_next_round(event, number=1, key=key(), now=now)
    build = reads._build

    def build_then_another_device_acts(day_id):
        paused = build(day_id)  # the pause's copy, built after its commit...
        monkeypatch.setattr(reads, "_build", build)
        shift(event, number=1, minutes=1, key=key(), now=now)  # ...the minute more lands
        return paused  # ...and the pause's copy reaches the cache last

    monkeypatch.setattr(reads, "_build", build_then_another_device_acts)
    pause(event, number=1, key=key(), now=now)
    event.refresh_from_db()
    copy = reads.peek(event.day_id)
    assert copy["version"] == event.version == 3
    row = copy["event_rounds"][0]
    assert row["paused_at"] is not None and row["shift_seconds"] == 60


def test_a_new_event_on_the_day_replaces_the_copy_of_the_deleted_one(day, event, rules):
    start_next_round(event, number=1, key=key(), now=timezone.now())
    old = reads.day_state(day.pk)
    assert old["version"] == 1
    delete_event(event)
    assert reads.day_state(day.pk)["event"] is None
    again = create_event(day, name="Second try", rounds=2, rule_set=rules)
    copy = reads.peek(day.pk)
    assert copy["event"] == again.pk and copy["version"] == 0 and copy["name"] == "Second try"
