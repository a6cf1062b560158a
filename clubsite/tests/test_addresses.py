"""Nobody is locked out through an address they share (issue 22, item 3), tested through
the recommended deployment: nginx with the repository's proxy settings in front of
gunicorn, the site told it sits behind one proxy (``TRUSTED_PROXY_COUNT=1``).

Behind the proxy every request reaches gunicorn from the proxy's address, so the site
must take the client's address from the header the proxy sets, and no limit keyed on an
address may stop people who share one (a club's router, a mobile operator's NAT):

- 300 front pages and 30 wrong codes without a cookie leave every new phone with the
  right room code or board code able to get in;
- wrong passwords typed under the officer's name (or over made-up names) by browsers
  that drop their cookies do not stop the real officer, or a member, in a browser of
  their own (one they have logged in on before);
- the cookie-less tries of one address do not count against another address, and a
  client cannot pick its address by sending its own ``X-Forwarded-For``;
- a user name's wrong passwords at one address do not lock it at another (issue 31).

Each test's clients connect from a loopback address of their own (127.0.0.x), so the
tests share one deployment without sharing an address. Skipped where nginx is missing,
except in CI, where they fail (see ``test_proxy.py``).
"""

from __future__ import annotations

import http.client
import itertools
import os
import subprocess
import sys
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

from clubsite.tests.test_proxy import MISSING_NGINX
from clubsite.tests.test_server import gunicorn
from scoring.devtools.bench.proxy import nginx, nginx_path
from testsupport import in_ci

pytestmark = pytest.mark.proxy

ROOT = Path(__file__).resolve().parents[2]
ROOM_CODE = "KXMA7QPB"
BOARD_CODE = "PQRT3467"
FRONT_PAGES = 300  # the 300 GET /
COOKIELESS_WRONG = 30  # then 30 wrong codes without a cookie
FRESH_PHONES = 4

SETUP = f"""
from django.contrib.auth.models import User
from django.utils import timezone
from members.clubs.commands import command_club
from members.clubs.scope import in_club
from members.models import ClubDay, Person, Round, Table
from members.permissions import make_officer

club_scope = in_club(command_club())  # kept: the scope ends when it is collected
club_scope.__enter__()  # the site's one club, for the rest of the script

day = ClubDay.objects.create(date=timezone.localdate(), title="Thursday", board_code="{BOARD_CODE}")
round1 = Round.objects.create(day=day, number=1)
Table.objects.create(round=round1, number=1, room_code="{ROOM_CODE}")
officer = User.objects.create_user("officer", password="officer-pass-123")
make_officer(officer)
member = User.objects.create_user("member", password="member-pass-123")
Person.objects.create(kind=Person.Kind.MEMBER, membership_number="9001",
                      first_name="Mary", last_name="Member", user=member)
"""

_addresses = (f"127.0.0.{n}" for n in itertools.count(10))


class Browser:
    """A browser (or a script) on one loopback address, talking HTTP/1.1 to the proxy:
    it keeps the cookies it is given and sends the CSRF token with its forms."""

    def __init__(self, port: int, address: str, headers: dict | None = None):
        self.port = port
        self.address = address
        self.headers = headers or {}
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None):
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.address, 0)
        )
        headers = {"Host": "127.0.0.1", **self.headers}
        body = None
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, response.getheader("Location") or "", content

    def get(self, path: str):
        return self.request("GET", path)

    def post(self, path: str, form: dict):
        return self.request("POST", path, form)

    def drop_cookies(self, keep=("csrftoken",)):
        """A script that throws its cookies away (the CSRF token it may keep: it is
        no secret and says nothing about the device)."""
        self.cookies = {k: v for k, v in self.cookies.items() if k in keep}


def _manage(env: dict, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """gunicorn behind nginx, on a database with today's club day (one table, a board
    code), an officer and a member; the proxy's port."""
    binary = nginx_path()
    if binary is None:
        if in_ci():
            pytest.fail(MISSING_NGINX)
        pytest.skip(MISSING_NGINX)
    tmp_path = tmp_path_factory.mktemp("addresses")
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ENV", "DATABASE_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'server.sqlite3'}"  # as gunicorn() has it
    env.pop("REDIS_URL", None)
    _manage(env, "migrate", "--noinput")
    _manage(env, "shell", "-c", SETUP)
    with (
        gunicorn(tmp_path, TRUSTED_PROXY_COUNT="1", REDIS_URL="") as upstream,
        nginx(binary, tmp_path / "nginx", [upstream]) as port,
    ):
        yield port


@pytest.fixture
def address():
    """A loopback address of this test's own: its clients share it, and only they."""
    return next(_addresses)


def _phone(site, address) -> Browser:
    """A new phone: it opens the front page first, as anyone typing a code does."""
    phone = Browser(site, address)
    assert phone.get("/")[0] == 200
    return phone


def _front_pages_and_cookieless_wrong_codes(site, address):
    """The issue's 330 requests: 300 front pages, then 30 wrong codes without cookies."""
    for _ in range(FRONT_PAGES):
        assert Browser(site, address).get("/")[0] == 200
    script = _phone(site, address)
    for _ in range(COOKIELESS_WRONG):
        script.drop_cookies()
        script.post("/room/", {"room_code": "BBBB-BBBB"})
    return script


def test_new_phones_type_the_right_codes_after_330_requests_from_their_address(site, address):
    script = _front_pages_and_cookieless_wrong_codes(site, address)
    script.drop_cookies()
    refused = script.post("/room/", {"room_code": ROOM_CODE})
    assert refused[0] == 200 and b"from your network" in refused[2]
    table_in = board_in = 0
    for _ in range(FRESH_PHONES):
        phone = _phone(site, address)
        status, location, _ = phone.post("/room/", {"room_code": ROOM_CODE})
        table_in += status == 302 and "/tables/" in location
        board = Browser(site, address)
        assert board.get("/board/")[0] == 200
        status, location, _ = board.post("/board/", {"board_code": BOARD_CODE})
        board_in += status == 302 and "/board/" in location
    assert (table_in, board_in) == (FRESH_PHONES, FRESH_PHONES)


def _login_page(site, address) -> Browser:
    browser = Browser(site, address)
    assert browser.get("/accounts/login/")[0] == 200
    return browser


def _log_in(browser, username, password):
    return browser.post("/accounts/login/", {"username": username, "password": password})


def test_cookieless_wrong_passwords_for_the_officer_do_not_lock_the_officer_out(site, address):
    """Not out of a browser the officer has logged in on before (one new to the name is
    refused once the name has had its failures: clubsite/tests/test_security.py)."""
    officer = _login_page(site, address)
    assert _log_in(officer, "officer", "officer-pass-123")[0] == 302
    assert officer.post("/accounts/logout/", {})[0] == 302
    for _ in range(FRONT_PAGES):
        Browser(site, address).get("/")
    script = _login_page(site, address)
    for _ in range(6):
        script.drop_cookies()
        assert _log_in(script, "officer", "wrong")[0] in {200, 429}
    assert officer.get("/accounts/login/")[0] == 200
    status, location, _ = _log_in(officer, "officer", "officer-pass-123")
    assert status == 302, status


def test_cookieless_wrong_passwords_over_made_up_names_do_not_lock_a_member_out(site, address):
    for _ in range(FRONT_PAGES):
        Browser(site, address).get("/")
    script = _login_page(site, address)
    for i in range(12):
        script.drop_cookies()
        _log_in(script, f"made-up-{i}", "wrong")
    status, location, _ = _log_in(_login_page(site, address), "member", "member-pass-123")
    assert status == 302, status


def test_a_names_failures_at_one_address_leave_it_free_at_another_behind_the_proxy(site):
    """Issue 31: five wrong passwords for the officer's name from one address (each on a
    new browser) stop further tries there, while the officer on a new tablet at another
    address gets in: the proxy's header gives the site each client's own address."""
    guessing_at, tablet_at = next(_addresses), next(_addresses)
    for _ in range(5):
        _log_in(_login_page(site, guessing_at), "officer", "wrong")
    assert _log_in(_login_page(site, guessing_at), "officer", "officer-pass-123")[0] == 429
    status, location, _ = _log_in(_login_page(site, tablet_at), "officer", "officer-pass-123")
    assert status == 302, status


def test_the_cookieless_limit_is_per_client_address_behind_the_proxy(site, address):
    """The site sees each client's own address, not the proxy's: a cookie-less script
    that used up its address's tries does not stop a cookie-less try from another."""
    script = _phone(site, address)
    for _ in range(COOKIELESS_WRONG):
        script.drop_cookies()
        script.post("/room/", {"room_code": "BBBB-BBBB"})
    script.drop_cookies()
    assert b"from your network" in script.post("/room/", {"room_code": ROOM_CODE})[2]
    elsewhere = _phone(site, next(_addresses))
    elsewhere.drop_cookies()
    assert elsewhere.post("/room/", {"room_code": ROOM_CODE})[0] == 302


def test_a_client_cannot_choose_its_address_with_x_forwarded_for(site, address):
    """nginx replaces the header, so a script naming a new address on every try is
    still counted under its own."""
    script = _phone(site, address)
    for i in range(COOKIELESS_WRONG):
        script.drop_cookies()
        script.headers["X-Forwarded-For"] = f"203.0.113.{i}"
        script.post("/room/", {"room_code": "BBBB-BBBB"})
    script.drop_cookies()
    script.headers["X-Forwarded-For"] = "198.51.100.7"
    assert b"from your network" in script.post("/room/", {"room_code": ROOM_CODE})[2]
