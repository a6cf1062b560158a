"""What keeps a member's page cheap: a cached page is the person's row (with whether
they are the viewer and the results stamp) and one cache read; what it shows still
follows the viewer and the data."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from members.models import Person
from members.tests.factories import MemberFactory
from scoring.models import ResultsVersion
from scoring.results.cache import results_stamp, stamp_of
from scoring.results.views.player import PERSON_FIELDS, page_person

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
    # the session, the user with the officer flag, the person with the stamp, the cache
    assert len(cached) == 4, [q["sql"] for q in cached]
    ResultsVersion.bump()  # a game finished: the body is drawn again
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
    assert stamp_of(row) == results_stamp()
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
