"""The results pages' cached bodies: when they are used again and when they are not.

Standings, records and players' pages read finished games only, so a hand of a game
still in play must not empty their cache (on a club day hands are saved every few
seconds), while anything that changes a finished game, the ratings, the seasons, the
ranking settings or a name must. The day pages show games in play and follow every hand.
"""

import datetime

import pytest
from django.test import TestCase
from django.urls import reverse

from members.models import Person
from members.services.merge import merge_people
from members.tests.factories import ClubDayFactory, TableFactory
from scoring.models import ClubSettings, Game, Hand, RatingPoint, Season
from scoring.play.services.hands import correct_hand, record_hand, undo_last_hand
from scoring.results import cache, ratings
from scoring.tests import games
from scoring.tests.samples import CONCEALED, LOSE, WIN

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 3, 6)


def served_from_cache(client, url) -> bool:
    """The page came from the cache: its view did not build the body's context."""
    response = client.get(url)
    assert response.status_code == 200
    return not any(key in response.context for key in ("result", "history", "sections"))


@pytest.fixture
def club():
    A, B, C, D = games.people(4, "Cache")
    day = ClubDayFactory(date=DAY, title="Thursday", signed_in=[A, B, C, D])
    finished = games.win(TableFactory(round__day=day, seated=[A, B, C, D]), [A, B], [C, D])
    second = TableFactory(round__day=day, round__number=2, seated=[A, B, C, D])
    in_play = games.play(second, [[A, C], [B, D]], [[LOSE, LOSE]])
    return {"people": [A, B, C, D], "day": day, "finished": finished, "in_play": in_play}


def urls(club):
    return {
        "standings": reverse("scoring:standings") + "?season=all",
        "records": reverse("scoring:records"),
        "player": reverse("scoring:player", args=[club["people"][0].pk]),
    }


def warm(client, club):
    for url in urls(club).values():
        client.get(url)
        assert served_from_cache(client, url), url


def all_rebuilt(client, club) -> bool:
    return not any(served_from_cache(client, url) for url in urls(club).values())


def test_a_hand_of_a_game_in_play_keeps_the_cached_pages(member_client, club):
    warm(member_client, club)
    stamp = cache.results_stamp()
    game = club["in_play"]
    record_hand(game, [LOSE, LOSE], number=game.hand_count + 1)
    assert cache.results_stamp() == stamp
    for url in urls(club).values():
        assert served_from_cache(member_client, url), url
    # The day's page shows games in play: it follows every hand.
    day_url = reverse("scoring:day_result", args=[club["day"].pk])
    member_client.get(day_url)
    assert member_client.get(day_url).context.get("games") is None  # cached
    record_hand(game, [LOSE, LOSE], number=game.hand_count + 1)
    assert member_client.get(day_url).context.get("games") is not None  # rebuilt


def test_a_game_that_finishes_rebuilds_them(member_client, club):
    warm(member_client, club)
    game = club["in_play"]
    for _ in range(3):
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_hand(game, [WIN, LOSE], number=game.hand_count + 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert all_rebuilt(member_client, club)


def test_a_game_of_other_people_keeps_a_players_own_page(member_client, club):
    """A person's page follows that person's own games: on a club night a game finishes
    every few minutes, and only its players' pages are drawn again."""
    E, F, G, H = games.people(4, "Other")  # new people are a change of names: first
    warm(member_client, club)
    with TestCase.captureOnCommitCallbacks(execute=True):  # the ratings are written too
        games.win(TableFactory(round__day=club["day"], seated=[E, F, G, H]), [E, F], [G, H])
    player = urls(club)["player"]
    assert served_from_cache(member_client, player)
    for name in ("standings", "records"):
        assert not served_from_cache(member_client, urls(club)[name]), name
    # The other game's players' own pages show it.
    page = member_client.get(reverse("scoring:player", args=[E.pk]))
    assert page.context["totals"]["games"] == 1


def test_a_players_rating_written_after_the_game_redraws_their_page(member_client, club):
    """The rating of a finished game is written once the game has committed: a page
    drawn in between is drawn again when the rating arrives."""
    A = club["people"][0]
    game = club["in_play"]
    for _ in range(3):  # finishes; the ratings wait for the commit (not run here)
        record_hand(game, [WIN, LOSE], number=game.hand_count + 1)
    player = urls(club)["player"]
    rating_before = member_client.get(player).context["totals"]["rating"]
    assert served_from_cache(member_client, player)
    ratings.game_finished(Game.objects.get(pk=game.pk))
    assert RatingPoint.objects.filter(person=A, game=game).exists()
    rating_after = member_client.get(player).context["totals"]["rating"]  # drawn again
    assert rating_after != rating_before


def test_a_merge_redraws_every_players_page(member_client, club):
    warm(member_client, club)
    kept, removed = games.people(2, "Twin")
    merge_people(kept, removed)
    assert all_rebuilt(member_client, club)


def test_undoing_the_last_hand_of_a_finished_game_rebuilds_them(member_client, club):
    warm(member_client, club)
    game = club["finished"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        undo_last_hand(game, expected_hand_count=game.hand_count)
    assert all_rebuilt(member_client, club)


def test_a_correction_of_a_finished_game_rebuilds_them(member_client, club):
    warm(member_client, club)
    hand = Hand.objects.get(game=club["finished"], number=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(hand, [CONCEALED, LOSE], expected_version=hand.version)
    assert all_rebuilt(member_client, club)


def test_rebuilt_ratings_rebuild_them(member_client, club):
    warm(member_client, club)
    ratings.rebuild()
    assert all_rebuilt(member_client, club)


def test_a_season_edit_rebuilds_them(member_client, club):
    warm(member_client, club)
    Season.objects.create(name="2025", start=datetime.date(2025, 1, 1), end=DAY)
    assert all_rebuilt(member_client, club)


def test_ranking_settings_rebuild_them(member_client, club):
    warm(member_client, club)
    settings = ClubSettings.load()
    settings.min_games_to_rank = 1
    settings.save()
    assert all_rebuilt(member_client, club)


def test_a_renamed_person_rebuilds_them(member_client, club):
    warm(member_client, club)
    person = Person.objects.get(pk=club["people"][1].pk)
    person.first_name = "Renamed"
    person.save()
    assert all_rebuilt(member_client, club)
    assert "Renamed" in member_client.get(urls(club)["standings"]).content.decode()
