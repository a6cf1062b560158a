"""Logins: Django's own session engine and authentication backend (settings.py), with
the behaviour the club relies on: officers see officers' pages and members do not, a
change of group, password or activity takes effect on the next page, expired and unknown
sessions are visitors, logging out ends the session on every device that shares it."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

LOGIN = {"username": "officer", "password": "officer-pass-123"}


def test_the_site_runs_on_djangos_own_engine_and_backend():
    assert settings.SESSION_ENGINE in {
        "django.contrib.sessions.backends.db",
        "django.contrib.sessions.backends.cached_db",
    }
    assert settings.AUTHENTICATION_BACKENDS == [
        "axes.backends.AxesStandaloneBackend",
        "django.contrib.auth.backends.ModelBackend",
    ]


def test_an_officer_sees_the_officers_menu_and_pages(officer_client):
    response = officer_client.get(reverse("home"))
    assert b"People" in response.content
    assert officer_client.get(reverse("members:people")).status_code == 200


def test_a_member_is_not_an_officer(member_client):
    response = member_client.get(reverse("home"))
    assert b"My page" in response.content
    assert b"People" not in response.content
    assert member_client.get(reverse("members:people")).status_code == 403


def test_losing_the_officer_role_takes_effect_on_the_next_page(officer_client, officer_user):
    assert officer_client.get(reverse("members:people")).status_code == 200
    officer_user.club_roles.all().delete()
    assert officer_client.get(reverse("members:people")).status_code == 403


def test_logging_in_names_djangos_backend(officer_user):
    client = Client()
    response = client.post(reverse("login"), LOGIN)
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert client.get(reverse("members:people")).status_code == 200


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
        officer_client.cookies[settings.SESSION_COOKIE_NAME] = value
        response = officer_client.get(reverse("members:people"))
        assert response.status_code == 302


def test_logging_out_ends_the_session_everywhere(officer_user):
    phone, tablet = Client(), Client()
    phone.post(reverse("login"), LOGIN)
    key = phone.cookies[settings.SESSION_COOKIE_NAME].value
    tablet.cookies[settings.SESSION_COOKIE_NAME] = key  # the same session
    assert tablet.get(reverse("members:people")).status_code == 200
    phone.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()
    assert tablet.get(reverse("members:people")).status_code == 302


def test_a_password_changed_elsewhere_logs_the_session_out(officer_client, officer_user):
    officer_user.set_password("a-new-password-456")
    officer_user.save()
    assert officer_client.get(reverse("members:people")).status_code == 302


def test_a_deactivated_user_is_logged_out(officer_client, officer_user):
    officer_user.is_active = False
    officer_user.save()
    assert officer_client.get(reverse("members:people")).status_code == 302


def test_changing_ones_password_keeps_the_login_and_the_dates(officer_client, officer_user):
    joined = type(officer_user).objects.get(pk=officer_user.pk).date_joined
    new = "a-new-password-789"
    response = officer_client.post(
        reverse("password_change"),
        {"old_password": LOGIN["password"], "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert officer_client.get(reverse("members:people")).status_code == 200  # still in
    assert type(officer_user).objects.get(pk=officer_user.pk).date_joined == joined


def test_clearsessions_empties_the_expired_logins(officer_user, member_user):
    from django.core.management import call_command

    officer, member = Client(), Client()
    officer.force_login(officer_user)
    member.force_login(member_user)
    Session.objects.filter(session_key=officer.cookies[settings.SESSION_COOKIE_NAME].value).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    call_command("clearsessions")
    kept = [s.get_decoded()["_auth_user_id"] for s in Session.objects.all()]
    assert kept == [str(member_user.pk)]
