"""A cache that goes away costs speed, not pages (issue 22).

The site runs on its own settings with ``REDIS_URL`` pointing at a real Redis started
by the test on a free loopback port, which is then stopped (or frozen) mid-run. Every
page still answers, reading through to the database; logins keep working (Django's
``cached_db`` sessions live in the database too); ``/healthz`` tells the cache and the
database apart. In CI a missing ``redis-server`` is a failure, never a skip.
"""

from __future__ import annotations

import os
import runpy
import shutil
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN
from testsupport import in_ci

pytestmark = pytest.mark.django_db

SETTINGS_FILE = Path(__file__).resolve().parents[1] / "settings.py"
LOGIN = {"username": "officer", "password": "officer-pass-123"}
CODE = "KXMA7QPB"
#: The longest a page may take with Redis gone (it must not wait on Redis each time).
SLOW = 2.0


class RedisServer:
    """A redis-server of this test's own, keeping nothing on disk."""

    def __init__(self, binary: str, tmp: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--dir", str(tmp)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not self.answers():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                pytest.fail(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stored(self) -> list[str]:
        import redis

        return [k.decode() for k in redis.Redis(port=self.port, socket_timeout=2).keys("*")]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)

    def freeze(self) -> None:
        """Redis still holds its connections and data but answers nothing (a hung
        server, or one out of reach behind a broken network)."""
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def redis_server(tmp_path):
    binary = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )
    if binary is None:
        message = "redis-server not found: apt-get install redis-server to run this"
        if in_ci():
            pytest.fail(f"{message} (.ci/run installs it)")
        pytest.skip(message)
    server = RedisServer(binary, tmp_path)
    yield server
    server.stop()


@pytest.fixture
def site_on_redis(settings, redis_server, monkeypatch):
    """The site's own settings (``clubsite/settings.py``, read again) with REDIS_URL set
    to the test's Redis: its cache and its session engine."""
    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("CACHE_KEY_PREFIX", f"outage-{uuid.uuid4().hex[:8]}")
    site = runpy.run_path(str(SETTINGS_FILE))
    settings.CACHES = site["CACHES"]
    settings.SESSION_ENGINE = site["SESSION_ENGINE"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
    return redis_server


@pytest.fixture
def club(officer_user):
    """Today's club day: table 1 with a room code and a game in play, table 2 with a
    finished game (so the results pages have something to draw)."""
    day = ClubDayFactory(date=timezone.localdate(), title="Tonight")
    people = games.people(8)
    t1 = TableFactory(round__day=day, seated=people[:4], room_code=CODE)
    t2 = TableFactory(round__day=day, seated=people[4:])
    games.play(t1, [people[0:2], people[2:4]], [[WIN, LOSE]])
    games.win(t2, people[4:6], people[6:8])
    return {"day": day, "table": t1, "people": people}


def browser() -> Client:
    return Client(raise_request_exception=False)


def logged_in() -> Client:
    officer = browser()
    officer.get(reverse("login"))
    response = officer.post(reverse("login"), LOGIN)
    assert response.status_code == 302, response.content.decode()[:2000]
    return officer


def timed(call, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, **kwargs)
    took = time.monotonic() - started
    assert response.status_code != 500, f"{args[0]} answered 500"
    assert took < SLOW, f"{args[0]} took {took:.2f} s"
    return response


def every_page_answers(officer: Client, club: dict) -> None:
    """Home, login, an officer page, the results pages, a room code and a board code,
    each answering what it answers with the cache, and the officer's login still read."""
    day, table = club["day"], club["table"]
    assert timed(officer.get, reverse("home")).status_code == 200
    people = timed(officer.get, reverse("members:people"))
    assert people.status_code == 200  # still logged in: the session is read
    assert timed(officer.get, reverse("members:day", args=[day.pk])).status_code == 200
    for name in ("scoring:standings", "scoring:records", "scoring:day_results"):
        assert timed(officer.get, reverse(name)).status_code == 200, name
    result = timed(officer.get, reverse("scoring:day_result", args=[day.pk]))
    assert result.status_code == 200
    assert "P05 Player" in result.content.decode()

    newcomer = browser()
    assert timed(newcomer.get, reverse("login")).status_code == 200
    response = timed(newcomer.post, reverse("login"), LOGIN)
    assert response.status_code == 302
    assert timed(newcomer.get, reverse("members:people")).status_code == 200

    phone = browser()
    assert timed(phone.get, reverse("home")).status_code == 200
    wrong = timed(phone.post, reverse("scoring:room"), {"room_code": "BBBB-BBBB"})
    assert wrong.status_code == 200 and "BBBB-BBBB" in wrong.content.decode()
    right = timed(phone.post, reverse("scoring:room"), {"room_code": "kxma-7qpb"})
    assert right.status_code == 302
    assert right["Location"] == reverse("scoring:table", args=[table.pk])
    assert timed(phone.get, right["Location"]).status_code == 200  # the table is granted

    screen = browser()  # a wall screen opens the board's page first (its device cookie)
    assert timed(screen.get, reverse("scoring:board_entry")).status_code == 200
    board = timed(screen.post, reverse("scoring:board_entry"), {"board_code": day.board_code})
    assert board.status_code == 302
    page = timed(screen.get, board["Location"])
    assert page.status_code == 200 and "Table 2" in page.content.decode()


def health(client: Client) -> tuple[int, dict]:
    response = client.get(reverse("healthz"))
    return response.status_code, response.json()


def test_with_redis_stopped_every_page_answers_from_the_database(site_on_redis, club):
    redis_server = site_on_redis
    officer = logged_in()
    every_page_answers(officer, club)
    kept = redis_server.stored()
    assert any("django.contrib.sessions.cached_db" in k for k in kept)  # sessions in Redis
    assert any("results:" in k for k in kept)  # results bodies too
    assert health(officer)[0] == 200

    redis_server.stop()

    every_page_answers(officer, club)
    assert health(officer) == (
        200,
        {"status": "degraded", "database": "ok", "cache": "down", "tasks": "ok"},
    )
    # Logging out still ends the session.
    assert officer.post(reverse("logout")).status_code in (200, 302)
    response = officer.get(reverse("members:people"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


class _StoppedClock:
    """``time`` for :mod:`clubsite.cache` whose ``monotonic()`` moves only when told."""

    def __init__(self, now: float):
        self.now = now

    def monotonic(self) -> float:
        return self.now


def test_a_frozen_redis_costs_one_short_wait_and_no_stale_session(
    site_on_redis, club, settings, caplog, monkeypatch
):
    """Redis stops answering but keeps its data (hung, or out of reach): pages wait at
    most the short socket timeout, and not on every call; a logout made meanwhile holds
    when Redis answers again (its old copy of the session is not read)."""
    from django.core.cache import cache

    import clubsite.cache

    options = settings.CACHES["default"]["OPTIONS"]
    assert 0 < options["socket_connect_timeout"] <= 0.5 and 0 < options["socket_timeout"] <= 0.5
    redis_server = site_on_redis
    officer = logged_in()
    cookie = officer.cookies[settings.SESSION_COOKIE_NAME].value
    every_page_answers(officer, club)
    assert any(cookie in k for k in redis_server.stored())
    waits = []  # the calls that waited on the frozen Redis (and timed out)
    failed = clubsite.cache.Outage.failed
    monkeypatch.setattr(
        clubsite.cache.Outage, "failed", lambda self, e: (waits.append(e), failed(self, e))
    )

    # The outage's clock stands still while the pages are drawn, however slow the machine:
    # all of them fall inside one RETRY_AFTER, so exactly one call may wait.
    clock = _StoppedClock(time.monotonic())
    monkeypatch.setattr(clubsite.cache, "time", clock)

    caplog.set_level("WARNING", logger="clubsite.cache")
    redis_server.freeze()
    try:
        every_page_answers(officer, club)
        # About forty calls to the cache: one waited (the socket timeout) and the others
        # answered at once from the outage, without asking the frozen Redis.
        assert len(waits) == 1, waits
        assert all(isinstance(e, clubsite.cache.UNREACHABLE) for e in waits)
        assert health(officer)[1]["cache"] == "down"
        assert officer.post(reverse("logout")).status_code in (200, 302)
    finally:
        redis_server.thaw()
    assert any(cookie in k for k in redis_server.stored())  # Redis still has the old copy

    outage = cache._cache.outage
    clock.now = outage.retry_at + 0.05  # RETRY_AFTER has passed: the next call asks Redis
    assert health(browser()) == (
        200,
        {"status": "ok", "database": "ok", "cache": "ok", "tasks": "ok"},
    )
    assert outage.since is None
    said = [r.getMessage() for r in caplog.records if r.name == "clubsite.cache"]
    assert len(said) == 2, said  # one warning when it went, one when it came back
    assert "cannot be reached" in said[0] and "answers again" in said[1]
    assert not any(cookie in k for k in redis_server.stored())  # dropped when Redis came back
    stale = browser()
    stale.cookies[settings.SESSION_COOKIE_NAME] = cookie
    response = stale.get(reverse("members:people"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_healthz_says_503_when_the_database_is_down(client):
    """No database, no pages: the load balancer must stop sending members here. (The
    default cache is a table in the database, so it is down too.)"""
    from django.db import OperationalError
    from django.db.backends.base.base import BaseDatabaseWrapper

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseWrapper, "cursor", refuse)
        response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {
        "status": "down",
        "database": "down",
        "cache": "down",
        "tasks": "unknown",
    }


def test_without_redis_the_cache_answers_as_an_empty_one_and_says_so_once(
    settings, caplog, monkeypatch
):
    """What callers (the results pages, the sessions, the room-code counters) get while
    Redis is away: misses, never an exception but a missing key's ``ValueError``; one
    warning, however many calls fail."""
    import clubsite.cache
    from scoring.play.devices import bump

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(clubsite.cache, "RETRY_AFTER", 0.0)  # every call tries Redis
    settings.CACHES = {
        "default": {
            "BACKEND": "clubsite.cache.FailSoftRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
    from django.core.cache import cache

    caplog.set_level("WARNING", logger="clubsite.cache")
    assert cache.get("results:x") is None and cache.get("results:x", 7) == 7
    cache.set("results:x", "<p>", 60)
    assert cache.add("n", 0, 60) is False
    with pytest.raises(ValueError):
        cache.incr("n")
    # the room-code counters count nothing (phones with a cookie are refused nothing)
    assert bump("scoring:room:fails:1.2.3.4:1", 3600) is None
    assert bump("scoring:room:fails:1.2.3.4:1", 3600) is None
    assert cache.touch("n") is False and cache.delete("n") is False
    assert cache.get_many(["a", "b"]) == {} and not cache.has_key("a")
    cache.set_many({"a": 1}, 60)
    cache.delete_many(["a"])
    assert cache.clear() is False
    warnings = [r for r in caplog.records if r.name == "clubsite.cache"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "cannot be reached" in warnings[0].getMessage()


def test_after_an_outage_redis_loses_only_the_sites_keys(settings, redis_server, monkeypatch):
    """When Redis is back, all of the site's keys (its KEY_PREFIX) are deleted from it,
    another site's are kept."""
    import redis

    import clubsite.cache

    monkeypatch.setattr(clubsite.cache, "RETRY_AFTER", 0.5)
    settings.CACHES = {
        "default": {
            "BACKEND": "clubsite.cache.FailSoftRedisCache",
            "LOCATION": redis_server.url,
            "KEY_PREFIX": "ours",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }
    from django.core.cache import cache

    other = redis.Redis(port=redis_server.port, socket_timeout=2)
    other.set("theirs:1:kept", "x")
    cache.set("old", "before", 300)
    redis_server.freeze()
    try:
        for n in range(3):
            cache.set(f"new-{n}", n, 300)
    finally:
        redis_server.thaw()
    time.sleep(0.6)
    assert cache.get("old") is None  # the site's old keys are gone...
    assert other.get("theirs:1:kept") == b"x"  # ...another site's are not
    cache.set("new-0", 0, 300)
    assert cache.get("new-0") == 0


def test_after_an_outage_no_process_reads_what_another_changed_meanwhile(
    settings, redis_server, monkeypatch
):
    """Two processes (two app servers, or two gunicorn workers) on one Redis, which
    goes away for both. One of them logs a member out meanwhile: the session's copy in
    Redis could not be deleted. The other is the first to find Redis back: it must not
    read that copy (the member would be logged in again there). Each process knew only
    the keys it had missed itself, so the other one read the old copy."""
    import clubsite.cache

    monkeypatch.setattr(clubsite.cache, "RETRY_AFTER", 0.3)
    options = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}
    # Two addresses of the same Redis: each cache has the outage record of its own,
    # as each process does.
    settings.CACHES = {
        name: {
            "BACKEND": "clubsite.cache.FailSoftRedisCache",
            "LOCATION": f"redis://{host}:{redis_server.port}/0",
            "KEY_PREFIX": "ours",
            "OPTIONS": options,
        }
        for name, host in (("default", "127.0.0.1"), ("other", "localhost"))
    }
    from django.core.cache import caches

    one, two = caches["default"], caches["other"]
    assert one._cache.outage is not two._cache.outage
    one.set("session-of-mary", "logged in", 300)
    assert two.get("session-of-mary") == "logged in"
    redis_server.freeze()
    try:
        assert one.get("session-of-mary") is None  # the first finds Redis away...
        one.delete("session-of-mary")  # ...and Mary logs out on it
        assert two.get("session-of-mary") is None  # the second finds Redis away too
    finally:
        redis_server.thaw()
    time.sleep(0.4)
    assert two.get("session-of-mary") is None  # the second is the first to find it back
    assert one.get("session-of-mary") is None
