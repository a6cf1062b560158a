"""What a logged-in page reads before the view runs (issue #14): the session in one plain
SQL statement (clubsite/sessions.py) and the user with the officer flag in one more
(members/backends.py), with the behaviour of Django's own session engine and backend."""

from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from members.permissions import is_officer

pytestmark = pytest.mark.django_db

LOGIN = {"username": "officer", "password": "officer-pass-123"}


def _home_queries(client) -> list[str]:
    client.get(reverse("home"))  # the first visit gives the phone its device cookie
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("home"))
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_the_home_page_of_an_officer_reads_the_session_and_the_user_only(officer_client):
    queries = _home_queries(officer_client)
    assert len(queries) == 2, queries
    response = officer_client.get(reverse("home"))
    assert b"People" in response.content  # the officers' menu: the flag was read


def test_a_member_is_not_an_officer_and_costs_no_more(member_client):
    assert len(_home_queries(member_client)) == 2
    response = member_client.get(reverse("home"))
    assert b"My page" in response.content
    assert b"People" not in response.content


def test_the_officer_flag_comes_with_the_user(officer_user, member_user):
    from members.backends import ClubBackend

    backend = ClubBackend()
    officer = backend.get_user(officer_user.pk)
    member = backend.get_user(member_user.pk)
    with CaptureQueriesContext(connection) as captured:
        assert is_officer(officer) is True
        assert is_officer(member) is False
    assert captured.captured_queries == []
    assert backend.get_user(999_999) is None
    member_user.is_active = False
    member_user.save()
    assert backend.get_user(member_user.pk) is None  # as Django's backend: inactive out


def test_leaving_the_officers_group_takes_effect_on_the_next_page(officer_client, officer_user):
    officer_user.groups.clear()
    response = officer_client.get(reverse("members:people"))
    assert response.status_code == 403


def test_logging_in_names_the_club_backend(officer_user):
    client = Client()
    response = client.post(reverse("login"), LOGIN)
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "members.backends.ClubBackend"


def test_a_session_from_before_the_club_backend_stays_logged_in(officer_user):
    client = Client()
    client.force_login(officer_user, backend="django.contrib.auth.backends.ModelBackend")
    response = client.get(reverse("members:people"))
    assert response.status_code == 200  # still an officer, read the old way


def test_a_wrong_password_is_one_failed_login(officer_user):
    from axes.models import AccessAttempt

    client = Client()
    response = client.post(reverse("login"), {**LOGIN, "password": "wrong"})
    assert response.status_code == 200
    assert b"correct username and password" in response.content
    assert AccessAttempt.objects.get().failures_since_start == 1
    response = client.post(reverse("login"), {"username": "nobody", "password": "x"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_an_expired_session_is_not_read(officer_client):
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    response = officer_client.get(reverse("members:people"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_an_unknown_or_malformed_session_cookie_is_a_visitor(officer_client):
    for value in ("x" * 32, "short", "not a key!"):
        officer_client.cookies["sessionid"] = value
        response = officer_client.get(reverse("members:people"))
        assert response.status_code == 302


def test_logging_out_ends_the_session_everywhere(officer_user):
    phone, tablet = Client(), Client()
    phone.post(reverse("login"), LOGIN)
    tablet.cookies["sessionid"] = phone.cookies["sessionid"].value  # the same session
    assert tablet.get(reverse("members:people")).status_code == 200
    phone.post(reverse("logout"))
    assert tablet.get(reverse("members:people")).status_code == 302
