"""The measurements of ``manage.py benchmark`` (the command itself only runs processes
and prints the table).

Everything here runs inside the benchmark's child process, whose database is a
throwaway one (see the command): it builds or reuses a generated league
(:mod:`scoring.devtools.league`), adds an open club day with a game in progress, then measures

- pages, in-process with ``django.test.Client`` and logged in as an officer: the time
  around each request (median and 95th percentile of ``repeat`` requests, after one
  warm-up request) and the number of SQL queries of one request
  (``CaptureQueriesContext``); every page is compared with the minimal view
  (``clubsite.views.minimal``, routed by ``scoring.devtools.urls``) measured the same way.
  The results pages cache their bodies until a game finishes (or a finished game
  changes), so the standings and a member's page are measured twice: as served from
  the cache, and "cache cold" (the cache emptied before each request, untimed: the
  page just after a game finishes). The cold query counts are the ones that show
  whether a page's queries grow with the history;
- the league workbook of one season: wall time and the process's peak RSS rise
  (``resource.getrusage``) in a first run, Python's peak allocation (``tracemalloc``,
  which slows the code down, hence a second run) in a second;
- the engine: team-hands scored per second on pre-generated hands.

No assertion about speed lives here: the numbers are a report.
"""

from __future__ import annotations

import datetime
import gc
import json
import math
import random
import resource
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.db.models import Count, Max
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from members.models import OFFICERS_GROUP, ClubDay, Person, Round, Seat, SignIn, Table
from scoring import engine
from scoring.devtools.league import GENERATOR_VERSION, LeagueOptions, generate_league
from scoring.devtools.simulate import play_game
from scoring.models import Game, Hand, RuleSet, Season, TeamPlayer
from scoring.play import services
from scoring.play.forms import hand_form_data
from scoring.results import exports, standings

BENCH_URLCONF = "scoring.devtools.urls"
BENCH_DAY_TITLE = "Benchmark day (made by manage.py benchmark)"
OFFICER_USERNAME = "bench-officer"

TARGET_RATIO = 3.0  # pages and the hand save: at most 3 × the minimal view's median
WORKBOOK_SECONDS = 10.0
WORKBOOK_MB = 200.0
ENGINE_TARGET = 50_000  # team-hands per second

# (key, label) of the measured pages, the yardstick first.
PAGES = (
    ("minimal", "Minimal view (yardstick)"),
    ("standings", "Season standings page"),
    ("standings_cold", "Season standings page, cache cold"),
    ("player", "A member's page"),
    ("player_cold", "A member's page, cache cold"),
    ("table", "A table page"),
    ("hand_save", "Saving a hand"),
    ("preview", "Live preview"),
)
# Shown for context, not judged: the cheapest page that renders the site's base template.
FLOOR = ("home", "Home page (base template; not judged)")

# Hands of the benchmark game (club rules): small ones before, one big one saved.
SMALL = {
    "melded_points": 120,
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "hand_points": 40,
    "red_threes": 0,
    "went_out": "none",
}
BIG = {
    "melded_points": 400,
    "natural_canastas": 1,
    "mixed_canastas": 1,
    "hand_points": 0,
    "red_threes": 1,
    "went_out": "out",
}
HANDS_BEFORE = 3


# ---------------------------------------------------------------------------------------
# Small helpers


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (``pct`` in 0–100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def max_rss_mb() -> float:
    """The process's peak resident set size so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def league_params(opts: LeagueOptions) -> dict:
    data = asdict(opts)
    data["start"] = opts.start.isoformat()
    data["generator"] = GENERATOR_VERSION
    return data


def marker_path(marker_dir: Path, name: str) -> Path:
    return Path(marker_dir) / f"{name}.league.json"


def read_marker(path: Path | None) -> dict | None:
    if path is None or not Path(path).exists():
        return None
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------------------------------
# The league


class BenchError(Exception):
    pass


def ensure_league(
    opts: LeagueOptions,
    marker: Path | None,
    *,
    rebuild: bool = False,
    may_wipe: bool = True,
    log: Callable[[str], None] = print,
) -> dict:
    """Migrate, then reuse the league the marker file describes, or build it (wiping the
    database first when it holds another one and ``may_wipe``). Returns the marker."""
    call_command("migrate", verbosity=0, interactive=False)
    wanted = league_params(opts)
    found = read_marker(marker)
    has_games = Game.objects.exists()
    if not rebuild and has_games and found and found.get("params") == wanted:
        log(f"Reusing the league in this database ({found['summary_line']}).")
        return {**found, "reused": True}
    if has_games:
        if not may_wipe:
            raise BenchError(
                "The benchmark database already holds games, but not the league asked for. "
                "Run with --rebuild to wipe it and build the league again."
            )
        log("Wiping the benchmark database (another league was in it).")
        call_command("flush", interactive=False, verbosity=0)
    log(
        f"Building the league: {opts.people} people, {opts.years} years, seed {opts.seed}, "
        f"{opts.days_per_year} days a year, {opts.tables_min}–{opts.tables_max} tables a day "
        "(the first run takes a while)."
    )
    summary = generate_league(opts, progress=log)
    data = {
        "params": wanted,
        "summary": asdict(summary),
        "summary_line": summary.line(),
        "built_seconds": round(summary.seconds, 1),
    }
    if marker is not None:
        Path(marker).parent.mkdir(parents=True, exist_ok=True)
        Path(marker).write_text(json.dumps(data, indent=2))
    return {**data, "reused": False}


# ---------------------------------------------------------------------------------------
# What the pages need: an officer, a season, a member, an open day with a game


def officer_user():
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=OFFICER_USERNAME, defaults={"first_name": "Bench", "last_name": "Officer"}
    )
    if created:
        user.set_unusable_password()
        user.save()
    group, _ = Group.objects.get_or_create(name=OFFICERS_GROUP)
    user.groups.add(group)
    return user


def latest_season_with_games() -> Season:
    for season in Season.objects.order_by("-start", "-pk"):
        if Game.objects.finished().between(season.start, season.end).exists():
            return season
    raise BenchError("The benchmark database has no season with finished games.")


def busiest_member() -> Person:
    """The active member who played the most games (ties: the lowest id)."""
    row = (
        TeamPlayer.objects.filter(
            person__kind=Person.Kind.MEMBER,
            person__status=Person.Status.ACTIVE,
            person__merged_into__isnull=True,
        )
        .values("person_id")
        .annotate(games=Count("pk"))
        .order_by("-games", "person_id")
        .first()
    )
    if row is None:
        raise BenchError("The benchmark database has no member who played.")
    return Person.objects.get(pk=row["person_id"])


def game_in_progress(now=None) -> Game:
    """A game in progress (hands 1–3 played) at a table of the open benchmark day, made
    through the services the first time and reused by later runs (the measurements put
    it back as it was). The day is dated after the league's last day, so it never
    changes the season's standings."""
    services.ensure_presets()
    reuse = (
        Game.objects.filter(
            day__title=BENCH_DAY_TITLE, status=Game.Status.PLAYING, hand_count=HANDS_BEFORE
        )
        .order_by("-pk")
        .first()
    )
    if reuse is not None:
        day = reuse.day
        if not day.is_open:
            day.status, day.closed_at = ClubDay.Status.OPEN, None
            day.save(update_fields=["status", "closed_at"])
        return reuse
    day = ClubDay.objects.filter(title=BENCH_DAY_TITLE).order_by("-pk").first()
    if day is None:
        last = ClubDay.objects.aggregate(last=Max("date"))["last"] or datetime.date(2021, 1, 1)
        day = ClubDay.objects.create(date=last + datetime.timedelta(days=1), title=BENCH_DAY_TITLE)
    if not day.is_open:
        day.status, day.closed_at = ClubDay.Status.OPEN, None
        day.save(update_fields=["status", "closed_at"])
    rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    services.set_day_rules(day, rule_set)
    number = (day.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    round_ = Round.objects.create(day=day, number=number, started=True)
    people = list(Person.objects.members().active().order_by("membership_number", "pk")[:4])
    if len(people) < 4:
        raise BenchError("The benchmark database needs four active members.")
    table = Table.objects.create(round=round_, number=1)
    for position, person in enumerate(people, start=1):
        SignIn.objects.get_or_create(day=day, person=person)
        Seat.objects.create(round=round_, table=table, person=person, position=position)
    a, b, c, d = people
    game = services.start_game(
        table, [[a, c], [b, d]], rule_set=rule_set, score_keeper=a, first_dealer=a, now=now
    )
    for number in range(1, HANDS_BEFORE + 1):
        services.record_hand(game, [SMALL, SMALL], number=number, now=now)
    return game


# ---------------------------------------------------------------------------------------
# Timing requests


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
        queries = len(captured.captured_queries)
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
    """Time every page of :data:`PAGES` (see the module docstring). Returns
    {key: {"median_ms", "p95_ms", "queries", "requests", "url", ...}}."""
    officer = officer_user()
    season = latest_season_with_games()
    member = busiest_member()
    game = game_in_progress()
    client = Client()
    client.force_login(officer)
    next_number = game.hand_count + 1
    save_data = hand_form_data([BIG, SMALL], next_number)
    preview_data = hand_form_data([BIG, SMALL], next_number, action="preview")

    def undo(response):
        # Not timed: put the game back as it was, through the services.
        client.cookies.pop("messages", None)  # unread "saved" messages would pile up
        fresh = Game.objects.get(pk=game.pk)
        if fresh.hand_count != next_number:
            raise BenchError(f"The hand was not saved (the game has {fresh.hand_count} hands).")
        services.undo_last_hand(fresh, expected_hand_count=next_number)

    urls = {}
    results = {}
    with override_settings(ROOT_URLCONF=BENCH_URLCONF):
        urls = {
            "minimal": reverse("bench_minimal"),
            "home": reverse("home"),
            "standings": reverse("scoring:standings") + f"?season={season.pk}",
            "player": reverse("scoring:player", args=[member.pk]),
            "standings_cold": reverse("scoring:standings") + f"?season={season.pk}",
            "player_cold": reverse("scoring:player", args=[member.pk]),
            "table": reverse("scoring:table", args=[game.table_id]),
            "hand_save": reverse("scoring:hand_new", args=[game.pk]),
            "preview": reverse("scoring:hand_preview", args=[game.pk]),
        }
        senders = {
            "minimal": (lambda: client.get(urls["minimal"]), 200, None),
            "standings_cold": (lambda: client.get(urls["standings"]), 200, None),
            "player_cold": (lambda: client.get(urls["player"]), 200, None),
            "home": (lambda: client.get(urls["home"]), 200, None),
            "standings": (lambda: client.get(urls["standings"]), 200, None),
            "player": (lambda: client.get(urls["player"]), 200, None),
            "table": (lambda: client.get(urls["table"]), 200, None),
            "hand_save": (lambda: client.post(urls["hand_save"], save_data), 302, undo),
            "preview": (
                lambda: client.post(urls["preview"], preview_data, headers={"HX-Request": "true"}),
                200,
                None,
            ),
        }
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
    return results


# ---------------------------------------------------------------------------------------
# The workbook


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


# ---------------------------------------------------------------------------------------
# The engine


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


# ---------------------------------------------------------------------------------------
# Everything, for one league


def measure_all(
    repeat: int = 30,
    *,
    workbook: bool = True,
    engine_seconds: float = 1.0,
    log: Callable[[str], None] = print,
) -> dict:
    """Every measurement on the league in the current database."""
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
    return result


# ---------------------------------------------------------------------------------------
# The report


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f} ms"


def report_rows(full: dict | None, small: dict | None) -> tuple[list[list[str]], list[str]]:
    """The table's rows and the list of missed targets. ``full`` is the measured league
    (or the small one with --small-only, then ``small`` is None)."""
    main = full or small
    compare = small if full is not None else None
    pages = main["pages"]
    yardstick = pages["minimal"]["median_ms"]
    floor = pages.get(FLOOR[0], {}).get("median_ms")
    rows, misses = [], []
    for key, label in (*PAGES[:1], FLOOR, *PAGES[1:]):
        if key not in pages:
            continue
        page = pages[key]
        other = compare["pages"].get(key, {}).get("queries") if compare else None
        same = "—" if other is None else ("yes" if other == page["queries"] else "NO")
        if key == "minimal":
            ratio_text, verdict = "1.0× (yardstick)", "—"
        elif key == FLOOR[0]:
            ratio = page["median_ms"] / yardstick if yardstick else float("inf")
            ratio_text, verdict = f"{ratio:,.1f}× (context)", "—"
        else:
            ratio = page["median_ms"] / yardstick if yardstick else float("inf")
            ratio_text = f"{ratio:,.1f}× (≤ {TARGET_RATIO:g}×)"
            problems = []
            if ratio > TARGET_RATIO:
                problems.append(f"{ratio:,.1f}× the minimal view")
            if same == "NO":
                problems.append(f"queries {other} → {page['queries']} at 10× the league")
            verdict = "MISS" if problems else "PASS"
            if problems:
                misses.append(f"{label}: " + ", ".join(problems))
        rows.append(
            [
                label,
                _ms(page["median_ms"]),
                _ms(page["p95_ms"]),
                str(page["queries"]),
                "—" if other is None else str(other),
                same,
                ratio_text,
                f"{page['median_ms'] / floor:,.1f}×" if floor else "—",
                verdict,
            ]
        )
    book = main.get("workbook")
    if book:
        other = compare.get("workbook", {}).get("queries") if compare else None
        same = "—" if other is None else ("yes" if other == book["queries"] else "NO")
        ok_time = book["seconds"] < WORKBOOK_SECONDS
        ok_mem = max(book["python_peak_mb"], book["rss_rise_mb"]) < WORKBOOK_MB
        problems = []
        if not ok_time:
            problems.append(f"{book['seconds']:.1f} s ≥ {WORKBOOK_SECONDS:g} s")
        if not ok_mem:
            problems.append(
                f"peak {max(book['python_peak_mb'], book['rss_rise_mb']):.0f} MB ≥ "
                f"{WORKBOOK_MB:g} MB"
            )
        if problems:
            misses.append(f"Workbook: {', '.join(problems)}")
        rows.append(
            [
                f"Workbook, season {book['season']} ({book['hands']:,} hands)",
                f"{book['seconds']:,.2f} s",
                "—",
                str(book["queries"]),
                "—" if other is None else str(other),
                same,
                f"< {WORKBOOK_SECONDS:g} s; peak {book['python_peak_mb']:,.0f} MB Python "
                f"(tracemalloc), RSS +{book['rss_rise_mb']:,.0f} MB (< {WORKBOOK_MB:g} MB)",
                "—",
                "MISS" if problems else "PASS",
            ]
        )
    eng = main.get("engine")
    if eng:
        rate = eng["team_hands_per_second"]
        ok = rate >= ENGINE_TARGET and not eng["refused"]
        if not ok:
            misses.append(f"Engine: {rate:,.0f} team-hands/s < {ENGINE_TARGET:,}")
        rows.append(
            [
                "Engine (score_hand)",
                f"{eng['microseconds_per_team_hand']:.1f} µs",
                "—",
                "0",
                "—",
                "—",
                f"{rate:,.0f} team-hands/s (≥ {ENGINE_TARGET:,})",
                "—",
                "PASS" if ok else "MISS",
            ]
        )
    return rows, misses


# "× home": the page's time as a multiple of the home page's (the lightest page drawn
# with the site's layout for a logged-in user), shown for context, not judged.
HEADERS = [
    "measure",
    "median",
    "p95",
    "queries",
    "queries 1/10",
    "same?",
    "ratio / target",
    "× home",
]


def format_table(rows: list[list[str]]) -> str:
    headers = [*HEADERS, "verdict"]
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    right = {1, 2, 3, 4, 7}

    def line(cells):
        return "  ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def summary_line(rows: list[list[str]], misses: list[str]) -> str:
    judged = [r for r in rows if r[-1] in ("PASS", "MISS")]
    passed = sum(1 for r in judged if r[-1] == "PASS")
    if not misses:
        return f"Benchmark: all {len(judged)} targets met."
    return f"Benchmark: {passed} of {len(judged)} targets met; MISSED: " + "; ".join(misses) + "."
