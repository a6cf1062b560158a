"""The event's own ranking beside the day's results: the printable day sheet, the
results e-mail and the league workbook show it on a day with an event; a day without
one shows nothing new and its pages make no query for events."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.results import board as results_board
from scoring.results import exports, standings
from scoring.results.board import day_report
from scoring.results.mail import build_message, rating_changes
from scoring.tests import games
from scoring.tests.tourney.conftest import START, key, play_round
from scoring.tourney.services.rounds import end_current_round, start_next_round

pytestmark = pytest.mark.django_db

#: Round 2 as in the ranking tests: East–West 5 beats North–South 1 at table 1.
ROUND_2 = {1: 1, 2: "small", 3: "small", 4: "small", 5: "small"}


@pytest.fixture
def played(event):
    now = START
    for number in (1, 2, 3):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row, winners=ROUND_2 if number == 2 else None)
        now += dt.timedelta(minutes=50)
        end_current_round(event, number=number, key=key(), now=now)
    event.refresh_from_db()
    return event


@pytest.fixture
def ordinary_day(db):
    """A day without an event: one finished game."""
    ann, bob, cat, dan = games.people(4)
    day = ClubDayFactory(date=dt.date(2026, 10, 1))
    games.win(TableFactory(round__day=day, seated=[ann, cat, bob, dan]), [ann, bob], [cat, dan])
    return day


def _sheet(client, day):
    return client.get(reverse("scoring:day_sheet", args=[day.pk])).content.decode()


def test_the_day_sheet_shows_the_events_ranking_by_line(member_client, played, seated):
    html = _sheet(member_client, played.day)
    assert "The event's ranking · Spring pairs" in html
    part = html[html.index('class="sheet-event"') :]
    assert part.index("<h3>North–South</h3>") < part.index("<h3>East–West</h3>")
    ns2 = f"{seated[4].full_name} &amp; {seated[6].full_name}"  # North–South 2
    assert f"<td>1=</td><td>{ns2}</td>" in part and "59 victory points" in part
    ew5 = f"{seated[17].full_name} &amp; {seated[19].full_name}"  # East–West 5
    assert f"<td>1</td><td>{ew5}</td>" in part and "20 victory points" in part


def test_the_results_email_shows_the_events_ranking(played, seated):
    person = seated[0]
    content = {**day_report(played.day), "rating_changes": rating_changes(played.day)}
    message = build_message(person, content, lambda url: f"https://club.test{url}")
    body = message.body
    assert "THE EVENT'S RANKING · Spring pairs" in body
    assert body.index("North–South\n") < body.index("East–West\n")
    assert f"1=. {seated[4].full_name} & {seated[6].full_name}: 59 victory points" in body
    assert f"1. {seated[17].full_name} & {seated[19].full_name}: 20 victory points" in body
    html = message.alternatives[0][0]
    assert "The event's ranking · Spring pairs</h2>" in html and "<h3>East–West</h3>" in html
    assert "59 victory points" in html


def test_the_workbook_has_the_events_own_ranking(played, tmp_path):
    path = tmp_path / "league.xlsx"
    counts = exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    wb = load_workbook(path)
    assert wb.sheetnames[-1] == "Events" and counts["Events"] == 10
    header, *rows = [list(r) for r in wb["Events"].iter_rows(values_only=True)]
    got = [dict(zip(header, r, strict=True)) for r in rows]
    first = got[0]
    assert (first["Event"], first["Section"], first["Place"], first["Tied"]) == (
        "Spring pairs",
        "North–South",
        1,
        "Yes",
    )
    assert (first["Entrant"], first["Victory points"], first["Points for"]) == (
        "North–South 2",
        59,
        1900 + 1400 + 1900,
    )
    ew5 = next(r for r in got if r["Entrant"] == "East–West 5")
    assert (ew5["Section"], ew5["Place"], ew5["Tied"], ew5["Victory points"]) == (
        "East–West",
        1,
        None,
        20,
    )


def test_a_workbook_without_events_has_no_events_sheet(ordinary_day, tmp_path):
    path = tmp_path / "league.xlsx"
    counts = exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    assert "Events" not in load_workbook(path).sheetnames and "Events" not in counts


def _count(client, url, django_assert_max_num_queries):
    with django_assert_max_num_queries(100) as seen:
        response = client.get(url)
    assert response.status_code == 200
    assert not any("tourney" in q["sql"] for q in seen.captured_queries)
    return len(seen.captured_queries)


def test_a_day_without_an_event_shows_nothing_new_and_asks_nothing(
    member_client, ordinary_day, monkeypatch, django_assert_max_num_queries
):
    urls = [
        reverse("scoring:day_sheet", args=[ordinary_day.pk]),
        reverse("scoring:day_result", args=[ordinary_day.pk]),
    ]
    for url in urls:
        html = member_client.get(url).content.decode()  # warm what the site caches
        assert "event" not in html.casefold() and "/ranking/" not in html
    counted = [_count(member_client, url, django_assert_max_num_queries) for url in urls]
    # The same pages with the event's part taken out cost exactly as much: a day
    # without an event pays no query for it.
    monkeypatch.setattr(results_board, "day_event_ranking", lambda day: None)
    again = [_count(member_client, url, django_assert_max_num_queries) for url in urls]
    assert counted == again
    content = day_report(ordinary_day)
    assert content["event_ranking"] is None


def test_the_results_email_of_a_day_without_an_event_is_as_before(
    ordinary_day, django_assert_max_num_queries
):
    with django_assert_max_num_queries(30) as seen:
        content = {**day_report(ordinary_day), "rating_changes": rating_changes(ordinary_day)}
    assert not any("tourney" in q["sql"] for q in seen.captured_queries)
    person = games.people(1, prefix="Q")[0]
    body = build_message(person, content, lambda url: url).body
    assert "EVENT" not in body and "ALL GAMES" in body
