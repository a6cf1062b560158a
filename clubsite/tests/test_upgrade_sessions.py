"""Upgrading loses nobody (migration clubsite.0003): a database whose sessions are in
``clubsite.ClubSession`` (migrations up to clubsite.0002), with the rows the former
session engine wrote, is migrated, and the old cookies still work: the officer still
sees officers' pages, the member their own, the table phone its table. Undoing the
migration keeps them too."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite.devices import GRANT_KEY
from members.tests.factories import ClubDayFactory, RoundFactory, TableFactory

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("clubsite", "0002_club_sessions")]
OLD_BACKEND = "members.backends.ClubBackend"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _migrate(targets=None):
    """Migrate to ``targets`` (every app's latest when None); the apps of that state."""
    executor = MigrationExecutor(connection)
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_clubsite_0002():
    """The database as the code before clubsite.0003 left it; every app's latest after."""
    old_apps = _migrate(BEFORE)
    try:
        yield old_apps
    finally:
        _migrate()


def _table_clubsite_session_exists() -> bool:
    with connection.cursor() as cursor:
        return "clubsite_clubsession" in connection.introspection.table_names(cursor)


def _club_session(old_apps, data: dict, *, user_id=None, expired=False) -> str:
    """A ClubSession row as the former engine wrote it: Django's signed data (the same
    salt, its class being called SessionStore too), the user's id in its own column."""
    codec = SessionStore()
    key = codec._get_new_session_key()
    age = timedelta(seconds=-1 if expired else settings.SESSION_COOKIE_AGE)
    old_apps.get_model("clubsite", "ClubSession").objects.create(
        session_key=key,
        session_data=codec.encode(data),
        expire_date=timezone.now() + age,
        user_id=user_id,
    )
    return key


def _login(user, backend=OLD_BACKEND) -> dict:
    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: backend,
        HASH_SESSION_KEY: user.get_session_auth_hash(),
    }


def _client(key) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def test_every_valid_session_is_kept_by_the_upgrade(
    at_clubsite_0002, officer_user, member_user, django_user_model
):
    old_apps = at_clubsite_0002
    assert _table_clubsite_session_exists()
    day = ClubDayFactory(date=timezone.localdate())
    table = TableFactory(round=RoundFactory(day=day, number=1), number=1)
    earlier = django_user_model.objects.create_user("earlier", password="earlier-pass-123")

    officer = _club_session(old_apps, _login(officer_user), user_id=officer_user.pk)
    member = _club_session(old_apps, _login(member_user), user_id=member_user.pk)
    # A table phone: the grant the room code or the link gave it, no login.
    grant = {"table": table.pk, "day": day.pk}
    phone = _club_session(old_apps, {GRANT_KEY: grant})
    # A login from before the club's backend, naming Django's already.
    before = _club_session(old_apps, _login(earlier, MODEL_BACKEND), user_id=earlier.pk)
    gone = _club_session(old_apps, _login(member_user), user_id=member_user.pk, expired=True)

    _migrate()

    assert not _table_clubsite_session_exists()
    assert not Session.objects.filter(session_key=gone).exists()
    data = {s.session_key: s.get_decoded() for s in Session.objects.all()}
    assert set(data) == {officer, member, phone, before}
    assert data[officer] == _login(officer_user, MODEL_BACKEND)
    assert data[before] == _login(earlier, MODEL_BACKEND)
    assert data[phone] == {GRANT_KEY: grant}  # unchanged

    officer_client = _client(officer)
    response = officer_client.get(reverse("members:people"))
    assert response.status_code == 200
    assert b"Club days" in response.content  # the officers' menu
    assert officer_client.get(reverse("scoring:table", args=[table.pk])).status_code == 200

    member_client = _client(member)
    assert member_client.get(reverse("members:me")).status_code == 200
    assert member_client.get(reverse("members:people")).status_code == 403

    assert _client(before).get(reverse("home")).context["user"] == earlier

    phone_client = _client(phone)
    page = phone_client.get(reverse("scoring:table", args=[table.pk]))
    assert page.status_code == 200
    assert page.context["user"].is_anonymous  # in by its grant, not a login

    expired = _client(gone).get(reverse("members:me"))
    assert expired.status_code == 302 and reverse("login") in expired["Location"]


def test_a_session_that_cannot_be_read_is_copied_as_it_is(at_clubsite_0002):
    old_apps = at_clubsite_0002
    old_apps.get_model("clubsite", "ClubSession").objects.create(
        session_key="k" * 32,
        session_data="not signed",
        expire_date=timezone.now() + timedelta(hours=1),
    )
    _migrate()
    assert Session.objects.get(session_key="k" * 32).session_data == "not signed"
    assert _client("k" * 32).get(reverse("members:people")).status_code == 302  # a visitor


def test_undoing_the_upgrade_keeps_the_logins(officer_user):
    client = Client()
    client.post(reverse("login"), {"username": "officer", "password": "officer-pass-123"})
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    try:
        old_apps = _migrate(BEFORE)
        row = old_apps.get_model("clubsite", "ClubSession").objects.get(session_key=key)
        assert row.user_id == officer_user.pk  # as the former engine wrote it
        assert SessionStore().decode(row.session_data)[SESSION_KEY] == str(officer_user.pk)
        assert not Session.objects.exists()  # nothing lives on in Django's table
    finally:
        _migrate()
    assert client.get(reverse("members:people")).status_code == 200  # and up again
