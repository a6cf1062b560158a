"""Results that understand single players: a day with a table of four and a table of
three (everyone alone, the day's rules for three). A win is a win, partnerships leave
the singles out, ratings rate three sides of one, and points against are the average
opponent's, so nothing is counted twice."""

import datetime
import importlib

import pytest
from openpyxl import load_workbook

from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import RatingPoint
from scoring.results import exports, standings
from scoring.results.standings.days import day_games
from scoring.results.standings.records import winning_streaks
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 4, 3)


@pytest.fixture
def mixed_day(db):
    four = [MemberFactory(first_name=n, last_name="Four", name_only=True) for n in "ABCD"]
    three = [MemberFactory(first_name=n, last_name="Three", name_only=True) for n in "EFG"]
    day = ClubDayFactory(date=DAY, title="Thursday", signed_in=four + three)
    t1 = TableFactory(round__day=day, seated=four)
    t2 = TableFactory(round=t1.round, seated=three)
    a, b, c, d = four
    pairs = games.win(t1, [a, c], [b, d])
    singles = games.play(t2, [[p] for p in three], [[WIN, LOSE, LOSE]] * 3)
    return {"four": four, "three": three, "day": day, "pairs": pairs, "singles": singles}


def _rows(kind=standings.standings):
    return {r["name"]: r for r in kind(min_games=0).rows}


def test_the_game_is_played_by_three_single_players(mixed_day):
    game = mixed_day["singles"]
    assert game.is_finished and game.rules_name == "Club house rules (three players)"
    assert [t.total for t in game.teams.order_by("index")] == [5700, 450, 450]


def test_a_single_players_win_is_a_win(mixed_day):
    rows = _rows()
    eve, fay = rows["E Three"], rows["F Three"]
    assert (eve["games"], eve["wins"], eve["losses"], eve["win_pct"]) == (1, 1, 0, 100.0)
    assert (fay["games"], fay["wins"], fay["losses"]) == (1, 0, 1)
    # Points against: the average opponent's total, as in a game of two sides.
    assert (eve["points_for"], eve["points_against"], eve["differential"]) == (5700, 450, 5250)
    assert (fay["points_against"], fay["differential"]) == (3075, -2625)
    # The partnership game is unchanged.
    assert (rows["A Four"]["points_against"], rows["A Four"]["differential"]) == (450, 5250)


def test_partnerships_leave_single_players_out(mixed_day):
    rows = _rows(standings.partnership_standings)
    assert set(rows) == {"A Four & C Four", "B Four & D Four"}


def test_day_results_and_records_count_the_three_player_game(mixed_day):
    game_rows = {r["table"]: r for r in day_games(mixed_day["day"])}
    single = game_rows[2]
    assert single["first_team"] == "E Three" and single["first_score"] == 5700
    assert single["other_teams"] == "F Three / G Three"
    assert single["other_scores"] == "450 / 450" and single["margin"] == 5250
    streaks = {r["person"].first_name: r["length"] for r in winning_streaks()}
    assert streaks == {"A": 1, "C": 1, "E": 1}


def test_ratings_rate_three_sides_of_one(mixed_day):
    eve, fay, gus = mixed_day["three"]
    points = {p.person_id: p for p in RatingPoint.objects.filter(game=mixed_day["singles"])}
    assert set(points) == {eve.pk, fay.pk, gus.pk}
    assert points[eve.pk].ordinal > points[fay.pk].ordinal
    # Fay and Gus tied on 450: they share a rank and their ratings move alike.
    assert points[fay.pk].mu == pytest.approx(points[gus.pk].mu)
    # A win alone against two moves the rating further than a win with a partner
    # against two (the same final scores).
    a = mixed_day["four"][0]
    pair_point = RatingPoint.objects.get(game=mixed_day["pairs"], person=a)
    assert points[eve.pk].mu > pair_point.mu


def test_the_workbook_lists_the_three_player_game(mixed_day, tmp_path):
    path = tmp_path / "league.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    wb = load_workbook(path)
    header, *body = list(wb["Games"].iter_rows(values_only=True))
    rows = [dict(zip(header, r, strict=True)) for r in body]
    single = next(r for r in rows if r["Table"] == 2)
    assert single["Winners"] == "E Three" and single["Winning score"] == 5700
    sides = [single[f"Team {i} score"] for i in (1, 2, 3)]
    assert sides == [5700, 450, 450]
    head, *people = list(wb["Standings"].iter_rows(values_only=True))
    sheet = {r[head.index("Player")]: dict(zip(head, r, strict=True)) for r in people}
    eve, fay = sheet["E Three"], sheet["F Three"]
    assert (eve["Games"], eve["Won"], eve["Difference"]) == (1, 1, 5250)
    assert (fay["Won"], fay["Points against"], fay["Difference"]) == (0, 3075, -2625)


def test_the_migration_redoes_points_against_of_games_of_three(mixed_day):
    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0011_three_tables")
    singles = mixed_day["singles"].teams.order_by("index")
    singles.update(points_against=0)  # as stored before: here, anything else
    migration.average_opponent(apps, None)
    assert list(singles.values_list("points_against", flat=True)) == [450, 3075, 3075]


def test_three_sides_never_read_as_partners(mixed_day, member_client):
    """The day's games table and a player's games list the two other single players as
    two sides ("E Three / F Three"), never "E Three & F Three" as if partners."""
    from django.urls import reverse

    page = member_client.get(reverse("scoring:day_result", args=[mixed_day["day"].pk]))
    text = page.content.decode()
    e, f, g = mixed_day["three"]
    assert f"{f.full_name}</a> / <a" in text
    assert f"{f.full_name}</a> &amp; <a" not in text
    row = member_client.get(reverse("scoring:player", args=[e.pk])).content.decode()
    assert f"{f.full_name}</a> / <a" in row and f"{f.full_name}</a> &amp; <a" not in row
    csv = member_client.get(
        reverse("scoring:day_result", args=[mixed_day["day"].pk]), {"_export": "csv"}
    ).content.decode()
    assert f"{f.full_name} / {g.full_name}" in csv or f"{f.display_name} / {g.display_name}" in csv
