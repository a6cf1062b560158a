"""The pages measured over HTTP (issue #14's yardstick): gunicorn on the loopback, a
browser-like login, and rounds of a page interleaved with the minimal view.

Each round measures, for every page of :data:`HTTP_PAGES`, the minimal view and then
the page, with the same number of connections for the same time; the page's ratio is
its median latency over the minimal view's. Several rounds give the median ratio and
its spread. The "body drawn" rows bump the results version before every request
(untimed, one connection): the page as a member gets it right after a game finishes.
Hands are saved into games of their own (one per connection) whose hands score
nothing, so the games never end; then :func:`crowd` has 25 tables save at once against
3 workers, and checks that every hand answered as saved is in the database.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

from django.urls import reverse

from scoring.devtools.bench.http import MINIMAL_PATH, Browser, Server, load, waves
from scoring.devtools.bench.prepare import (
    BIG,
    OFFICER_PASSWORD,
    OFFICER_USERNAME,
    SMALL,
    ZERO,
    busiest_member,
    game_in_progress,
    games_for_saving,
    latest_season_with_games,
    officer_user,
)
from scoring.models import Game, Hand
from scoring.play.forms import hand_form_data
from scoring.results.cache import results_changed

# (key, label, target: at most this many times the minimal view)
HTTP_PAGES = (
    ("home", "Home page", 3.0),
    ("standings", "Season standings, cached body", 5.0),
    ("standings_cold", "Season standings, body drawn", 5.0),
    ("player", "A member's page, cached body", 5.0),
    ("player_cold", "A member's page, body drawn", 5.0),
    ("table", "Table page, game in progress", 5.0),
    ("preview", "Live preview", 5.0),
    ("hand_save", "Saving a hand", 8.0),
)
CROWD_P95_MS = 150.0


@dataclass
class HttpOptions:
    seconds: float = 10.0
    rounds: int = 3
    connections: int = 8
    workers: int = 2
    crowd_connections: int = 25
    crowd_workers: int = 3
    crowd_seconds: float = 10.0


def _senders(urls: dict, save_games: list[Game], numbers: dict) -> dict[str, Callable]:
    """{key: send(browser, thread)} → (status, headers, body, expected status)."""

    def get(path):
        return lambda browser, _i: (*browser.get(path), 200)

    def preview(browser, _i):
        data = hand_form_data([BIG, SMALL], urls["next"], action="preview")
        return (*browser.post(urls["preview"], data, {"HX-Request": "true"}), 200)

    senders = {key: get(urls[key]) for key in ("home", "standings", "player", "table")}
    senders.update(standings_cold=senders["standings"], player_cold=senders["player"])
    senders.update(preview=preview, minimal=get(MINIMAL_PATH))
    senders["hand_save"] = _save_sender(save_games, numbers)
    return senders


def _save_sender(games: list[Game], numbers: dict) -> Callable:
    """Thread ``i`` saves the next hand of game ``i`` (one game per connection)."""

    def save(browser, i):
        game = games[i % len(games)]
        number = numbers[game.pk]
        path = reverse("scoring:hand_new", args=[game.pk])
        answer = browser.post(path, hand_form_data([ZERO, ZERO], number))
        browser.cookies.pop("messages", None)  # the table page would show and drop it
        if answer[0] == 302:
            numbers[game.pk] = number + 1
        return (*answer, 302)

    return save


def _urls(season, member, game: Game) -> dict:
    return {
        "home": reverse("home"),
        "standings": reverse("scoring:standings") + f"?season={season.pk}",
        "player": reverse("scoring:player", args=[member.pk]),
        "table": reverse("scoring:table", args=[game.table_id]),
        "preview": reverse("scoring:hand_preview", args=[game.pk]),
        "next": game.hand_count + 1,
    }


def _next_numbers(games: list[Game]) -> dict[int, int]:
    counts = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "hand_count"))
    return {pk: count + 1 for pk, count in counts.items()}


def measure_http(opts: HttpOptions, log: Callable[[str], None] = print) -> dict:
    """Every page of :data:`HTTP_PAGES` over HTTP, ``opts.rounds`` rounds, then the
    crowd of tables saving at once. Returns {"pages": {key: …}, "crowd": …, …}."""
    officer_user()
    season, member, game = latest_season_with_games(), busiest_member(), game_in_progress()
    save_games = games_for_saving(opts.connections)
    urls = _urls(season, member, game)
    found: dict[str, list] = {key: [] for key, _label, _target in HTTP_PAGES}
    with Server(workers=opts.workers, log=log) as server:
        browser = Browser(server.port)
        browser.login(OFFICER_USERNAME, OFFICER_PASSWORD)
        numbers = _next_numbers(save_games)
        senders = _senders(urls, save_games, numbers)
        for round_number in range(1, opts.rounds + 1):
            log(f"HTTP round {round_number} of {opts.rounds} ({opts.seconds:g} s per run)")
            for key, _label, _target in HTTP_PAGES:
                if key == "hand_save":
                    numbers.update(_next_numbers(save_games))
                most = len(save_games) if key == "hand_save" else opts.connections
                run = _pair(server.port, browser.cookies, senders, key, opts, most)
                found[key].append(run)
    pages = {key: _summary(runs, key) for key, runs in found.items()}
    result = {"pages": pages, "options": vars(opts), "bytes_note": "largest body seen"}
    result["crowd"] = crowd(opts, log=log) if opts.crowd_connections else None
    return result


def _a_game_finished() -> None:
    """What the results pages see when a game the measured member played in finishes:
    the standings' and the member's own stamps both change (a real finish replaces the
    player's stored rows; bumping every person's version does the same to the page)."""
    results_changed(every_person=True)


def _pair(port: int, cookies: dict, senders: dict, key: str, opts: HttpOptions, most: int):
    """The minimal view, then the page, for the same time on as many connections (at
    most ``most``; one for a body drawn each time)."""
    cold = key.endswith("_cold")
    connections = 1 if cold else min(opts.connections, most)
    common = {"connections": connections, "seconds": opts.seconds}
    base = load(port, cookies, senders["minimal"], **common)
    page = load(port, cookies, senders[key], before=_a_game_finished if cold else None, **common)
    return {"minimal": base, "page": page, "connections": connections}


def _summary(runs: list[dict], key: str) -> dict:
    label, target = next((label, t) for k, label, t in HTTP_PAGES if k == key)
    ratios = [run["page"]["median_ms"] / run["minimal"]["median_ms"] for run in runs]
    return {
        "label": label,
        "target": target,
        "ratios": ratios,
        "ratio": statistics.median(ratios),
        "page_ms": statistics.median(run["page"]["median_ms"] for run in runs),
        "minimal_ms": statistics.median(run["minimal"]["median_ms"] for run in runs),
        "bytes": max(run["page"]["bytes"] for run in runs),
        "connections": runs[0]["connections"],
        "failed": sum(run["page"]["failed"] for run in runs),
        "failures": [f for run in runs for f in run["page"]["failures"]][:3],
    }


def crowd(opts: HttpOptions, log: Callable[[str], None] = print) -> dict:
    """``crowd_connections`` tables saving hands at once against ``crowd_workers``
    workers, for ``crowd_seconds`` each way: in waves (every table presses Save at the
    same moment, again half a second after the slowest answer: the judged 95th
    percentile), then flat out (each table saves again as soon as it is answered: the
    most saves a second the server keeps up, for context); and whether every hand
    answered as saved is in the database (nothing lost)."""
    games = games_for_saving(opts.crowd_connections)
    before = Hand.objects.filter(game__in=games).count()
    numbers = _next_numbers(games)
    log(
        f"HTTP: {len(games)} tables saving hands at once, {opts.crowd_workers} workers, "
        f"{opts.crowd_seconds:g} s"
    )
    with Server(workers=opts.crowd_workers, log=log) as server:
        browser = Browser(server.port)
        browser.login(OFFICER_USERNAME, OFFICER_PASSWORD)
        send = _save_sender(games, numbers)
        common = {"connections": len(games), "seconds": opts.crowd_seconds}
        run = waves(server.port, browser.cookies, send, **common)
        flat = load(server.port, browser.cookies, send, **common)
    stored = Hand.objects.filter(game__in=games).count() - before
    answered = run["requests"] - run["failed"] + flat["requests"] - flat["failed"]
    return {
        **run,
        "tables": len(games),
        "saved": answered,
        "stored": stored,
        "flat_out": {k: flat[k] for k in ("median_ms", "p95_ms", "per_second", "failed")},
    }
