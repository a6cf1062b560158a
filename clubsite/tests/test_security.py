"""Login lockout (django-axes), CSRF on forms, session expiry on shared tablets."""

import pytest
from axes.models import AccessAttempt
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


# --------------------------------------------------------------------------- headers


def test_pages_carry_a_content_security_policy_without_inline_code(client):
    policy = client.get(reverse("home")).headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_pages_carry_a_permissions_policy(client):
    policy = client.get(reverse("home")).headers["Permissions-Policy"]
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy


def test_a_members_own_page_is_never_stored_by_the_browser(member_client):
    response = member_client.get(reverse("members:me"))
    assert response.status_code == 200
    cache_control = response.headers["Cache-Control"]
    assert "private" in cache_control and "no-store" in cache_control


def test_officer_lists_are_never_stored_by_the_browser(officer_client):
    response = officer_client.get(reverse("members:people"))
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]


def test_templates_hold_no_inline_script_or_style():
    """What the policy forbids is not written anywhere: no <script> without src, no
    <style>, no style="" or on...="" attribute in any template."""
    import re
    from pathlib import Path

    offending = []
    pattern = re.compile(
        r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=\"|\son[a-z]+=\"|hx-on", re.I
    )
    for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offending.append(f"{path.name}:{number}: {line.strip()[:80]}")
    assert offending == []


# --------------------------------------------------------------------------- lockouts


def _attempt(client, username, password="wrong"):
    return client.post(reverse("login"), {"username": username, "password": password})


def _browser(address="127.0.0.1"):
    """A phone's browser (at client ``address``): it opens the login page first, which
    gives it its device."""
    browser = Client(HTTP_USER_AGENT="Mozilla/5.0 (iPhone) Safari/605.1", REMOTE_ADDR=address)
    assert browser.get(reverse("login")).status_code == 200
    assert "club_device" in browser.cookies
    return browser


def _own_browser(username="officer", password="officer-pass-123"):
    """A browser its member has logged in on (and logged out of) before."""
    browser = _browser()
    assert _attempt(browser, username, password).status_code == 302
    assert "club_logins" in browser.cookies
    assert browser.post(reverse("logout")).status_code == 302
    return browser


def test_wrong_passwords_on_another_device_do_not_lock_the_officer_out(officer_user):
    """Behind the club's router every phone has the same address: a guesser's five wrong
    passwords for the officer's name lock the guesser's device, not the officer's own."""
    officer = _own_browser()
    guesser = _browser()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _attempt(guesser, "officer")
    assert _attempt(guesser, "officer", "officer-pass-123").status_code == 429
    response = _attempt(officer, "officer", "officer-pass-123")
    assert response.status_code == 302
    assert officer.session["_auth_user_id"] == str(officer_user.pk)


def test_a_hundred_wrong_passwords_over_many_names_leave_every_officer_able_to_log_in(
    officer_user,
):
    officers = [_own_browser() for _ in range(3)]
    script = Client()  # no cookies at all, one address
    for i in range(100):
        _attempt(script, f"user{i % 40}" if i % 3 else "officer")
    for officer in officers:
        assert _attempt(officer, "officer", "officer-pass-123").status_code == 302


def test_a_device_trying_many_user_names_is_stopped_by_its_own_failures(officer_user):
    sprayer = _browser()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _attempt(sprayer, f"someone{i}").status_code == 200
    assert _attempt(sprayer, "someone-else").status_code == 429
    # Its next try is refused, whatever the name, even a right password.
    assert _attempt(sprayer, "officer", "officer-pass-123").status_code == 429
    assert _attempt(_browser(), "officer", "officer-pass-123").status_code == 302


def test_changing_the_user_agent_does_not_dodge_a_lockout(officer_user):
    script = Client()  # no cookies: one device per address, whatever it calls itself
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _attempt(script, "officer").status_code == 200
        script.defaults["HTTP_USER_AGENT"] = f"bot/{i}"
    assert _attempt(script, "officer").status_code == 429


def _cookieless_failures(names, front_pages=300):
    """Issue 22's probe: 300 front pages from the address (which used to spend its new
    device cookies for the hour), then wrong passwords from a script that drops its
    cookies. Through a real proxy: clubsite/tests/test_addresses.py."""
    for _ in range(front_pages):
        Client().get("/")
    script = Client()
    for name in names:
        script.cookies.clear()
        _attempt(script, name)


def test_cookieless_wrong_passwords_for_the_officer_leave_the_officer_in(officer_user):
    officer = _own_browser()
    _cookieless_failures(["officer"] * 6)
    assert _attempt(officer, "officer", "officer-pass-123").status_code == 302
    assert officer.session["_auth_user_id"] == str(officer_user.pk)


def test_cookieless_wrong_passwords_over_made_up_names_leave_a_member_in(member_user):
    _cookieless_failures([f"made-up-{i}" for i in range(12)])
    member = _browser()
    assert _attempt(member, "member", "member-pass-123").status_code == 302
    # The cookie-less themselves are stopped by their own failures.
    assert _attempt(Client(), "member", "member-pass-123").status_code == 429


def test_many_devices_failing_under_the_officers_name_leave_the_officers_own_browser_in(
    officer_user,
):
    """A browser the officer has logged in on is not refused because others failed
    under the same user name, however many of them; a browser new to the name is."""
    officer = _own_browser()
    for _ in range(3):
        guesser = _browser()
        for _ in range(settings.AXES_FAILURE_LIMIT):
            _attempt(guesser, "officer")
        assert _attempt(guesser, "officer", "officer-pass-123").status_code == 429
    assert _attempt(_browser(), "officer", "officer-pass-123").status_code == 429
    assert _attempt(officer, "officer", "officer-pass-123").status_code == 302
    assert officer.session["_auth_user_id"] == str(officer_user.pk)


def test_a_browser_new_to_a_name_logs_in_while_the_name_has_few_failures(officer_user):
    """Below the limit, other devices' failures under the name stop nobody."""
    guesser = _browser()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _attempt(guesser, "officer")
    assert _attempt(_browser(), "officer", "officer-pass-123").status_code == 302


def test_the_known_browser_cookie_is_for_its_own_user_name(officer_user, member_user):
    """A browser the member logged in on is new to the officer's name: it is refused
    once that name is locked, and it cannot forge being known."""
    member = _own_browser("member", "member-pass-123")
    _guess_with_new_device_cookies("officer")
    assert _attempt(member, "officer", "officer-pass-123").status_code == 429
    forged = _browser()
    forged.cookies["club_logins"] = "not-a-signed-value"
    assert _attempt(forged, "officer", "officer-pass-123").status_code == 429
    assert _attempt(member, "member", "member-pass-123").status_code == 302


def _guess_with_new_device_cookies(username, devices=6, tries_each=2):
    """A guesser who takes a new device cookie every few tries (drops its cookies and
    opens the login page again): each cookie has a quota of its own."""
    for _ in range(devices):
        guesser = _browser()
        for _ in range(tries_each):
            _attempt(guesser, username)


def test_new_device_cookies_do_not_buy_a_guesser_more_tries(officer_user):
    """Wrong passwords for one user name, from any number of devices it was never logged
    in on, stop after AXES_FAILURE_LIMIT: then even the right password from a new
    device is refused, so guessing gets nowhere however many cookies it takes."""
    _guess_with_new_device_cookies("officer")
    refused = _attempt(_browser(), "officer", "officer-pass-123")
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "Wait 60 minutes" in text
    assert "ask a club officer" in text


def test_failures_at_one_address_leave_the_name_free_at_another(officer_user):
    """Five wrong passwords for a name from address A stop further tries at A, on any
    browser there; the officer on a new browser at address B gets in with the right
    password (issue 31: nobody can keep an officer off every new device)."""
    guesser = _browser("198.51.100.7")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _attempt(guesser, "officer")
    assert _attempt(guesser, "officer", "officer-pass-123").status_code == 429
    assert _attempt(_browser("198.51.100.7"), "officer", "officer-pass-123").status_code == 429
    tablet = _browser("203.0.113.40")
    response = _attempt(tablet, "officer", "officer-pass-123")
    assert response.status_code == 302
    assert tablet.session["_auth_user_id"] == str(officer_user.pk)


def test_an_ipv6_client_counts_by_its_network(officer_user):
    """One IPv6 connection holds a whole /64: a guesser changing addresses inside it is
    still one client; the next network is another."""
    for host in range(1, settings.AXES_FAILURE_LIMIT + 1):
        _attempt(_browser(f"2001:db8:0:7::{host}"), "officer")
    assert _attempt(_browser("2001:db8:0:7::99"), "officer", "officer-pass-123").status_code == 429
    assert _attempt(_browser("2001:db8:0:8::1"), "officer", "officer-pass-123").status_code == 302


# --------------------------------------------------------------------------- the admin


def test_the_admin_login_is_the_sites_login(django_user_model):
    """The admin's own login form counted failures under the User-Agent the client sent
    (a new quota with each made-up one) and marked no browser as known: /admin/login/
    sends everyone to the site's login, which comes back to the admin."""
    django_user_model.objects.create_superuser("boss", password="boss-pass-123")
    browser = Client(HTTP_USER_AGENT="bot/1")
    response = browser.get("/admin/")
    assert response.status_code == 302
    response = browser.get(response.url)
    assert response.status_code == 302
    assert response.url == reverse("login") + "?next=/admin/"
    # A password sent to the admin's address is not tried there, right or wrong.
    for password in ("wrong", "boss-pass-123"):
        response = browser.post("/admin/login/", {"username": "boss", "password": password})
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert "_auth_user_id" not in browser.session
    assert not AccessAttempt.objects.exists()


def test_the_admin_is_reached_through_the_sites_login(django_user_model):
    """The superuser logs in on the site's login page (its device counted, the browser
    then known for the name) and lands in the admin."""
    django_user_model.objects.create_superuser("boss", password="boss-pass-123")
    browser = _browser()
    response = browser.post(
        reverse("login") + "?next=/admin/",
        {"username": "boss", "password": "boss-pass-123", "next": "/admin/"},
    )
    assert response.status_code == 302 and response.url == "/admin/"
    assert "club_logins" in browser.cookies
    assert browser.get("/admin/").status_code == 200
