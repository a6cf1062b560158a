"""What keeps a member's page cheap: a cached page is the person's row (with whether
they are the viewer and their page's stamp) and one cache read; what it shows still
follows the viewer and the data."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Max
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from members.models import Person
from members.tests.factories import MemberFactory
from scoring.models import PersonTotal, RatingPoint, ResultsVersion
from scoring.results.cache import person_stamp_of
from scoring.results.standings import player as games_of
from scoring.results.tables.player import PlayerGamesTable
from scoring.results.views.common import paginate
from scoring.results.views.player import PERSON_FIELDS, page_person
from scoring.tests.games import league

pytestmark = pytest.mark.django_db
MINE = "This is your page"


def _url(person) -> str:
    return reverse("scoring:player", args=[person.pk])


def test_a_cached_page_costs_one_row_and_one_cache_read(officer_client, small_club):
    url = _url(small_club["A"])
    officer_client.get(url)  # draws and keeps the body
    with CaptureQueriesContext(connection) as cached:
        response = officer_client.get(url)
    assert response.status_code == 200 and "totals" not in response.context
    # the club the address is for, the session, the user, the officer flag (Django
    # reads each in its own query), the person with the stamp, the cache
    assert len(cached) == 6, [q["sql"] for q in cached]
    ResultsVersion.bump()  # someone else's game finished: the body is still good
    assert "totals" not in officer_client.get(url).context
    ResultsVersion.bump(every_person=True)  # e.g. a season edited: drawn again
    assert "totals" in officer_client.get(url).context


def test_page_person_is_the_orm_row_with_the_viewer_and_the_stamp(small_club, member_person):
    officer = get_user_model().objects.create_user("boss", password="x-123456")
    with CaptureQueriesContext(connection) as captured:
        row = page_person(member_person.pk, member_person.user)
    assert len(captured) == 1
    orm = Person.objects.only(*PERSON_FIELDS).get(pk=member_person.pk)
    for name in PERSON_FIELDS:
        assert getattr(row, name) == getattr(orm, name), name
    assert row.full_name == orm.full_name and row.is_guest == orm.is_guest
    version = ResultsVersion.objects.get()  # the club's one row (its id depends on earlier tests)
    record = PersonTotal.objects.filter(person=member_person).values_list("pk", flat=True)
    rated = RatingPoint.objects.filter(person=member_person).aggregate(last=Max("pk"))["last"]
    assert (row._every, row._record, row._rated) == (version.every_person, record.first(), rated)
    assert person_stamp_of(row).startswith(f"p-{version.every_person}-")
    assert bool(row._is_me) is True
    assert bool(page_person(member_person.pk, officer)._is_me) is False
    unlinked = small_club["A"]  # no user: never "me"
    assert not page_person(unlinked.pk, member_person.user)._is_me


def test_the_page_follows_the_viewer_and_the_people(small_club, member_person, client):
    url = _url(member_person)
    officer = Client()
    officer.force_login(get_user_model().objects.create_superuser("boss", password="x-1234"))
    client.force_login(member_person.user)
    assert MINE in client.get(url).content.decode()
    assert MINE not in officer.get(url).content.decode()
    assert MINE in client.get(url).content.decode()  # its own cached body
    member_person.first_name = "Maria"
    member_person.save()  # a renamed person: the stamp changes
    assert "Maria Member" in officer.get(url).content.decode()


def test_a_missing_person_is_404_and_a_merged_one_redirects(officer_client, small_club):
    assert officer_client.get(reverse("scoring:player", args=[987654])).status_code == 404
    gone = MemberFactory(first_name="Gone")
    Person.objects.filter(pk=gone.pk).update(merged_into=small_club["A"])
    response = officer_client.get(_url(gone))
    assert response.status_code == 302 and response["Location"] == _url(small_club["A"])


@pytest.mark.parametrize("query", ["?sort=-rating_after", "?sort=rating_after"])
def test_the_games_table_sorts_by_the_rating_after_each_game(query):
    pool = league(days=3, tables=2, games=2, start=datetime.date(2025, 3, 6))
    person = pool[0][0]
    request = RequestFactory().get("/" + query)
    table = paginate(request, PlayerGamesTable(games_of.player_games(person)))
    drawn = [row.record.rating_after for row in table.page.object_list]
    count = games_of.finished_games_of(person).count()
    assert len(drawn) == count > 3 and None not in drawn
    assert drawn == sorted(drawn, reverse=query.startswith("?sort=-"))


def test_chart_dates_follow_the_language():
    from django.utils import translation
    from django.utils.formats import date_format

    from scoring.results import charts

    day = datetime.date(2025, 3, 6)
    for language, words in (("en", "6 Mar 2025"), ("es", "6/3/2025"), ("pt-br", "6/3/2025")):
        with translation.override(language):
            assert charts._label(day) == date_format(day, "DAY_FORMAT") == words
    assert charts._label("Start") == "Start"


def test_the_bests_link_to_their_days(officer_client, small_club):
    response = officer_client.get(_url(small_club["A"]))
    bests = response.context["bests"]
    for name in ("best_game", "best_hand", "most_red_threes"):
        url = reverse("scoring:day_result", args=[bests[name]["game"].day_id])
        assert bests[name]["url"] == url
        assert f'<a href="{url}">' in response.content.decode()


def test_a_ratings_replay_redraws_the_pages_of_those_it_rerated_only(officer_client, small_club):
    """Replayed from day 2 (a correction of its game, say): the points of its four
    players are written again with new ids, so their pages are drawn again; Dan, who
    played on day 1 only, keeps his cached page."""
    from scoring.results import ratings
    from scoring.tests.results.conftest import DAY2

    ann, dan = small_club["A"], small_club["D"]
    for person in (ann, dan):
        officer_client.get(_url(person))  # drawn and kept
    ratings.replay_from(DAY2)
    assert "totals" in officer_client.get(_url(ann)).context
    assert "totals" not in officer_client.get(_url(dan)).context
