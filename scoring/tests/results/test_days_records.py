"""Day results (games, top six), club records, and the numbers of a player's page."""

import datetime

import pytest

from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import Season
from scoring.results import standings
from scoring.tests import games
from scoring.tests.results.conftest import DAY1, DAY2
from scoring.tests.samples import CONCEALED, CONCEALED_SCORE, LOSE, LOSE_SCORE, WIN

pytestmark = pytest.mark.django_db


def names(people):
    return sorted(p.full_name for p in people)


def test_days_with_results(small_club):
    days = list(standings.days_with_results())
    assert [d.date for d in days] == [DAY2, DAY1]  # newest first
    day2, day1 = days
    assert (day1.game_count, day1.player_count, day1.top_score) == (2, 4, 6600)
    assert (day2.game_count, day2.player_count, day2.top_score) == (1, 4, 5700)
    assert [d.date for d in standings.days_with_results(start=DAY2)] == [DAY2]


def test_day_games(small_club):
    rows = standings.day_games(small_club["day1"])
    assert [(r["table"], r["number"]) for r in rows] == [(1, 1), (1, 2)]
    g1, g2 = rows
    assert names(g1["first_people"]) == ["Ann Able", "Bob Baker"]
    assert (g1["first_score"], g1["other_score"], g1["margin"]) == (5700, 450, 5250)
    assert names(g2["first_people"]) == ["Bob Baker", "Dan Dale"]
    assert g2["first_score"] == 6600 and g2["hands"] == 3 and g2["finished"]


def test_a_game_in_progress_is_listed_but_not_in_the_top_scores(small_club):
    A, B, C, D = (small_club[k] for k in "ABCD")
    tbl = TableFactory(
        round__day=small_club["day2"], round__number=2, number=2, seated=[A, B, C, D]
    )
    games.play(tbl, [[A, B], [C, D]], [[WIN, LOSE]])  # 1,900 to 150 after one hand
    rows = standings.day_games(small_club["day2"])
    assert [r["status"] for r in rows] == ["Finished", "Playing"]
    assert [r["score"] for r in standings.top_scores(small_club["day2"])] == [5700, 450]


def test_top_six_is_tie_aware(small_club):
    top = standings.top_scores(small_club["day1"], 6)
    assert [(r["rank"], r["score"]) for r in top] == [(1, 6600), (2, 5700), (3, 450), (3, 450)]
    # Asking for three includes everyone equal to the third score.
    assert len(standings.top_scores(small_club["day1"], 3)) == 4
    assert [r["score"] for r in standings.top_scores(small_club["day1"], 2)] == [6600, 5700]


def test_top_six_of_a_busy_day(db):
    everyone = games.people(16)
    day = ClubDayFactory(date=datetime.date(2025, 5, 1))
    for t in range(4):
        a, c, d, e = everyone[4 * t : 4 * t + 4]
        tbl = TableFactory(round__day=day, number=t + 1, seated=[a, c, d, e])
        hands = [[WIN, LOSE]] * 3 if t % 2 else [[CONCEALED, LOSE], [WIN, LOSE], [WIN, LOSE]]
        games.play(tbl, [[a, d], [c, e]], hands)
    top = standings.top_scores(day, 6)
    scores = [r["score"] for r in top]
    assert scores == [6600, 6600, 5700, 5700, 450, 450, 450, 450]
    assert [r["rank"] for r in top] == [1, 1, 3, 3, 5, 5, 5, 5]


def test_records(small_club):
    hands = standings.highest_hands()
    assert hands[0].hand_score == 2800
    assert names(m.person for m in hands[0].team.memberships.all()) == ["Bob Baker", "Dan Dale"]
    games = standings.highest_games()
    assert [g.total for g in games[:3]] == [6600, 5700, 5700]
    canastas = standings.most_canastas()
    assert canastas[0].canastas == 9 and len(canastas) == 3
    fours = list(standings.four_red_threes())
    assert [(t.red_threes, t.hand.number) for t in fours] == [(4, 1)]


def test_winning_streaks(small_club):
    streaks = standings.winning_streaks()
    top = streaks[0]
    assert (top["person"].full_name, top["length"], top["start"], top["end"]) == (
        "Bob Baker",
        2,
        DAY1,
        DAY1,
    )
    assert top["rank"] == 1
    assert {s["person"].full_name for s in streaks if s["length"] == 1} == {
        "Ann Able",
        "Dan Dale",
        "Eve Early",
    }
    assert "Cat Cole" not in {s["person"].full_name for s in streaks}


def test_streak_continues_across_days(db):
    a, c, d, e = games.people(4)
    for week in range(3):
        day = ClubDayFactory(date=datetime.date(2025, 1, 2) + datetime.timedelta(days=7 * week))
        tbl = TableFactory(round__day=day, seated=[a, c, d, e])
        games.win(tbl, [a, d], [c, e])
        games.win(tbl, [a, c], [d, e])
    top = standings.winning_streaks()[0]
    assert (top["person"], top["length"]) == (a, 6)


def test_most_games_in_a_season(small_club):
    assert standings.most_games_in_a_season() == []  # no seasons yet
    march = Season.objects.create(
        name="March", start=datetime.date(2025, 3, 1), end=datetime.date(2025, 3, 31)
    )
    second = Season.objects.create(name="Second week", start=DAY2, end=DAY2)
    rows = standings.most_games_in_a_season()
    top = [(r["season"].name, r["person"].full_name, r["games"], r["rank"]) for r in rows[:3]]
    assert top == [
        ("March", "Ann Able", 3, 1),
        ("March", "Bob Baker", 3, 1),
        ("March", "Cat Cole", 3, 1),
    ]
    # Overlapping seasons each count their games.
    assert {(r["season"], r["games"]) for r in rows if r["person"] == small_club["E"]} == {
        (march, 1),
        (second, 1),
    }


def test_player_numbers(small_club):
    A, B = small_club["A"], small_club["B"]
    opponents = {r["name"]: r for r in standings.opponents(A)}
    assert {n: (r["games"], r["wins"], r["losses"]) for n, r in opponents.items()} == {
        "Bob Baker": (2, 1, 1),
        "Cat Cole": (2, 2, 0),
        "Dan Dale": (2, 1, 1),
    }
    assert opponents["Cat Cole"]["points_for"] == 11400  # 5,700 twice
    assert opponents["Cat Cole"]["points_against"] == 900
    partners = {r["partner"]["name"]: (r["games"], r["wins"]) for r in standings.partners(A)}
    assert partners == {"Bob Baker": (1, 1), "Cat Cole": (1, 0), "Eve Early": (1, 1)}
    bests = standings.personal_bests(B)
    assert bests["best_game"]["value"] == 6600
    assert bests["best_hand"]["value"] == 2800 and bests["best_hand"]["hand"] == 1
    assert bests["most_canastas"]["value"] == 9
    assert bests["most_red_threes"]["value"] == 4
    assert bests["streak"]["length"] == 2
    assert bests["best_rating"]["value"] > 0
    assert [s for _, s in standings.score_series(A)] == [5700, 450, 5700]
    assert len(standings.rating_series(A)) == 3
    assert standings.player_games(A).count() == 3


def test_best_hand_keeps_the_highest_of_several_hands(db):
    """The best hand is the highest of all a team's hands, not its first or its last:
    here the big hand is the second of three, between two smaller ones."""
    a, c, d, e = games.people(4)
    tbl = TableFactory(round__day=ClubDayFactory(date=DAY1), seated=[a, c, d, e])
    games.play(tbl, [[a, c], [d, e]], [[WIN, LOSE], [CONCEALED, LOSE], [WIN, LOSE]])
    rows = {r["person_id"]: r for r in standings.individual()}
    assert rows[a.pk]["best_hand"] == rows[c.pk]["best_hand"] == CONCEALED_SCORE
    assert rows[d.pk]["best_hand"] == LOSE_SCORE
    pair = next(r for r in standings.partnerships() if set(r["pair"]) == {a.pk, c.pk})
    assert pair["best_hand"] == CONCEALED_SCORE
    bests = standings.personal_bests(a)
    assert (bests["best_hand"]["value"], bests["best_hand"]["hand"]) == (CONCEALED_SCORE, 2)
    assert standings.highest_hands()[0].hand.number == 2


def test_personal_bests_of_someone_who_never_played(db):
    nobody = MemberFactory(first_name="No", last_name="Games")
    bests = standings.personal_bests(nobody)
    assert not any(bests.values())
    assert standings.score_series(nobody) == []
