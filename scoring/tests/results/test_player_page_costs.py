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
from django_tables2 import RequestConfig

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
    # the session, the user, the officer flag (Django reads each in its own query), the
    # person with the stamp, the cache
    assert len(cached) == 5, [q["sql"] for q in cached]
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
    version = ResultsVersion.objects.get(pk=1)
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


def _row(record) -> tuple:
    game, team = record.game, record.team
    players = [(p.team_id, p.person_id, p.person.full_name) for p in game.players.all()]
    return (
        record.pk,
        record.person_id,
        record.team_id,
        (game.pk, game.day_id, game.day_date, game.table.number, game.number),
        (team.won, team.total, team.points_against, team.hands),
        record.rating_after,
        players,
    )


@pytest.mark.parametrize("query", ["", "?sort=-rating_after", "?sort=rating_after", "?sort=date"])
def test_a_page_of_games_is_what_the_orm_reads(query):
    """The games table's light rows (the seats of the page's games, read with the
    rating in one SQL statement) equal the TeamPlayer rows with the annotated rating,
    sorted the same way (by the rating too, though the page's queryset has no rating
    until it sorts by it)."""
    pool = league(days=3, tables=2, games=2, start=datetime.date(2025, 3, 6))
    person = pool[0][0]
    request = RequestFactory().get("/" + query)
    count = games_of.finished_games_of(person).count()
    light = paginate(request, PlayerGamesTable(games_of.finished_games_of(person), games=count))
    model = _ModelRows(games_of.player_games(person))
    RequestConfig(request, paginate=False).configure(model)
    expected = [_row(r) for r in model.data]
    drawn = [_row(row.record) for row in light.page.object_list]
    assert len(drawn) == count > 3
    assert {r[0]: r for r in drawn} == {r[0]: r for r in expected}
    if "rating" in query:  # ratings are all different: one order
        assert [r[5] for r in drawn] == [r[5] for r in expected]
        assert any(r[5] is not None for r in drawn)
    else:
        assert [r[0] for r in drawn] == [r[0] for r in expected]


class _ModelRows(PlayerGamesTable):
    page = None  # the TeamPlayer rows themselves, not the light ones


def test_remembered_date_labels_follow_the_language():
    """The charts' and the games table's date labels are made once per date and
    language: what date_format gives in the active language."""
    from django.utils import translation
    from django.utils.formats import date_format

    from scoring.results import charts
    from scoring.results.tables import player as tables

    day = datetime.date(2025, 3, 6)
    for language in ("en", "de"):
        with translation.override(language):
            assert charts._label(day) == date_format(day, "j M Y")
            assert tables._day_label(day, translation.get_language()) == date_format(day, "D j M Y")
    assert charts._label("Start") == "Start"


def test_the_tables_links_are_what_reverse_gives():
    """The games table's links are reversed once per URLconf and script prefix."""
    from django.urls import set_script_prefix

    from scoring.results.tables.player import url_maker

    for prefix in ("/", "/club/"):
        set_script_prefix(prefix)
        try:
            for name in ("scoring:player", "scoring:day_result"):
                assert url_maker(name)(42) == reverse(name, args=[42])
        finally:
            set_script_prefix("/")


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
