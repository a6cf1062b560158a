"""Standings and players' pages that read well: the main columns and every column,
"not ranked yet" said as such, "Find my row", "Leading" for a game in play, and the
rating on its friendly scale with its sentence."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import ClubSettings, RatingPoint
from scoring.results import ratings
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db

STANDINGS = reverse("scoring:standings")


def text(response):
    return response.content.decode()


def min_games(n):
    ClubSettings.objects.update_or_create(defaults={"min_games_to_rank": n})


# -- not ranked yet


def test_nobody_ranked_yet_is_said_as_such_with_everyone_who_played(small_club, member_client):
    min_games(10)
    page = text(member_client.get(STANDINGS + "?season=all"))
    assert "No finished games in this period yet" not in page
    assert "Nobody is ranked yet: a player needs 10 games in this period." in page
    assert "Not ranked yet: fewer than 10 games" in page
    unranked = page.split("Not ranked yet: fewer than")[1]
    for name in ("Ann Able", "Bob Baker", "Cat Cole", "Dan Dale", "Eve Early"):
        assert name in unranked


def test_a_period_without_games_says_so(db, member_client):
    page = text(member_client.get(STANDINGS + "?season=all"))
    assert "No finished games in this period yet." in page
    assert "Not ranked yet" not in page


# -- the main columns and every column


def test_main_columns_first_and_every_column_one_tap_away(small_club, member_client):
    min_games(1)
    main = member_client.get(STANDINGS + "?season=all")
    headers = [c.header for c in main.context["table"].columns]
    assert headers == ["Rank", "Player", "Games", "Won", "Win %", "Difference", "Rating"]
    assert "More columns: Lost, Points for, Points against, Average" in text(main)
    every = member_client.get(STANDINGS + "?season=all&columns=all")
    assert len(every.context["table"].columns) == 18
    assert "Perfect cuts" in text(every) and "swipe the table sideways" in text(every)


def test_the_clubs_ranking_measures_are_main_columns(small_club, member_client):
    ClubSettings.objects.update_or_create(
        defaults={"min_games_to_rank": 1, "ranking_measures": ["average", "red_threes"]}
    )
    table = member_client.get(STANDINGS + "?season=all").context["table"]
    assert [c.name for c in table.columns][-3:] == ["average", "red_threes", "rating"]


def test_sorting_by_another_column_shows_every_column(small_club, member_client):
    min_games(1)
    response = member_client.get(STANDINGS + "?season=all&sort=-perfect_cuts")
    assert "perfect_cuts" in [c.name for c in response.context["table"].columns]


def test_the_csv_has_every_column_whatever_the_page_shows(small_club, member_client):
    csv = member_client.get(STANDINGS + "?season=all&_export=csv").content.decode("utf-8-sig")
    header = csv.splitlines()[0]
    assert "Perfect cuts" in header and "Rating" in header


# -- find my row


@pytest.fixture
def big_league(member_person):
    """81 ranked people: 80 of a league (60 members "M… Member…", 20 guests) and Mary,
    who sorts after every member on name, descending (page 2 of 50)."""
    min_games(1)
    pool = games.league(days=1, tables=20, games=1)
    a, b, c = pool[0][:3]
    day = ClubDayFactory(date=datetime.date(2025, 3, 20), signed_in=[member_person, a, b, c])
    tbl = TableFactory(round__day=day, seated=[member_person, a, b, c])
    games.win(tbl, [member_person, a], [b, c])
    return pool


def test_find_my_row_goes_to_the_page_and_row_of_the_member(
    big_league, member_client, member_person, django_assert_max_num_queries
):
    url = STANDINGS + "?season=all&sort=-name&find=me"
    with django_assert_max_num_queries(12):
        response = member_client.get(url)
    anchor = f"p-{member_person.pk}"
    assert response.status_code == 302
    assert response["Location"] == f"{STANDINGS}?season=all&sort=-name&page=2#{anchor}"
    page = text(member_client.get(response["Location"]))
    assert f'<tr id="{anchor}" ' in page


def test_the_standings_offer_find_my_row_to_members_only(small_club, member_client):
    assert "Find my row" in text(member_client.get(STANDINGS))
    ClubSettings.objects.update_or_create(defaults={"public_standings": True})
    page = Client().get(STANDINGS + "?find=me")  # a visitor
    assert page.status_code == 200 and "Find my row" not in text(page)


def test_find_my_row_without_games_says_why(small_club, member_client):
    response = member_client.get(STANDINGS + "?season=all&find=me", follow=True)
    assert response.redirect_chain[-1][0] == f"{STANDINGS}?season=all"
    assert "You have no finished games in this period" in text(response)


def test_a_long_standings_page_stays_light(
    big_league, member_client, django_assert_max_num_queries
):
    # 15, and one for the "not final yet" note of days with hands waiting for an OK.
    with django_assert_max_num_queries(16):
        response = member_client.get(STANDINGS + "?season=all")
    assert len(response.context["table"].page.object_list) == 50
    assert len(response.content) < 50_000


# -- a game in play: leading, not winners


def test_the_team_ahead_of_a_game_in_play_is_leading(small_club, member_client):
    A, B, C, D = (small_club[k] for k in "ABCD")
    tbl = TableFactory(
        round__day=small_club["day2"], round__number=2, number=2, seated=[A, B, C, D]
    )
    games.play(tbl, [[A, B], [C, D]], [[LOSE, WIN]])  # Cat & Dan ahead
    url = reverse("scoring:day_result", args=[small_club["day2"].pk])
    response = member_client.get(url)
    page = text(response)
    assert "Winners or leading" in page
    playing = [r for r in response.context["games"].data if not r["finished"]][0]
    assert playing["first_team"] == "Cat Cole & Dan Dale"
    assert '<span class="badge">Leading</span>' in page
    csv = member_client.get(url + "?_export=csv").content.decode("utf-8-sig")
    assert "Leading: Cat Cole & Dan Dale" in csv


def test_a_day_of_finished_games_names_winners(small_club, member_client):
    page = text(member_client.get(reverse("scoring:day_result", args=[small_club["day1"].pk])))
    assert "Winners or leading" not in page and "Leading</span>" not in page


# -- the rating


def test_a_players_page_shows_the_rating_on_the_friendly_scale(small_club, member_client):
    cat = small_club["C"]  # lost all three games: below 1,000, above 0
    latest = RatingPoint.objects.filter(person=cat).order_by("-played_on", "-pk").first()
    shown = ratings.display_rating(latest.ordinal)
    assert 0 < shown < 1000 and latest.ordinal < 0
    page = text(member_client.get(reverse("scoring:player", args=[cat.pk])))
    assert f"<dd>{shown:,}</dd>" in page
    assert ratings.SENTENCE in page and ratings.HOW in page and "σ" not in page
    assert "can go up even after a loss" in page  # why a first loss may raise it
    assert "Start at 1,000; then 3 rated games" in page
    assert f"{latest.ordinal:.1f}" not in page


def test_the_standings_show_the_rating_on_the_friendly_scale(small_club, member_client):
    min_games(1)
    response = member_client.get(STANDINGS + "?season=all")
    for row in response.context["table"].data:
        assert f">{ratings.display_rating(row['rating']):,}</td>" in text(response)
    assert ratings.SENTENCE in text(response)


@pytest.fixture
def mary_played_once(small_club, member_person):
    """Mary (the logged-in member) won one game, with Ann, on day 2."""
    a, b, c = (small_club[k] for k in "ABC")
    tbl = TableFactory(
        round__day=small_club["day2"], round__number=2, seated=[member_person, a, b, c]
    )
    games.win(tbl, [member_person, a], [b, c])
    return {"mary": member_person, "partner": a}


def test_find_my_row_among_those_not_ranked_yet(mary_played_once, member_client):
    min_games(2)
    response = member_client.get(STANDINGS + "?season=all&find=me")
    mary = mary_played_once["mary"]
    assert response["Location"] == f"{STANDINGS}?season=all&u-page=1#p-{mary.pk}"


def test_not_ranked_yet_pages_ten_at_a_time_and_find_my_row_finds_its_page(
    mary_played_once, member_client
):
    """Mary and eleven others have one game each (Mary last by name among them): the
    "Not ranked yet" list shows ten a page, and her row is on its second page."""
    min_games(5)
    day = ClubDayFactory(date=datetime.date(2025, 3, 20))
    for t in range(3):
        four = [MemberFactory(first_name=f"P{t}{i}", last_name=f"Aa{t}{i}") for i in range(4)]
        games.win(TableFactory(round__day=day, seated=four), four[:2], four[2:])
    response = member_client.get(STANDINGS + "?season=all")
    unranked = response.context["unranked"]
    assert len(unranked.page.object_list) == 10 and unranked.paginator.num_pages >= 2
    mary = mary_played_once["mary"]
    found = member_client.get(STANDINGS + "?season=all&find=me")
    assert found["Location"] == f"{STANDINGS}?season=all&u-page=2#p-{mary.pk}"
    second = member_client.get(found["Location"].split("#")[0])
    assert f'id="p-{mary.pk}"' in text(second)


def test_find_my_first_pair_in_the_partnerships(mary_played_once, member_client):
    min_games(1)
    url = reverse("scoring:partnerships")
    assert "Find my first pair" in text(member_client.get(url))
    response = member_client.get(url + "?season=all&find=me")
    page_url, anchor = response["Location"].split("#")
    assert page_url == f"{url}?season=all&page=1"
    ids = {str(mary_played_once[k].pk) for k in ("mary", "partner")}
    assert anchor.startswith("pair-") and set(anchor.split("-")[1:]) == ids
    assert f'<tr id="{anchor}" ' in text(member_client.get(response["Location"]))
