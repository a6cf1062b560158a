"""The server CPU of each request kind, one kind at a time (``manage.py benchmark
--cpu``): quick figures without a club night. One gunicorn (production settings, as
the README deploys it) is sent ``rounds`` requests of one kind after another, in turn:
the table page, a live preview, a save and the table page it redirects to, the room
board's poll, the standings, a member's own page and ``/me/``. Per kind it gives the
CPU the request said it cost (``Server-Timing``, the Django thread's) and the CPU
the whole server used meanwhile (/proc: gunicorn's own work too), per request.

A capacity follows from them: a real table costs a save, three previews and the table
page every 3 minutes, a board (one per 25 tables) a poll every 5 s and a member (one
per 5 tables) a read every minute (:mod:`scoring.devtools.bench.night`)."""

from __future__ import annotations

import http.cookiejar
import random
import secrets
from urllib.parse import urlparse

import requests

from scoring.devtools.bench import night
from scoring.devtools.bench.hands import HAND_FORM, HIGH_CARD, form_data, random_hand
from scoring.devtools.bench.timing import Tally

http.cookiejar.DefaultCookiePolicy.return_ok_secure = lambda policy, cookie, request: True


class Night:
    """One phone, one board and one member of the scene, talking to ``url``."""

    def __init__(self, url: str, scene: dict):
        self.url, self.rng = url, random.Random(1)
        table = scene["tables"][0]
        self.game, self.number = table["game"], table["next"]
        self.phone = requests.Session()
        answer = self.phone.get(f"{url}/t/{table['token']}/", timeout=30)
        self.table_page = urlparse(answer.url).path
        board = scene["boards"][0]
        self.board = requests.Session()
        self.board.get(f"{url}/board/", timeout=30)
        self.board.get(f"{url}/board/code/{board['code']}/", timeout=30)
        self.live = f"/board/{board['day']}/live/"
        self.member = requests.Session()
        me = scene["members"][0]
        self.member.cookies.set(scene["session_cookie"], me["session"])
        self.own, self.standings = f"/players/{me['person']}/", scene["standings"]

    def _csrf(self, **headers) -> dict:
        return {"X-CSRFToken": self.phone.cookies.get("csrftoken", ""), **headers}

    def _get(self, session, path: str, **headers):
        answer = session.get(self.url + path, headers=headers, timeout=30, allow_redirects=False)
        if answer.status_code != 200:
            raise RuntimeError(f"GET {path} answered {answer.status_code}")
        return answer

    def request(self, kind: str) -> list[tuple[str, requests.Response]]:
        """One request of ``kind`` (two for a save: the save and its redirect GET)."""
        if kind == "table page":
            return [(kind, self._get(self.phone, self.table_page))]
        if kind == "preview":
            data = form_data(random_hand(self.rng), self.number, action="preview")
            path = f"{self.url}/games/{self.game}/hands/preview/"
            answer = self.phone.post(path, data, headers=self._csrf(**{"HX-Request": "true"}))
            return [(kind, answer)]
        if kind == "save":
            data = form_data(random_hand(self.rng), self.number, key=secrets.token_urlsafe(16))
            path = f"{self.url}/games/{self.game}/hands/new/"
            saved = self.phone.post(path, data, headers=self._csrf(), allow_redirects=False)
            if saved.status_code != 302:
                raise RuntimeError(f"save answered {saved.status_code}")
            self.number += 1
            page = self._get(self.phone, saved.headers["Location"])
            if f"/games/{self.game}/next/" in page.text:
                self._next_game()
            return [("save", saved), ("table page after save", page)]
        if kind == "board live":
            return [(kind, self._get(self.board, self.live, **{"HX-Request": "true"}))]
        path = {"standings": self.standings, "own page": self.own, "me": "/me/"}[kind]
        return [(kind, self._get(self.member, path))]

    def _next_game(self) -> None:
        """The game is over: the partner draw starts the next (not measured)."""
        path = f"{self.url}/games/{self.game}/next/"
        found = HIGH_CARD.search(self.phone.get(path, timeout=30).text)
        data = {"method": "draw", "high_card": found.group(1) if found else "0"}
        got = self.phone.post(path, data, headers=self._csrf(), allow_redirects=False)
        page = self.phone.get(self.url + got.headers["Location"], timeout=30)
        self.table_page = urlparse(page.url).path
        started = HAND_FORM.search(page.text)
        if started:
            self.game, self.number = int(started.group(1)), 1


MEASURED = ("table page", "preview", "save", "board live", "standings", "own page", "me")


def per_kind(server, rounds: int) -> tuple[Tally, dict[str, float]]:
    """Per kind: the CPU each answer said it cost, and the whole server's CPU per
    request of that kind (/proc, gunicorn included)."""
    walk = Night(server.url, night.scene(1, 1))
    for kind in MEASURED:  # every page once: imports, templates, caches
        walk.request(kind)
    tally, whole = Tally(), {}
    for kind in MEASURED:
        before = server.cpu_seconds()[0]
        for _ in range(rounds):
            for name, answer in walk.request(kind):
                tally.add(name, answer.headers)
        whole[kind] = (server.cpu_seconds()[0] - before) * 1000 / rounds
    return tally, whole


def capacity_lines(tally: Tally, whole: dict[str, float]) -> list[str]:
    """The server CPU of one real table (its share of the boards and members too) and
    the tables a fully used core serves."""
    per_minute = (
        (3 * tally.mean("preview") + tally.mean("save") + tally.mean("table page after save"))
        / (night.HAND_SECONDS / 60)
        + tally.mean("board live") * 60 / night.BOARD_SECONDS / night.TABLES_PER_BOARD
        + (tally.mean("standings") + tally.mean("own page"))
        / 2
        * 60
        / night.MEMBER_SECONDS
        / night.TABLES_PER_MEMBER
    )
    if not per_minute:
        return ["  No answer said its CPU: the server runs without SERVER_TIMING=1."]
    lines = [
        "  (whole server, /proc, per request: "
        + ", ".join(f"{k} {whole[k]:.1f}" for k in MEASURED if k in whole)
        + " ms; a save's figure includes its redirect GET)",
        f"  A real table costs {per_minute:.0f} ms of server CPU a minute: "
        f"{60_000 / per_minute:,.0f} tables per fully used core.",
    ]
    return lines
