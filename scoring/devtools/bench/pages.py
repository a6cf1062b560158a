"""Timing the pages: each one in-process with ``django.test.Client``, logged in as an
officer, routed by ``scoring.devtools.urls`` (the site plus the minimal view).

:func:`time_request` gives the median and 95th percentile of ``repeat`` requests, after
a warm-up request and one that counts the SQL queries (``CaptureQueriesContext``);
:func:`measure_pages` runs it over :data:`PAGES`. The results pages cache their bodies
until a game finishes, so the standings and a member's page are measured twice: served
from the cache, and "cache cold" (the cache emptied, untimed, before each request).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from scoring.devtools.bench.prepare import (
    BIG,
    SMALL,
    BenchError,
    busiest_member,
    game_in_progress,
    latest_season_with_games,
    officer_user,
)
from scoring.models import Game, TeamPlayer
from scoring.play.forms import hand_form_data
from scoring.play.services.hands import undo_last_hand

BENCH_URLCONF = "scoring.devtools.urls"

# (key, label) of the measured pages, the yardstick first.
PAGES = (
    ("minimal", "Minimal view (yardstick)"),
    ("standings", "Season standings page"),
    ("standings_cold", "Season standings page, cache cold"),
    ("player", "A member's page"),
    ("player_cold", "A member's page, cache cold"),
    ("table", "A table page"),
    ("board", "The room board, one poll"),
    ("hand_save", "Saving a hand"),
    ("preview", "Live preview"),
)
# Shown for context, not judged: the cheapest page that renders the site's base template.
FLOOR = ("home", "Home page (base template; not judged)")


TRANSACTION_STATEMENTS = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


def data_queries(captured: list[dict]) -> list[str]:
    """The SQL of the captured queries without the transaction statements (BEGIN,
    COMMIT, savepoints), which carry no data and which PostgreSQL's driver does not
    even log: the count that compares across databases."""
    return [q["sql"] for q in captured if not q["sql"].startswith(TRANSACTION_STATEMENTS)]


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (``pct`` in 0–100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def time_request(
    name: str,
    send: Callable[[], object],
    *,
    repeat: int,
    expect: int,
    after: Callable[[object], None] | None = None,
    before: Callable[[], None] | None = None,
) -> dict:
    """A warm-up request, one that counts the queries, then ``repeat`` timed ones.
    ``before`` and ``after`` run around each request, outside the timing (e.g. empty
    the cache, undo a saved hand)."""
    for _attempt in range(2):  # warm-up, then the counted request
        if before:
            before()
        with CaptureQueriesContext(connection) as captured:
            response = send()
        # Read now: the captured list is a slice of a log later requests reset.
        queries = len(data_queries(captured.captured_queries))
        status = getattr(response, "status_code", None)
        if status != expect:
            body = getattr(response, "content", b"")[:600].decode(errors="replace")
            raise BenchError(f"{name}: expected HTTP {expect}, got {status}. {body}")
        if after:
            after(response)
    samples = []
    for _ in range(repeat):
        if before:
            before()
        began = time.perf_counter()
        response = send()
        samples.append((time.perf_counter() - began) * 1000)
        if response.status_code != expect:
            raise BenchError(f"{name}: expected HTTP {expect}, got {response.status_code}.")
        if after:
            after(response)
    return {
        "median_ms": statistics.median(samples),
        "p95_ms": percentile(samples, 95),
        "queries": queries,
        "requests": repeat,
    }


def measure_pages(repeat: int = 30, log: Callable[[str], None] = print) -> dict:
    """Time every page of :data:`PAGES` and the :data:`FLOOR` (see the module
    docstring). Returns {key: {"median_ms", "p95_ms", "queries", "requests", "url",
    ...}}."""
    officer = officer_user()
    season = latest_season_with_games()
    member = busiest_member()
    game = game_in_progress()
    client = Client()
    client.force_login(officer)
    results = {}
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        urls = _page_urls(season, member, game)
        senders = _senders(client, urls, game)
        for key, label in (*PAGES[:1], FLOOR, *PAGES[1:]):
            send, expect, after = senders[key]
            # The results pages cache their bodies until a game finishes: "cold" empties
            # the cache before each request (the page just after a game finishes).
            before = cache.clear if key.endswith("_cold") else None
            log(f"Measuring: {label} ({repeat} requests)")
            results[key] = time_request(
                label, send, repeat=repeat, expect=expect, after=after, before=before
            )
            results[key]["url"] = urls[key]
    results["standings"]["note"] = f"season {season.name}"
    results["standings_cold"]["note"] = f"season {season.name}, cache emptied each time"
    results["player"]["note"] = (
        f"{member.full_name}, {TeamPlayer.objects.filter(person=member).count()} games"
    )
    results["table"]["note"] = f"game in progress, {game.hand_count} hands"
    results["board"]["note"] = "its day's tables, games and top scores (cached fragment)"
    return results


def _page_urls(season, member, game: Game) -> dict[str, str]:
    return {
        "minimal": reverse("bench_minimal"),
        "home": reverse("home"),
        "standings": reverse("scoring:standings") + f"?season={season.pk}",
        "player": reverse("scoring:player", args=[member.pk]),
        "standings_cold": reverse("scoring:standings") + f"?season={season.pk}",
        "player_cold": reverse("scoring:player", args=[member.pk]),
        "table": reverse("scoring:table", args=[game.table_id]),
        "board": reverse("scoring:board_live", args=[game.day_id]),
        "hand_save": reverse("scoring:hand_new", args=[game.pk]),
        "preview": reverse("scoring:hand_preview", args=[game.pk]),
    }


def _senders(client: Client, urls: dict[str, str], game: Game) -> dict[str, tuple]:
    """{key: (send, expected status, after)} for every page; saving a hand is undone
    after each request, through the services, so the game stays as it was."""
    next_number = game.hand_count + 1
    save_data = hand_form_data([BIG, SMALL], next_number)
    preview_data = hand_form_data([BIG, SMALL], next_number, action="preview")

    def undo(response):
        # Not timed: put the game back as it was, through the services.
        client.cookies.pop("messages", None)  # unread "saved" messages would pile up
        fresh = Game.objects.get(pk=game.pk)
        if fresh.hand_count != next_number:
            raise BenchError(f"The hand was not saved (the game has {fresh.hand_count} hands).")
        undo_last_hand(fresh, expected_hand_count=next_number)

    return {
        "minimal": (lambda: client.get(urls["minimal"]), 200, None),
        "standings_cold": (lambda: client.get(urls["standings"]), 200, None),
        "player_cold": (lambda: client.get(urls["player"]), 200, None),
        "home": (lambda: client.get(urls["home"]), 200, None),
        "standings": (lambda: client.get(urls["standings"]), 200, None),
        "player": (lambda: client.get(urls["player"]), 200, None),
        "table": (lambda: client.get(urls["table"]), 200, None),
        "board": (lambda: client.get(urls["board"]), 200, None),
        "hand_save": (lambda: client.post(urls["hand_save"], save_data), 302, undo),
        "preview": (
            lambda: client.post(urls["preview"], preview_data, headers={"HX-Request": "true"}),
            200,
            None,
        ),
    }
