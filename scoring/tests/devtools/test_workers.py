"""Several gunicorn workers on PostgreSQL, several devices saving hands at once.

A real gunicorn with three workers serves the test database; six devices (three at
each of two tables, each with its own table-link session) race to save the next hand
of their table's game over HTTP until the games end. Afterwards every game has hands
1..n with no gap and no double, exactly as many as the devices were told were saved,
and totals that agree with the engine.
"""

import datetime
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from members.tests.factories import ClubDayFactory, TableFactory
from scoring import engine
from scoring.models import Game
from scoring.play.services.games import start_game
from scoring.tests.games import people as named_players

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]
DEVICES_PER_TABLE = 3
WORKERS = 3

# Team 1 goes out with two canastas (1,200 points a hand); team 2 keeps a little.
HAND = {
    "t0-mode": "quick",
    "t0-melded_points": "300",
    "t0-natural_canastas": "1",
    "t0-mixed_canastas": "1",
    "t0-red_threes": "0",
    "t0-went_out": "out",
    "t0-hand_points": "0",
    "t1-mode": "quick",
    "t1-melded_points": "100",
    "t1-natural_canastas": "0",
    "t1-mixed_canastas": "0",
    "t1-red_threes": "0",
    "t1-went_out": "none",
    "t1-hand_points": "30",
    "action": "save",
}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Device:
    """A phone at a table: its own cookies, reached through the table's secret link."""

    def __init__(self, base: str, token: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.follow = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.no_follow = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect
        )
        self.table_url = self.get(f"/t/{token}/").geturl()
        self.saved = 0
        self.conflicts = 0

    def get(self, path):
        return self.follow.open(self.base + path, timeout=30)

    def csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def play(self, game_pk: int):
        for _ in range(40):
            page = self.follow.open(self.table_url, timeout=30).read().decode()
            match = re.search(r'name="number" value="(\d+)"', page)
            if not match:
                return
            data = {**HAND, "number": match.group(1), "csrfmiddlewaretoken": self.csrf()}
            request = urllib.request.Request(
                f"{self.base}/games/{game_pk}/hands/new/",
                data=urllib.parse.urlencode(data).encode(),
                headers={"Referer": self.table_url},
            )
            try:
                response = self.no_follow.open(request, timeout=30)
                body = response.read().decode()
                assert response.status == 200, response.status
                assert "already entered" in body, body[:2000]
                self.conflicts += 1
            except urllib.error.HTTPError as exc:
                assert exc.code == 302, f"HTTP {exc.code}: {exc.read()[:2000]!r}"
                # The page it leads to says what happened: saved, or the game was over.
                after = self.get(urllib.parse.urlparse(exc.headers["Location"]).path)
                said = after.read().decode()
                if f"Hand {match.group(1)} saved." in said:
                    self.saved += 1
                else:
                    assert "no more hands can be added" in said, said[:2000]
                    return


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def gunicorn_server():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: run with DATABASE_URL=postgres://... (CI does)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DATABASE_URL": url,
        "ALLOWED_HOSTS": "127.0.0.1",
        "CONN_MAX_AGE": "0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clubsite.wsgi", "--workers", str(WORKERS)]
        + ["--bind", f"127.0.0.1:{port}", "--timeout", "60", "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None:
                    pytest.fail(f"gunicorn stopped: {process.stdout.read().decode()}")
                time.sleep(0.2)
        else:
            pytest.fail("gunicorn did not answer /healthz within 20 s")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_parallel_devices_on_several_workers_lose_and_double_nothing(gunicorn_server):
    people = named_players(8)
    day = ClubDayFactory(date=datetime.date.today(), signed_in=people)
    tables = [
        TableFactory(round__day=day, number=1, seated=people[:4]),
        TableFactory(round__day=day, number=2, seated=people[4:]),
    ]
    games = [
        start_game(t, [[p[0], p[2]], [p[1], p[3]]], check_seating=False)
        for t, p in zip(tables, (people[:4], people[4:]), strict=True)
    ]
    devices = [
        (Device(gunicorn_server, t.token), g.pk)
        for t, g in zip(tables, games, strict=True)
        for _ in range(DEVICES_PER_TABLE)
    ]
    errors = []

    def run(device, game_pk):
        try:
            device.play(game_pk)
        except Exception as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=d) for d in devices]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors

    rules = engine.PRESETS["club"]
    for game in games:
        game = Game.objects.get(pk=game.pk)
        numbers = list(game.hand_set.order_by("number").values_list("number", flat=True))
        saved = sum(d.saved for d, pk in devices if pk == game.pk)
        assert numbers == list(range(1, len(numbers) + 1)), numbers
        assert saved == len(numbers) == game.hand_count
        assert game.is_finished
        rules = game.engine_rules()
        totals = [0, 0]
        for hand in game.hand_set.order_by("number"):
            outcome = engine.score_hand(rules, hand.inputs, totals)
            totals = [t.score_after for t in outcome.teams]
        assert [t.total for t in game.teams.order_by("index")] == totals
    # The race really happened: some device was told its hand was already entered.
    assert sum(d.conflicts for d, _ in devices) > 0
