"""manage.py benchmark: the measurements on a tiny league, the report, and the parent
command re-running itself against a throwaway database. No speed is asserted here
(design.md): only that every measure is there, with numbers."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from members.models import ClubDay
from scoring.devtools.bench.http_pages import HTTP_PAGES
from scoring.devtools.bench.measure import measure_all
from scoring.devtools.bench.pages import FLOOR, PAGES, measure_pages, percentile
from scoring.devtools.bench.prepare import BENCH_DAY_TITLE, HANDS_BEFORE
from scoring.devtools.bench.report import (
    format_http_table,
    format_table,
    http_rows,
    report_rows,
    summary_line,
)
from scoring.models import Game, Hand

TINY = [
    "--people",
    "24",
    "--years",
    "1",
    "--tables-min",
    "2",
    "--tables-max",
    "3",
]

ROW_LABELS = [label for _key, label in PAGES] + [
    FLOOR[1],
    "Workbook, season",
    "Engine (score_hand)",
]


@pytest.fixture
def tiny_league(db):
    call_command("generate_league", *TINY, "--days-per-year", "3", "--quiet")


def test_measure_all_reports_every_measure_with_numbers(tiny_league):
    result = measure_all(repeat=2, engine_seconds=0.05, log=lambda line: None)
    for key, _label in (*PAGES, FLOOR):
        page = result["pages"][key]
        assert page["median_ms"] > 0 and page["p95_ms"] >= page["median_ms"] * 0.5
        assert page["requests"] == 2
        assert isinstance(page["queries"], int)
    for key in ("standings", "player", "table", "hand_save", "preview"):
        assert result["pages"][key]["queries"] > 0, key
    book = result["workbook"]
    assert book["seconds"] > 0 and book["python_peak_mb"] > 0 and book["hands"] > 0
    assert book["rows"]["Hands"] == 2 * book["hands"]  # a row per team and hand
    eng = result["engine"]
    assert eng["team_hands_per_second"] > 0 and eng["refused"] == 0

    rows, misses = report_rows(result, None)
    table = format_table(rows)
    for label in ROW_LABELS:
        assert label in table
    assert len(rows) == len(PAGES) + 3  # + the home page, workbook, engine
    for row in rows:
        assert re.search(r"\d", row[1]), row  # a median for every row
        assert row[-1] in ("PASS", "MISS", "—")
    summary = summary_line(rows, misses)
    assert summary.startswith("Benchmark: ")


def test_the_hand_save_leaves_the_benchmark_game_as_it_was(tiny_league):
    measure_pages(repeat=3, log=lambda line: None)
    measure_pages(repeat=2, log=lambda line: None)  # a second run reuses the game
    game = Game.objects.get(day__title=BENCH_DAY_TITLE)
    assert game.hand_count == HANDS_BEFORE and not game.is_finished
    assert Hand.objects.filter(game=game).count() == HANDS_BEFORE
    # The benchmark day comes after the league: it never counts in a season.
    day = ClubDay.objects.get(title=BENCH_DAY_TITLE)
    assert day.date > ClubDay.objects.exclude(pk=day.pk).latest("date").date


def test_report_compares_query_counts_of_the_two_leagues():
    def result(queries):
        pages = {
            key: {"median_ms": 2.0, "p95_ms": 3.0, "queries": queries.get(key, 5)}
            for key, _ in PAGES
        }
        pages["minimal"]["median_ms"] = 1.0
        return {"pages": pages}

    rows, misses = report_rows(result({"player": 9}), result({}))
    by_label = {row[0]: row for row in rows}
    assert by_label["A member's page"][3:6] == ["9", "5", "NO"]
    assert by_label["A table page"][3:6] == ["5", "5", "yes"]
    assert by_label["A table page"][-1] == "PASS"  # the same queries (times are context)
    assert by_label["A member's page"][-1] == "MISS"
    assert by_label["A table page"][7] == "—"  # no home page measured here
    with_home = result({})
    with_home["pages"]["home"] = {"median_ms": 4.0, "p95_ms": 5.0, "queries": 3}
    rows, _misses = report_rows(with_home, None)
    by_label = {row[0]: row for row in rows}
    assert by_label["A table page"][7] == "0.5×"
    assert by_label[FLOOR[1]][7] == "1.0×"
    assert any("member's page" in m and "queries 5 → 9" in m for m in misses)


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 95) == 95
    assert percentile([4.0], 95) == 4.0
    assert percentile([1.0, 2.0], 95) == 2.0


@pytest.mark.django_db
def test_the_child_step_refuses_to_run_outside_the_benchmark():
    with pytest.raises(CommandError, match="internal"):
        call_command("benchmark", "--child", "measure")


@pytest.mark.django_db
def test_benchmark_reexecs_itself_against_a_throwaway_database(tmp_path):
    args = [
        "benchmark",
        "--small-only",
        *TINY,
        "--days-per-year",
        "30",  # the small league has a tenth: 3 club days
        "--repeat",
        "2",
        "--engine-seconds",
        "0.05",
        "--bench-dir",
        str(tmp_path),
        *("--http-seconds", "0.3", "--rounds", "1", "--connections", "2", "--crowd", "2"),
    ]
    out = StringIO()
    call_command(*args, stdout=out)
    text = out.getvalue()
    # Over HTTP: gunicorn answered every page, logged in, and saved hands.
    for _key, label, _target in HTTP_PAGES:
        assert label in text, label
    assert "2 tables saving at once" in text
    assert "gunicorn is up on 127.0.0.1:" in text
    assert "HTTP 4" not in text and "HTTP 5" not in text  # no refused or failed request
    database = tmp_path / "league-24-1-1-small.sqlite3"
    assert database.exists()
    assert (tmp_path / "league-24-1-1-small.league.json").exists()
    assert str(database) in text
    for label in ROW_LABELS:
        assert label in text, label
    assert "Benchmark: " in text
    assert "Building the league" in text
    # The site's own (test) database was never touched.
    assert not Game.objects.exists()
    assert not ClubDay.objects.exists()

    again = StringIO()
    call_command(*args[: args.index("--http-seconds")], "--no-http", stdout=again)
    assert "Reusing the league" in again.getvalue()
    assert "reused" in again.getvalue()


def _http_page(ratios, target=5.0, failed=0):
    return {
        "label": "Some page",
        "target": target,
        "ratios": ratios,
        "ratio": sorted(ratios)[len(ratios) // 2],
        "page_ms": 9.0,
        "bytes": 1234,
        "connections": 8,
        "failed": failed,
        "failures": ["HTTP 500 (expected 200)"] if failed else [],
    }


def test_the_http_rows_judge_the_median_ratio_and_the_crowd_on_postgresql():
    crowd = {"tables": 25, "saved": 100, "stored": 100, "failed": 0, "median_ms": 50.0}
    http = {
        "pages": {"ok": _http_page([4.0, 6.0, 4.5]), "slow": _http_page([6.0, 5.5, 4.0])},
        "crowd": {**crowd, "p95_ms": 200.0},
    }
    rows, misses = http_rows(http, "sqlite")
    assert [r[-1] for r in rows[:2]] == ["PASS", "MISS"]
    assert rows[0][4] == "4.0, 6.0, 4.5"  # each round's ratio, in order
    assert rows[2][-1].startswith("—")  # the crowd is judged on PostgreSQL only
    assert len(misses) == 1 and "5.5× > 5×" in misses[0]
    rows, misses = http_rows(http, "postgresql")
    assert rows[2][-1] == "MISS" and "p95 200 ms" in misses[-1]
    http["crowd"] = {**crowd, "p95_ms": 90.0, "stored": 99}
    rows, misses = http_rows(http, "postgresql")
    assert rows[2][-1] == "MISS" and "1 lost" in misses[-1]
    http["pages"]["ok"] = _http_page([1.0], failed=2)
    rows, misses = http_rows(http, "sqlite")
    assert rows[0][-1] == "MISS" and "2 failed" in misses[0]
    assert "Some page" in format_http_table(rows)


def test_the_crowd_row_counts_the_flat_out_run_too():
    crowd = {"tables": 25, "saved": 100, "stored": 100, "failed": 0, "median_ms": 50.0}
    flat = {"median_ms": 300.0, "p95_ms": 900.0, "per_second": 80.0, "failed": 0}
    http = {"pages": {}, "crowd": {**crowd, "p95_ms": 120.0, "flat_out": flat}}
    rows, misses = http_rows(http, "postgresql")
    assert rows[0][-1] == "PASS" and not misses  # judged on the waves, not flat out
    assert "flat out: 80 saves/s, p95 900 ms" in rows[0][5]
    http["crowd"]["flat_out"] = {**flat, "failed": 3}
    rows, misses = http_rows(http, "postgresql")
    assert rows[0][-1] == "MISS" and "3 failed" in misses[0]


def test_waves_send_together_and_wait_for_the_slowest():
    """Every client of a wave sends at the same moment; the next wave starts only once
    the slowest has its answer."""
    import threading
    import time

    from scoring.devtools.bench.http import waves

    started: list[tuple[int, float]] = []
    lock = threading.Lock()
    # Sent together: a wave's three requests are all in flight at once, or this
    # barrier times out and the request fails (no clock involved).
    together = threading.Barrier(3, timeout=5)

    def send(_browser, index):
        with lock:
            started.append((index, time.perf_counter()))
        together.wait()
        time.sleep(0.05 if index == 2 else 0.001)  # client 2 is always the slowest
        return 302, {}, b"", 302

    result = waves(0, {}, send, connections=3, seconds=0.3, pause=0.01)
    assert result["requests"] == len(started) and len(started) % 3 == 0
    assert result["failed"] == 0
    first = sorted(started, key=lambda s: s[1])
    for wave in range(len(first) // 3):
        group = first[wave * 3 : wave * 3 + 3]
        assert {i for i, _ in group} == {0, 1, 2}  # one request per client per wave
        if wave:
            assert group[0][1] - first[wave * 3 - 3][1] >= 0.05  # after the slowest


def test_a_client_that_fails_stops_the_waves_as_a_failure():
    from scoring.devtools.bench.http import waves

    calls = []

    def send(_browser, index):
        calls.append(index)
        if index == 1 and calls.count(1) == 2:  # the server goes away in the second wave
            raise ConnectionRefusedError("no server")
        return 302, {}, b"", 302

    result = waves(0, {}, send, connections=2, seconds=5, pause=0.01)
    assert result["requests"] >= 2  # the first wave was answered
    assert result["failed"] >= 1
    assert any("ConnectionRefusedError" in f for f in result["failures"])
