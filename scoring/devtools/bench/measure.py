"""The benchmark's measurements besides the pages, and :func:`measure_all`, which runs
them all on the league in the current database.

- the league workbook of one season: wall time and the process's peak RSS rise
  (``resource.getrusage``) in a first run, Python's peak allocation (``tracemalloc``,
  which slows the code down, hence a second run) in a second;
- the engine: team-hands scored per second on pre-generated hands
  (:mod:`scoring.devtools.simulate`).
"""

from __future__ import annotations

import gc
import random
import resource
import tempfile
import time
import tracemalloc
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from members.models import ClubDay, Person
from scoring import engine
from scoring.devtools.bench.http_pages import HttpOptions, measure_http
from scoring.devtools.bench.pages import measure_pages
from scoring.devtools.bench.prepare import latest_season_with_games
from scoring.devtools.simulate import play_game
from scoring.models import Game, Hand, Season
from scoring.results import exports, standings


def max_rss_mb() -> float:
    """The process's peak resident set size so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_workbook(season: Season | None = None, log: Callable[[str], None] = print) -> dict:
    """Export one season's league workbook twice: timed (with the RSS high-water rise),
    then under tracemalloc (Python's own peak allocation)."""
    season = season or latest_season_with_games()
    period = standings.season_period(season)
    hands = Hand.objects.filter(
        game__status=Game.Status.FINISHED,
        game__day_date__gte=season.start,
        game__day_date__lte=season.end,
    ).count()
    log(f"Measuring: the league workbook of season {season.name} ({hands:,} hands)")
    gc.collect()
    rss_before = max_rss_mb()
    with tempfile.TemporaryFile(suffix=".xlsx") as handle:
        began = time.perf_counter()
        counts = exports.write_league_workbook(handle, period)
        seconds = time.perf_counter() - began
        size = handle.tell()
    rss_rise = max_rss_mb() - rss_before
    gc.collect()
    tracemalloc.start()
    try:
        with (
            CaptureQueriesContext(connection) as captured,
            tempfile.TemporaryFile(suffix=".xlsx") as handle,
        ):
            exports.write_league_workbook(handle, period)
        queries = len(captured.captured_queries)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return {
        "seconds": seconds,
        "python_peak_mb": peak / 2**20,
        "rss_rise_mb": rss_rise,
        "queries": queries,
        "hands": hands,
        "rows": counts,
        "bytes": size,
        "season": season.name,
    }


def engine_hands(count: int = 2000, seed: int = 1) -> list[tuple[list, list[int]]]:
    """(team inputs, scores before) of ``count`` simulated hands, games played through."""
    rules = engine.PRESETS["club"]
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        hands += [(inputs, before) for inputs, before, _ in play_game(rng, rules)]
    return hands[:count]


def measure_engine(min_seconds: float = 1.0, log: Callable[[str], None] = print) -> dict:
    """Team-hands scored per second by ``engine.score_hand`` (at least ``min_seconds``
    of scoring)."""
    rules = engine.PRESETS["club"]
    hands = engine_hands()
    log(f"Measuring: the engine ({len(hands):,} simulated hands, ≥ {min_seconds:g} s)")
    refused = sum(1 for inputs, before in hands if not engine.score_hand(rules, inputs, before).ok)
    team_hands = 0
    passes = 0
    score = engine.score_hand
    began = time.perf_counter()
    while True:
        for inputs, before in hands:
            score(rules, inputs, before)
        team_hands += len(hands) * rules.teams
        passes += 1
        elapsed = time.perf_counter() - began
        if elapsed >= min_seconds:
            break
    return {
        "team_hands_per_second": team_hands / elapsed,
        "microseconds_per_team_hand": elapsed / team_hands * 1e6,
        "team_hands": team_hands,
        "seconds": elapsed,
        "refused": refused,
    }


def measure_all(
    repeat: int = 30,
    *,
    workbook: bool = True,
    engine_seconds: float = 1.0,
    http: HttpOptions | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    """Every measurement on the league in the current database (``http``: the pages
    over HTTP too)."""
    result = {
        "database": settings.DATABASES["default"]["NAME"],
        "vendor": connection.vendor,
        "counts": {
            "people": Person.objects.count(),
            "games": Game.objects.count(),
            "hands": Hand.objects.count(),
            "days": ClubDay.objects.count(),
        },
    }
    if workbook:
        # First, while the process is still small: its RSS rise is the export's.
        result["workbook"] = measure_workbook(log=log)
    result["pages"] = measure_pages(repeat, log=log)
    if engine_seconds:
        result["engine"] = measure_engine(engine_seconds, log=log)
    if http is not None:
        result["http"] = measure_http(http, log=log)
    return result
