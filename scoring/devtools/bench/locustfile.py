"""A club night for Locust, played against the site by ``manage.py benchmark``.

Reads the scene file named by ``BENCH_SCENE`` (written by
:mod:`scoring.devtools.bench.night`). For phones and members time runs ``speed`` times
faster than at a club, with ``speed`` times fewer users, so the request rates are those
of the real night:

- a table phone (one per table): about every 3 minutes it types a hand, sending a live
  preview about three times while typing, then saves it (a new key each time) and
  loads the table page the save redirects to; when that hand ended the game (after
  about 18 hands, see :mod:`~scoring.devtools.bench.hands`), it opens the next-game
  page, posts the club's partner draw, and loads the table page of the new game;
- a room board (one per club day of 25 tables, in real time): fetches its day's live
  body every 5 seconds;
- a member (one per 5 tables), logged in: reads the standings or their own page
  every minute.

With several clubs (``benchmark --clubs N``) each user's item in the scene carries its
club's ``/<slug>`` and pace; with several app servers (``--servers N``, their addresses
in ``BENCH_HOSTS``) the users are dealt out to them in turn, as a load balancer would.

Each user gets in at a moment of its own within its first cycle (a phone's 3 minutes, a
board's 5 seconds, a member's minute), as a club's phones and screens arrive over the
first hands, not all in the step's first second. Requests made only to get in (the table
link, the board link) are named "setup: …", as
is a member's first look at their own page: once a night at a club, it would be one
read in ten of a step's (its first draw is still made during the step). Their own page
is drawn anew after that when a game of theirs finishes, as at a club.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import random
import re
import secrets
import time
from pathlib import Path

from locust import HttpUser, constant, events, task
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from scoring.devtools.bench.hands import HAND_FORM, HIGH_CARD, form_data, random_hand
from scoring.devtools.bench.timing import Tally

SCENE = (
    json.loads(Path(os.environ["BENCH_SCENE"]).read_text()) if "BENCH_SCENE" in os.environ else {}
)
NUMBER = re.compile(r'name="number" value="(\d+)"')
HOSTS = [h for h in os.environ.get("BENCH_HOSTS", "").split(",") if h]
_dealt = iter(range(10**9))
#: The server CPU each request said it cost (``Server-Timing``), per request name;
#: written to ``BENCH_CPU_OUT`` when Locust stops.
CPU = Tally()


@events.request.add_listener
def _server_cpu(name, response=None, **kw):
    if response is not None and not name.startswith("setup:"):
        CPU.add(name, response.headers)


@events.quitting.add_listener
def _write_server_cpu(**kw):
    if os.environ.get("BENCH_CPU_OUT"):
        CPU.write(os.environ["BENCH_CPU_OUT"])


# Send the production site's Secure cookies back over plain HTTP on the loopback (every
# cookie jar requests makes, the redirects' too, uses this policy).
http.cookiejar.DefaultCookiePolicy.return_ok_secure = lambda policy, cookie, request: True


class ClubUser(HttpUser):
    abstract = True
    wait_time = constant(0)

    def __init__(self, environment):
        super().__init__(environment)
        # A request whose kept-alive connection the server had just closed is sent once
        # more on a new one, as a browser does (gunicorn closes idle connections after
        # 5 s, nginx after 15 s; the boards and members come back after 5 s and more, a
        # phone after up to 15 s of typing). Chromium resends a POST too when a reused
        # connection closes before any answer: the site takes a save twice by its key
        # (a repeat), and a preview saves nothing. Before 2026-11-29 a POST never was,
        # and the rare race counted as a failed save.
        retry = Retry(
            total=1, connect=1, read=1, status=0, other=0, allowed_methods={"GET", "POST"}
        )
        self.client.mount("http://", HTTPAdapter(max_retries=retry))
        if HOSTS:  # several app servers: each user talks to one, dealt out in turn,
            # the turn shifted by one each round, so that a club's users (which come in
            # club order, one of each kind per club in a small night) meet every server.
            n = next(_dealt)
            self.client.base_url = HOSTS[(n + n // len(HOSTS)) % len(HOSTS)]

    def pause(self, seconds: float) -> None:
        time.sleep(seconds * random.uniform(0.8, 1.2))  # cooperative under Locust


class TablePhone(ClubUser):
    fixed_count = len(SCENE.get("tables", []))
    _next = iter(SCENE.get("tables", []))

    def on_start(self):
        scene = next(TablePhone._next)
        self.game, self.number = scene["game"], scene["next"]
        self.cycle = scene.get("hand_seconds", SCENE["hand_seconds"])
        self.prefix = scene.get("prefix", "")
        self.rng = random.Random()
        # The tables are not in step, and their phones do not all open their links in
        # the same second either: a step's users all start at once, and the first look
        # at every table together (each a table page drawn anew) was a queue of seconds
        # at 2,000 tables that no club night has (its phones arrive over its first
        # hands) and that only the few boards' and members' reads of those seconds met.
        time.sleep(random.uniform(0, self.cycle))
        self.client.get(f"{self.prefix}/t/{scene['token']}/", name="setup: table link")

    def post(self, path: str, data: dict, name: str, **kw):
        headers = {"X-CSRFToken": self.client.cookies.get("csrftoken", ""), **kw.pop("headers", {})}
        return self.client.post(path, data, headers=headers, name=name, **kw)

    @task
    def hand(self):
        self.pause(self.cycle * 0.7)
        teams = random_hand(self.rng)
        for _ in range(3):
            data = form_data(teams, self.number, action="preview")
            path = f"{self.prefix}/games/{self.game}/hands/preview/"
            self.post(path, data, "preview", headers={"HX-Request": "true"})
            self.pause(self.cycle * 0.1)
        data = form_data(teams, self.number, key=secrets.token_urlsafe(16))
        path = f"{self.prefix}/games/{self.game}/hands/new/"
        with self.post(path, data, "save", allow_redirects=False, catch_response=True) as answer:
            if answer.status_code == 302:
                self.number += 1
            else:
                found = NUMBER.search(answer.text)
                self.number = int(found.group(1)) if found else self.number
                answer.failure(f"save answered {answer.status_code}, not 302")
                return
        page = self.client.get(answer.headers["Location"], name="table page")
        if f"/games/{self.game}/next/" in page.text:
            self.next_game()

    def next_game(self):
        """The game is over: the club's partner draw starts the next one."""
        path = f"{self.prefix}/games/{self.game}/next/"
        found = HIGH_CARD.search(self.client.get(path, name="next game page").text)
        if not found:
            return
        data = {"method": "draw", "high_card": found.group(1)}
        with self.post(path, data, "next game", allow_redirects=False, catch_response=True) as got:
            if got.status_code != 302:
                got.failure(f"next game answered {got.status_code}, not 302")
                return
        page = self.client.get(got.headers["Location"], name="table page")
        started = HAND_FORM.search(page.text)
        if started and int(started.group(1)) != self.game:
            self.game, self.number = int(started.group(1)), 1


class RoomBoard(ClubUser):
    fixed_count = len(SCENE.get("boards", []))
    _next = iter(SCENE.get("boards", []))

    def on_start(self):
        board = next(RoomBoard._next)
        # A wall screen opens the board's page first, which gives it its device cookie
        # (every board of the benchmark comes from one address, where tries without a
        # cookie are limited).
        prefix = board.get("prefix", "")
        time.sleep(random.uniform(0, SCENE["board_seconds"]))  # the screens not in step
        self.client.get(f"{prefix}/board/", name="setup: board page")
        self.client.get(f"{prefix}/board/code/{board['code']}/", name="setup: board link")
        self.live = f"{prefix}/board/{board['day']}/live/"

    @task
    def poll(self):
        self.client.get(self.live, name="board live", headers={"HX-Request": "true"})
        self.pause(SCENE["board_seconds"])


class Member(ClubUser):
    fixed_count = len(SCENE.get("members", []))
    _next = iter(SCENE.get("members", []))

    def on_start(self):
        me = next(Member._next)
        self.client.cookies.set(SCENE["session_cookie"], me["session"])
        self.page = f"{me.get('prefix', '')}/players/{me['person']}/"
        self.standings = me.get("standings", SCENE["standings"])
        self.seconds = me.get("member_seconds", SCENE["member_seconds"])
        time.sleep(random.uniform(0, self.seconds))
        self.client.get(self.page, name="setup: own page")

    @task
    def read(self):
        path, name = random.choice([(self.standings, "standings"), (self.page, "own page")])
        with self.client.get(path, name=name, allow_redirects=False, catch_response=True) as got:
            if got.status_code != 200:
                got.failure(f"{name} answered {got.status_code}, not 200 {got.error or ''}")
        self.pause(self.seconds)
