"""Standings arithmetic against hand-made games (built through the services), ranking,
the minimum number of games, the guest filter, partnerships and periods."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from members.tests.factories import TableFactory
from scoring.models import ClubSettings, Season
from scoring.results import standings
from scoring.tests import games
from scoring.tests.results.conftest import DAY1, DAY2
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db


def by_name(rows):
    return {r["name"]: r for r in rows}


# Every measure worked out by hand from the games in conftest.small_club:
#   game 1: A&B 5,700 (3 × WIN: 6 natural, 3 mixed, 3 red threes, 3 times out) v C&D 450
#   game 2: B&D 6,600 (CONCEALED + 2 WIN: 6 natural, 3 mixed, 4+1+1 red threes, 3 out of which
#           1 concealed, 1 perfect cut; best hand 2,800) v A&C 450 (3 × LOSE = 150 each)
#   game 3: A&E 5,700 v B&C 450
EXPECTED = {
    "Ann Able": {
        "games": 3,
        "wins": 2,
        "losses": 1,
        "win_pct": 66.7,
        "points_for": 11850,
        "points_against": 7500,
        "differential": 4350,
        "average": 3950.0,
        "hands": 9,
        "natural_canastas": 12,
        "mixed_canastas": 6,
        "red_threes": 6,
        "times_out": 6,
        "concealed_outs": 0,
        "perfect_cuts": 0,
        "best_game": 5700,
        "best_hand": 1900,
    },
    "Bob Baker": {
        "games": 3,
        "wins": 2,
        "losses": 1,
        "win_pct": 66.7,
        "points_for": 12750,
        "points_against": 6600,
        "differential": 6150,
        "average": 4250.0,
        "hands": 9,
        "natural_canastas": 12,
        "mixed_canastas": 6,
        "red_threes": 9,
        "times_out": 6,
        "concealed_outs": 1,
        "perfect_cuts": 1,
        "best_game": 6600,
        "best_hand": 2800,
    },
    "Cat Cole": {
        "games": 3,
        "wins": 0,
        "losses": 3,
        "win_pct": 0.0,
        "points_for": 1350,
        "points_against": 18000,
        "differential": -16650,
        "average": 450.0,
        "hands": 9,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": 0,
        "times_out": 0,
        "concealed_outs": 0,
        "perfect_cuts": 0,
        "best_game": 450,
        "best_hand": 150,
    },
    "Dan Dale": {
        "games": 2,
        "wins": 1,
        "losses": 1,
        "win_pct": 50.0,
        "points_for": 7050,
        "points_against": 6150,
        "differential": 900,
        "average": 3525.0,
        "hands": 6,
        "natural_canastas": 6,
        "mixed_canastas": 3,
        "red_threes": 6,
        "times_out": 3,
        "concealed_outs": 1,
        "perfect_cuts": 1,
        "best_game": 6600,
        "best_hand": 2800,
    },
    "Eve Early": {
        "games": 1,
        "wins": 1,
        "losses": 0,
        "win_pct": 100.0,
        "points_for": 5700,
        "points_against": 450,
        "differential": 5250,
        "average": 5700.0,
        "hands": 3,
        "natural_canastas": 6,
        "mixed_canastas": 3,
        "red_threes": 3,
        "times_out": 3,
        "concealed_outs": 0,
        "perfect_cuts": 0,
        "best_game": 5700,
        "best_hand": 1900,
    },
}


def test_every_measure_by_hand(small_club):
    rows = by_name(standings.individual())
    assert set(rows) == set(EXPECTED)
    for name, expected in EXPECTED.items():
        got = {key: rows[name][key] for key in expected}
        assert got == expected, name


def test_totals_match_the_stored_game_teams(small_club):
    from scoring.models import GameTeam

    rows = standings.individual()
    total_points = sum(t.total for t in GameTeam.objects.all())
    # Each team total is credited to both of its two players.
    assert sum(r["points_for"] for r in rows) == 2 * total_points
    assert sum(r["wins"] for r in rows) == 2 * 3
    assert sum(r["games"] for r in rows) == 4 * 3


def test_unfinished_games_do_not_count(small_club):
    A, B, C, D = (small_club[k] for k in "ABCD")
    tbl = TableFactory(
        round__day=small_club["day2"], round__number=2, number=2, seated=[A, B, C, D]
    )
    games.play(tbl, [[A, B], [C, D]], [[WIN, LOSE]])  # one hand: still playing
    assert by_name(standings.individual())["Ann Able"]["games"] == 3


def test_period_limits_the_games(small_club):
    rows = by_name(standings.individual(DAY1, DAY1))
    assert set(rows) == {"Ann Able", "Bob Baker", "Cat Cole", "Dan Dale"}
    assert rows["Ann Able"]["games"] == 2
    assert rows["Ann Able"]["points_for"] == 5700 + 450
    rows = by_name(standings.individual(start=DAY2))
    assert rows["Ann Able"]["games"] == 1
    assert standings.individual(end=DAY1 - datetime.timedelta(days=1)) == []


def test_guests_hidden(small_club):
    rows = by_name(standings.individual(include_guests=False))
    assert "Eve Early" not in rows
    # Hiding guests hides their rows, not the games members played with them.
    assert rows["Ann Able"]["games"] == 3


def test_default_ranking_win_pct_then_differential(small_club):
    result = standings.standings(min_games=2, measures=["win_pct", "differential"])
    order = [(r["rank"], r["name"]) for r in result.ranked]
    # Ann and Bob are level on win % (2 of 3); Bob's difference is larger.
    assert order == [(1, "Bob Baker"), (2, "Ann Able"), (3, "Dan Dale"), (4, "Cat Cole")]
    assert [r["name"] for r in result.unranked] == ["Eve Early"]
    assert result.unranked[0]["rank"] is None


def test_ties_share_a_place_and_skip_the_next(small_club):
    result = standings.standings(min_games=2, measures=["win_pct"])
    ranks = [(r["rank"], r["name"], r["tied"]) for r in result.ranked]
    assert ranks == [
        (1, "Ann Able", True),
        (1, "Bob Baker", True),
        (3, "Dan Dale", False),
        (4, "Cat Cole", False),
    ]


def test_club_settings_choose_measures_and_minimum(small_club):
    club = ClubSettings.load()
    club.ranking_measures = ["points_against", "wins"]
    club.min_games_to_rank = 3
    club.save()
    result = standings.standings()
    assert result.measures == ["points_against", "wins"]
    # Lower points against is better.
    assert [r["name"] for r in result.ranked] == ["Bob Baker", "Ann Able", "Cat Cole"]
    assert {r["name"] for r in result.unranked} == {"Dan Dale", "Eve Early"}
    # Unranked: most games first.
    assert result.unranked[0]["name"] == "Dan Dale"


def test_unknown_measures_fall_back_to_the_default():
    assert standings.clean_measures(["nonsense"]) == ["win_pct", "differential"]
    assert standings.clean_measures(["wins", "wins", "rating"]) == ["wins", "rating"]
    assert standings.measures_label([]) == "Win %, then Points difference"


def test_partnerships(small_club):
    rows = {frozenset(r["name"].split(" & ")): r for r in standings.partnerships()}
    assert len(rows) == 6  # every pair that played on the same side, once
    ab = rows[frozenset({"Ann Able", "Bob Baker"})]
    assert (ab["games"], ab["wins"], ab["points_for"], ab["points_against"]) == (1, 1, 5700, 450)
    bd = rows[frozenset({"Bob Baker", "Dan Dale"})]
    assert (bd["natural_canastas"], bd["red_threes"], bd["concealed_outs"]) == (6, 6, 1)
    assert bd["best_hand"] == 2800
    assert ab["a"]["person_id"] < ab["b"]["person_id"]


def test_partnerships_hide_pairs_with_a_guest(small_club):
    rows = standings.partnerships(include_guests=False)
    assert len(rows) == 5
    assert all("Eve" not in r["name"] for r in rows)


def test_partnership_standings_ranked(small_club):
    result = standings.partnership_standings(min_games=1, measures=["win_pct", "differential"])
    top = result.ranked[0]
    assert top["name"] == "Bob Baker & Dan Dale"  # 100 %, +6,150
    assert [r["rank"] for r in result.ranked][:3] == [1, 2, 2]  # A&B and A&E: 100 %, +5,250


def test_ratings_shown_beside_standings(small_club):
    rows = by_name(standings.individual())
    assert rows["Ann Able"]["rating"] > 0 > rows["Cat Cole"]["rating"]
    # At the end of day 1, Eve had not played yet.
    assert by_name(standings.individual(end=DAY1)).get("Eve Early") is None


def test_rating_as_a_measure_puts_unrated_last():
    rows = [
        {"name": "x", "sort_name": "x", "games": 1, "wins": 1, "points_for": 1, "rating": None},
        {"name": "y", "sort_name": "y", "games": 1, "wins": 0, "points_for": 1, "rating": -3.0},
    ]
    assert [r["name"] for r in standings.rank(rows, ["rating"])] == ["y", "x"]


# -- seasons and periods


def test_current_season(db):
    today = datetime.date(2025, 6, 1)
    assert standings.current_season(today) is None
    assert standings.default_period(today) == standings.ALL_GAMES
    old = Season.objects.create(
        name="2024", start=datetime.date(2024, 1, 1), end=datetime.date(2024, 12, 31)
    )
    assert standings.current_season(today) == old  # none contains today: the latest
    now = Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    assert standings.current_season(today) == now
    summer = Season.objects.create(
        name="Summer", start=datetime.date(2025, 5, 1), end=datetime.date(2025, 8, 31)
    )
    assert standings.current_season(today) == summer  # overlapping: the latest start
    Season.objects.create(
        name="2030", start=datetime.date(2030, 1, 1), end=datetime.date(2030, 12, 31)
    )
    assert standings.current_season(today) == summer  # a future season is not current
    twin = Season.objects.create(name="A twin", start=summer.start, end=summer.end)
    assert standings.current_season(today) == twin  # the same start: the later one
    # Given the seasons already read (in any order), the same answer with no query.
    read = list(Season.objects.order_by("name"))
    for day in (today, datetime.date(2024, 6, 1), datetime.date(2020, 1, 1)):
        with CaptureQueriesContext(connection) as queries:
            given = standings.current_season(day, read), standings.default_period(day, read)
        assert given == (standings.current_season(day), standings.default_period(day))
        assert not queries.captured_queries
    period = standings.season_period(now)
    assert (period.start, period.end) == (now.start, now.end)
    assert period.label.startswith("2025 (")
    assert period.slug == "2025"


def test_overlapping_seasons(db):
    a = Season.objects.create(
        name="A", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 6, 30)
    )
    assert standings.overlapping_seasons(datetime.date(2025, 6, 30), datetime.date(2025, 9, 1)) == [
        a
    ]
    assert standings.overlapping_seasons(datetime.date(2025, 7, 1), datetime.date(2025, 9, 1)) == []
    assert standings.overlapping_seasons(a.start, a.end, exclude_pk=a.pk) == []


def test_period_labels():
    assert standings.ALL_GAMES.label == "All games"
    p = standings.Period(start=datetime.date(2025, 1, 1))
    assert p.label == "from 1 Jan 2025"
    assert p.slug == "2025-01-01_to_today"
    assert p.contains(datetime.date(2025, 1, 1)) and not p.contains(datetime.date(2024, 12, 31))


@pytest.mark.django_db(False)
def test_equal_ratios_tie_and_close_ones_do_not():
    """Win % and average rank by the exact ratio of their whole numbers: 1 of 3 and 2 of
    6 share a place, 333 of 1,000 is below 1 of 3 although both show as 33.3 %, and
    averages a point apart in a long history are told apart."""
    from scoring.results.standings.ranking import rank

    def row(name, wins, games, points):
        return {"sort_name": name, "wins": wins, "games": games, "points_for": points}

    rows = [
        row("a", 1, 3, 300),
        row("b", 2, 6, 600),
        row("c", 333, 1000, 100_000),
        row("d", 2, 6, 601),
        row("e", 100_000, 300_001, 1),
    ]
    ranked = rank(rows, ["win_pct"])
    assert [(r["sort_name"], r["rank"], r["tied"]) for r in ranked] == [
        ("a", 1, True),
        ("b", 1, True),
        ("d", 1, True),
        ("e", 4, False),
        ("c", 5, False),
    ]
    by_average = rank(
        [row("x", 0, 400_000, 400_000 * 5_000 + 1), row("y", 0, 400_001, 400_001 * 5_000)],
        ["average"],
    )
    assert [(r["sort_name"], r["tied"]) for r in by_average] == [("x", False), ("y", False)]
