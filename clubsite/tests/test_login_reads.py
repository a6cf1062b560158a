"""What a logged-in page reads before the view runs (issue #14): the session and its user
with the officer flag in one plain SQL statement (clubsite/sessions.py,
members/backends.py), with the behaviour of Django's own session engine and backend."""

import importlib
from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubsite.models import ClubSession
from members.permissions import is_officer

pytestmark = pytest.mark.django_db

LOGIN = {"username": "officer", "password": "officer-pass-123"}


def _home_queries(client) -> list[str]:
    client.get(reverse("home"))  # the first visit gives the phone its device cookie
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("home"))
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_the_home_page_of_an_officer_reads_the_session_and_the_user_in_one_query(
    officer_client,
):
    queries = _home_queries(officer_client)
    assert len(queries) == 1, queries
    response = officer_client.get(reverse("home"))
    assert b"People" in response.content  # the officers' menu: the flag was read


def test_a_member_is_not_an_officer_and_costs_no_more(member_client):
    assert len(_home_queries(member_client)) == 1
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
    ClubSession.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
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


def _session_row(client) -> ClubSession:
    return ClubSession.objects.get(session_key=client.cookies["sessionid"].value)


def test_logging_in_writes_the_user_on_the_session_row_and_out_ends_it(officer_user):
    client = Client()
    client.post(reverse("login"), LOGIN)
    assert _session_row(client).user_id == officer_user.pk
    key = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    assert not ClubSession.objects.filter(session_key=key).exists()


def test_a_session_saved_before_the_user_column_is_read_the_usual_way(officer_client):
    ClubSession.objects.update(user_id=None)  # as the upgrade copied a session
    queries = _home_queries(officer_client)
    assert len(queries) == 2, queries  # the session, then the user
    assert officer_client.get(reverse("members:people")).status_code == 200


def test_a_user_column_that_disagrees_with_the_session_is_not_believed(officer_client, member_user):
    """Only the session's own data says who is logged in: a column naming someone else
    (written behind the engine's back) is ignored, and the member is not read."""
    ClubSession.objects.update(user_id=member_user.pk)
    assert officer_client.get(reverse("members:people")).status_code == 200  # the officer


def test_the_user_read_with_the_session_is_checked_as_django_checks_it(
    officer_client, officer_user
):
    officer_user.set_password("a-new-password-456")  # changed elsewhere: logged out
    officer_user.save()
    assert officer_client.get(reverse("members:people")).status_code == 302


def test_a_deactivated_user_read_with_the_session_is_logged_out(officer_client, officer_user):
    officer_user.is_active = False
    officer_user.save()
    assert officer_client.get(reverse("members:people")).status_code == 302


def test_a_user_read_with_one_session_is_never_given_to_the_next(officer_user, member_user):
    """The user read with a session is handed to the backend once, for that session's
    own id; the next session read (the next request in the same thread) starts afresh."""
    from members.backends import ClubBackend

    officer, member = Client(), Client()
    officer.force_login(officer_user)
    member.force_login(member_user)
    store = ClubSession.get_session_store_class()
    store(officer.cookies["sessionid"].value).load()
    assert ClubBackend().get_user(member_user.pk).pk == member_user.pk  # not the officer
    store(officer.cookies["sessionid"].value).load()
    store("x" * 32).load()  # an unknown session read in between
    with CaptureQueriesContext(connection) as captured:
        assert ClubBackend().get_user(officer_user.pk).pk == officer_user.pk
    assert len(captured.captured_queries) == 1  # read again, not left over


def test_the_upgrade_copies_the_sessions_still_valid(officer_user):
    """The migration's copy: a session in Django's old table keeps its login, with the
    user's id found in its data; an expired one is left behind, and one that cannot be
    read is copied without a user id (its user, if any, is read the usual way)."""
    from django.apps import apps
    from django.contrib.sessions.backends.db import SessionStore as OldStore
    from django.contrib.sessions.models import Session

    migration = importlib.import_module("clubsite.migrations.0002_club_sessions")
    old = OldStore()
    old["_auth_user_id"] = str(officer_user.pk)
    old["_auth_user_backend"] = "members.backends.ClubBackend"
    old["_auth_user_hash"] = officer_user.get_session_auth_hash()
    old.create()
    gone = OldStore()
    gone.create()
    Session.objects.filter(session_key=gone.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    Session.objects.create(
        session_key="k" * 32, session_data="not signed", expire_date=old.get_expiry_date()
    )
    migration.copy_sessions(apps, type("Editor", (), {"connection": connection})())
    copied = ClubSession.objects.get(session_key=old.session_key)
    assert copied.user_id == officer_user.pk
    assert not ClubSession.objects.filter(session_key=gone.session_key).exists()
    assert ClubSession.objects.get(session_key="k" * 32).user_id is None  # unreadable
    assert not Session.objects.exists()  # Django's table emptied: nothing lives on there
    client = Client()
    client.cookies["sessionid"] = old.session_key
    assert client.get(reverse("members:people")).status_code == 200


def test_clearsessions_empties_the_expired_logins(officer_user, member_user):
    from django.core.management import call_command

    for user in (officer_user, member_user):
        Client().force_login(user)
    ClubSession.objects.filter(user_id=officer_user.pk).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    call_command("clearsessions")
    assert list(ClubSession.objects.values_list("user_id", flat=True)) == [member_user.pk]


def test_the_user_read_with_the_session_is_the_user_the_orm_reads(officer_user):
    """Field by field, types included (aware datetimes, booleans): saving it (a password
    change does) must write back what was read."""
    from members.backends import _loaded

    officer_user.last_login = timezone.now()
    officer_user.save()
    client = Client()
    client.force_login(officer_user)
    ClubSession.get_session_store_class()(client.cookies["sessionid"].value).load()
    read = _loaded.get()[1]
    orm = type(officer_user).objects.get(pk=officer_user.pk)
    for field in orm._meta.concrete_fields:
        ours, theirs = getattr(read, field.attname), getattr(orm, field.attname)
        assert (ours, type(ours)) == (theirs, type(theirs)), field.name
    assert read.last_login.tzinfo is not None


def test_changing_ones_password_keeps_the_login_and_the_dates(officer_client, officer_user):
    joined = type(officer_user).objects.get(pk=officer_user.pk).date_joined
    new = "a-new-password-789"
    response = officer_client.post(
        reverse("password_change"),
        {"old_password": LOGIN["password"], "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert officer_client.get(reverse("members:people")).status_code == 200  # still in
    assert _session_row(officer_client).user_id == officer_user.pk  # the new session row
    assert type(officer_user).objects.get(pk=officer_user.pk).date_joined == joined


def test_nothing_read_with_a_session_outlives_its_request(officer_user):
    """Even when the backend never takes it (a session that names Django's own backend):
    the end of the request forgets the user read with its session."""
    from members.backends import _loaded

    client = Client()
    client.force_login(officer_user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("members:people")).status_code == 200
    assert _loaded.get() is None


def test_undoing_the_upgrade_puts_the_sessions_back(officer_user):
    from django.apps import apps
    from django.contrib.sessions.models import Session

    migration = importlib.import_module("clubsite.migrations.0002_club_sessions")
    client = Client()
    client.force_login(officer_user)
    key = client.cookies["sessionid"].value
    migration.copy_sessions_back(apps, type("Editor", (), {"connection": connection})())
    back = Session.objects.get(session_key=key)
    assert back.get_decoded()["_auth_user_id"] == str(officer_user.pk)
