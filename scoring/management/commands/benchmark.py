"""Measure the pages, the hand save, the workbook and the engine on a generated league:

    python manage.py benchmark [--people 400 --years 5 --seed 1 --repeat 30]

The site's own database is never touched. The command re-runs itself in child
processes whose ``DATABASE_URL`` points at throwaway SQLite files in ``.bench/`` beside
manage.py (``league-<people>-<years>-<seed>.sqlite3`` and, for the query counts at a
tenth of the size, ``…-small.sqlite3``), or at ``--database-url`` /
``--small-database-url``. A league is built the first time and reused afterwards (a
``.league.json`` marker beside the file records its options); ``--rebuild`` builds it
again. Each league is built in one child and measured in a fresh one.

It prints one table (see :mod:`scoring.devtools.bench`) and a summary line, and exits 0
even when a target is missed: it is a report.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring.devtools.bench.http_pages import HttpOptions
from scoring.devtools.bench.measure import measure_all
from scoring.devtools.bench.prepare import BenchError, ensure_league, marker_path
from scoring.devtools.bench.report import (
    HEADERS,
    format_http_table,
    format_table,
    http_rows,
    report_rows,
    summary_line,
)
from scoring.devtools.league.options import DEFAULT_START, LeagueOptions

CHILD_ENV = "CLUBSITE_BENCHMARK_CHILD"
DB_ENV = "CLUBSITE_BENCHMARK_DATABASE_URL"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def add_http_arguments(parser) -> None:
    """The options of the measurements over HTTP."""
    parser.add_argument(
        "--http-seconds",
        type=float,
        default=10.0,
        help="Seconds per page and per minimal-view run over HTTP (default 10).",
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="Rounds of every page over HTTP (default 3)."
    )
    parser.add_argument(
        "--connections", type=int, default=8, help="HTTP connections at once (default 8)."
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="gunicorn workers for the pages (default 2)."
    )
    parser.add_argument(
        "--crowd",
        type=int,
        default=25,
        help="Tables saving hands at once in the crowd test (default 25; 0: skip it).",
    )
    parser.add_argument(
        "--crowd-workers", type=int, default=3, help="gunicorn workers then (default 3)."
    )
    parser.add_argument("--no-http", action="store_true", help="Only the in-process measurements.")


HTTP_OPTIONS = ("http_seconds", "rounds", "connections", "workers", "crowd", "crowd_workers")


def http_arguments(o) -> list[str]:
    """The HTTP options given to the parent, for the measuring child."""
    return [part for name in HTTP_OPTIONS for part in (f"--{name.replace('_', '-')}", str(o[name]))]


class Command(BaseCommand):
    help = (
        "Benchmark the standings, member and table pages, the hand save, the live preview, "
        "the league workbook and the engine on a generated league in a throwaway database."
    )

    def add_arguments(self, parser):
        parser.add_argument("--people", type=int, default=400)
        parser.add_argument("--years", type=int, default=5)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--days-per-year",
            type=int,
            default=100,
            help="Club days a year of the full league (default 100); the small league has "
            "a tenth of them.",
        )
        parser.add_argument("--tables-min", type=int, default=20)
        parser.add_argument("--tables-max", type=int, default=30)
        parser.add_argument(
            "--repeat", type=int, default=30, help="Timed requests per page (default 30)."
        )
        parser.add_argument(
            "--database-url",
            default="",
            help="Database of the full league (default: an SQLite file in --bench-dir). "
            "It is WIPED when it holds another league and --rebuild is given.",
        )
        parser.add_argument(
            "--small-database-url",
            default="",
            help="Database of the small league (default: an SQLite file in --bench-dir).",
        )
        parser.add_argument(
            "--bench-dir",
            default=str(settings.BASE_DIR / ".bench"),
            help="Where the throwaway SQLite files and markers live (default .bench/).",
        )
        parser.add_argument(
            "--small-only",
            action="store_true",
            help="Only the small league (a quick run, for tests and CI).",
        )
        parser.add_argument(
            "--rebuild", action="store_true", help="Build the leagues again from scratch."
        )
        parser.add_argument(
            "--engine-seconds",
            type=float,
            default=1.0,
            help="Seconds of engine scoring (default 1).",
        )
        add_http_arguments(parser)
        # Internal: the child process.
        parser.add_argument("--child", choices=("build", "measure"), help="(internal)")
        parser.add_argument("--output", default="", help="(internal)")
        parser.add_argument("--marker", default="", help="(internal)")
        parser.add_argument("--may-wipe", action="store_true", help="(internal)")
        parser.add_argument("--label", default="", help="(internal)")
        parser.add_argument("--no-workbook", action="store_true", help="(internal)")

    # -----------------------------------------------------------------------------------
    # Parent

    def handle(self, *args, **o):
        if o["child"]:
            return self.child(o)
        if o["repeat"] < 1 or o["rounds"] < 1 or o["connections"] < 1 or o["workers"] < 1:
            raise CommandError("--repeat, --rounds, --connections and --workers must be 1 or more.")
        if o["http_seconds"] <= 0:
            raise CommandError("--http-seconds must be more than 0.")
        bench_dir = Path(o["bench_dir"])
        bench_dir.mkdir(parents=True, exist_ok=True)
        full_opts = self.options_for(o, o["days_per_year"])
        small_opts = self.options_for(o, max(1, o["days_per_year"] // 10))
        stem = f"league-{o['people']}-{o['years']}-{o['seed']}"
        leagues = [("small", small_opts, o["small_database_url"], f"{stem}-small")]
        if not o["small_only"]:
            leagues.append(("full", full_opts, o["database_url"], stem))
        results = {}
        for label, opts, url, name in leagues:
            results[label] = self.run_league(label, opts, url, name, bench_dir, o)
        self.print_report(results, o)

    def run_league(
        self, label: str, opts: LeagueOptions, url: str, name: str, bench_dir: Path, o
    ) -> dict:
        """Build (or reuse) one league in one child process and measure it in another;
        returns the measurements with the database's URL and the league's marker."""
        given = bool(url)
        if not given:
            path = bench_dir / f"{name}.sqlite3"
            if o["rebuild"]:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
            url = sqlite_url(path)
        marker = marker_path(bench_dir, name if not given else f"{name}-url")
        common = [
            "--people",
            str(opts.people),
            "--years",
            str(opts.years),
            "--seed",
            str(opts.seed),
            "--days-per-year",
            str(opts.days_per_year),
            "--tables-min",
            str(opts.tables_min),
            "--tables-max",
            str(opts.tables_max),
            "--marker",
            str(marker),
            "--label",
            label,
        ]
        build = ["--child", "build", *common]
        if o["rebuild"]:
            build.append("--rebuild")
        if not given or o["rebuild"]:
            build.append("--may-wipe")
        built = self.run_child(build, url, label)
        measure = [
            "--child",
            "measure",
            *common,
            "--repeat",
            str(o["repeat"]),
            "--engine-seconds",
            str(o["engine_seconds"] if label == "full" or o["small_only"] else 0),
        ]
        over_http = not o["no_http"] and (label == "full" or o["small_only"])
        measure += http_arguments(o) if over_http else ["--no-http"]
        result = self.run_child(measure, url, label)
        result["url"] = url
        result["league"] = built.get("league", {})
        return result

    @staticmethod
    def http_options(o) -> HttpOptions:
        return HttpOptions(
            seconds=o["http_seconds"],
            rounds=o["rounds"],
            connections=o["connections"],
            workers=o["workers"],
            crowd_connections=o["crowd"],
            crowd_workers=o["crowd_workers"],
            crowd_seconds=o["http_seconds"],
        )

    @staticmethod
    def options_for(o, days_per_year: int) -> LeagueOptions:
        return LeagueOptions(
            people=o["people"],
            years=o["years"],
            seed=o["seed"],
            days_per_year=days_per_year,
            tables_min=o["tables_min"],
            tables_max=o["tables_max"],
            start=DEFAULT_START,
        )

    def run_child(self, arguments: list[str], url: str, label: str) -> dict:
        """Run this command again in a child process against ``url``; relay its output
        and return the JSON it wrote."""
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
            output = handle.name
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": url,
                DB_ENV: url,
                CHILD_ENV: "1",
                "DJANGO_ENV": "development",
                "DEBUG": "0",
                "PYTHONUNBUFFERED": "1",
            }
        )
        command = [
            sys.executable,
            str(settings.BASE_DIR / "manage.py"),
            "benchmark",
            *arguments,
            "--output",
            output,
        ]
        try:
            process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            tail = []
            for line in process.stdout:
                line = line.rstrip("\n")
                tail = [*tail[-30:], line]
                self.stdout.write(f"  [{label}] {line}")
            code = process.wait()
            if code != 0:
                raise CommandError(
                    f"The benchmark's {label} league step failed (exit {code}):\n" + "\n".join(tail)
                )
            return json.loads(Path(output).read_text() or "{}")
        finally:
            Path(output).unlink(missing_ok=True)

    def print_report(self, results: dict, o) -> None:
        full, small = results.get("full"), results.get("small")
        rows, misses = report_rows(full, small)
        main = full or small
        self.stdout.write("")
        for label, data in results.items():
            league = data.get("league", {})
            counts = data.get("counts", {})
            how = "reused" if league.get("reused") else f"built in {league.get('built_seconds')} s"
            self.stdout.write(
                f"{label} league: {counts.get('people', 0):,} people, {counts.get('days', 0):,} "
                f"club days, {counts.get('games', 0):,} games, {counts.get('hands', 0):,} "
                f"hands ({how}; {data['url']})"
            )
        self.stdout.write(
            f"In-process (django.test.Client, logged in as an officer): query counts, and "
            f"server times for context, "
            f"{o['repeat']} requests per page after a warm-up; database: {main.get('vendor')}."
        )
        if small is not None and full is not None:
            self.stdout.write(
                "'queries 1/10': the same page on the small league (a tenth of the club days)."
            )
        http = main.get("http")
        if http:
            opts = http["options"]
            self.stdout.write(
                f"\nOver HTTP: gunicorn, {opts['workers']} workers, {opts['connections']} "
                f"connections, {opts['seconds']:g} s per run, {opts['rounds']} rounds, each "
                "page right after the minimal view; 'ratio' is the median over the rounds of "
                "the page's median latency ÷ the minimal view's. 'Body drawn': the results "
                "version bumped before each request (the page right after a game finishes)."
            )
            more_rows, more_misses = http_rows(http, main.get("vendor", ""))
            self.stdout.write("")
            self.stdout.write(format_http_table(more_rows))
            rows, misses = rows + more_rows, more_misses + misses
        self.stdout.write("")
        self.stdout.write(format_table([r for r in rows if len(r) == len(HEADERS) + 1]))
        self.stdout.write("")
        line = summary_line(rows, misses)
        style = self.style.SUCCESS if not misses else self.style.WARNING
        self.stdout.write(style(line))

    # -----------------------------------------------------------------------------------
    # Child

    def child(self, o) -> None:
        expected = os.environ.get(DB_ENV)
        if os.environ.get(CHILD_ENV) != "1" or not expected:
            raise CommandError(
                "--child is internal to manage.py benchmark (it runs against a throwaway "
                "database); run `manage.py benchmark` instead."
            )
        if os.environ.get("DATABASE_URL") != expected or settings.PRODUCTION:
            raise CommandError("The benchmark child is not on its throwaway database; stopping.")
        opts = self.options_for(o, o["days_per_year"])
        marker = Path(o["marker"]) if o["marker"] else None
        log = self.stdout.write
        try:
            if o["child"] == "build":
                league = ensure_league(
                    opts, marker, rebuild=o["rebuild"], may_wipe=o["may_wipe"], log=log
                )
                result = {"league": league}
            else:
                result = measure_all(
                    o["repeat"],
                    workbook=not o["no_workbook"],
                    engine_seconds=o["engine_seconds"],
                    http=None if o["no_http"] else self.http_options(o),
                    log=log,
                )
        except BenchError as exc:
            raise CommandError(str(exc)) from exc
        if o["output"]:
            Path(o["output"]).write_text(json.dumps(result, default=str))
