"""Login lockout (django-axes), CSRF on forms, session expiry on shared tablets."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _login(client, password):
    return client.post(reverse("login"), {"username": "officer", "password": password})


def test_repeated_failed_logins_lock_the_account(officer_user):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = _login(client, "wrong")
        assert response.status_code == 200
        assert "_auth_user_id" not in client.session
    response = _login(client, "wrong")
    assert response.status_code == 429
    assert b"Too many failed logins" in response.content
    # Even the right password is refused while locked.
    response = _login(client, "officer-pass-123")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_good_login_after_a_few_failures_works(officer_user):
    client = Client()
    _login(client, "wrong")
    response = _login(client, "officer-pass-123")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(officer_user.pk)


def test_login_form_requires_csrf_token(officer_user):
    client = Client(enforce_csrf_checks=True)
    response = _login(client, "officer-pass-123")
    assert response.status_code == 403


def test_sessions_end_with_the_browser_and_after_a_working_day():
    assert settings.SESSION_EXPIRE_AT_BROWSER_CLOSE is True
    assert settings.SESSION_COOKIE_AGE <= 12 * 3600
    assert settings.SESSION_COOKIE_HTTPONLY is True


def test_logout_is_a_post_and_ends_the_session(officer_client):
    assert officer_client.get("/").status_code == 200
    response = officer_client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in officer_client.session


def test_a_member_can_change_their_password(member_client, member_user):
    response = member_client.post(
        reverse("password_change"),
        {
            "old_password": "member-pass-123",
            "new_password1": "a-much-better-passphrase",
            "new_password2": "a-much-better-passphrase",
        },
    )
    assert response.status_code == 302
    member_user.refresh_from_db()
    assert member_user.check_password("a-much-better-passphrase")


def test_password_change_needs_a_login(outsider_client):
    response = outsider_client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
