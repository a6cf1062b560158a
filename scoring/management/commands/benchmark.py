"""The club-night benchmark (``make bench``): how many tables one server holds.

    python manage.py benchmark [--database-url postgres://…/h_bench] [--steps 25,100]
                               [--seconds 60] [--speed 10] [--clubs 20] [--servers 2]
                               [--affinity] [--cpu-share 0.4] [--proxy] [--worker]

For each database (an SQLite file in a temporary directory, and each
``--database-url``: that PostgreSQL database is dropped and made again), the command
re-runs itself inside it: it builds a generated league (or copies the one kept in
``.bench/`` or in a template database by an earlier run), then for each step N opens a
club day
with tables playing, serves the site with gunicorn as the README deploys it
(``clubsite/gunicorn_conf.py``, ``DJANGO_ENV=production``, a generated key, no HTTPS
redirect on the loopback), and plays N tables' club night with Locust
(:mod:`scoring.devtools.bench.locustfile`) for ``--seconds``. Time runs ``--speed``
times faster with that many times fewer users, so the request rates are those of N
real tables. Per request type it prints p50/p95/p99 and failures; the capacity is the
largest N with every p95 ≤ 150 ms and no failure. Every table and member of the largest
step is made first; before the first step, 20 s of its load warm the workers up,
unmeasured; it stops after a step whose slowest p95 passes 1 s. Then the figures: the
workbook (in a process of its own), the engine, the main pages' costs in-process
(:mod:`scoring.devtools.bench.pages`) and the first request after a restart.
It is a report: it always exits 0.

``--clubs N``: N clubs' nights at once on a shared site (``CLUBS_SHARED_SITE=1``): N
clubs (club-01 …), each with a league of its own, and each step's tables split across
them, each club's users at its ``/<slug>/`` addresses (the figures are skipped: they
measure one club at ``/``). ``--servers N``: N gunicorn servers on their own ports
sharing one Redis (``REDIS_URL``; a throwaway ``redis-server`` unless one is given),
Locust dealing its users out to them in turn; the capacity is also given per server.
``--affinity`` pins server i to CPU i (servers with cores of their own), ``--cpu-share
F`` lets each server use at most F of one CPU (a cgroup each: small machines of their
own, with the rest of this one left to the database and Locust), ``--proxy``
sends the load through the shipped nginx configuration in front of them, ``--worker``
runs the task worker beside them (:class:`scoring.devtools.bench.servers.Servers`).
"""

from __future__ import annotations

import csv
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from members.clubs.commands import command_club
from members.clubs.scope import in_club
from scoring.devtools.bench.servers import Gunicorn, Servers
from scoring.devtools.bench.timing import Tally

CHILD = "CLUBSITE_BENCH_CHILD"
P95_LIMIT_MS = 150
GIVE_UP_MS = 1000  # a step whose slowest p95 passes this is the last
BASE = Path(settings.BASE_DIR)


def step_list(text: str) -> list[int]:
    try:
        steps = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CommandError(f"--steps takes table counts like 25,100,250, not {text!r}.") from None
    if not steps or min(steps) < 1:
        raise CommandError("--steps needs at least one table count of 1 or more.")
    return sorted(steps)


class Command(BaseCommand):
    help = "The club-night benchmark: tables one server holds (p95 ≤ 150 ms, no failure)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--database-url",
            action="append",
            default=[],
            help="A PostgreSQL database to use (wiped!), besides the SQLite file; repeatable.",
        )
        parser.add_argument("--no-sqlite", action="store_true", help="Skip the SQLite run.")
        parser.add_argument("--steps", default="25,100,250,500,1000,2000,4000")
        parser.add_argument("--seconds", type=float, default=60, help="Per step (default 60).")
        parser.add_argument("--speed", type=float, default=10, help="Time compression (10).")
        parser.add_argument("--people", type=int, default=400)
        parser.add_argument("--years", type=int, default=1)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--days-per-year",
            type=int,
            default=100,
            help="Club days a year of each generated league (default 100; fewer builds "
            "twenty clubs' leagues sooner).",
        )
        parser.add_argument("--no-figures", action="store_true", help="Skip workbook, engine.")
        parser.add_argument("--keep", action="store_true", help="Keep the temporary files.")
        parser.add_argument(
            "--rebuild", action="store_true", help="Build the league again (it is kept in .bench/)."
        )
        parser.add_argument(
            "--cpu",
            action="store_true",
            help="Only the server CPU per request kind, one kind at a time (quick; with "
            "--people 60 on a 60-person league), no club night.",
        )
        parser.add_argument("--rounds", type=int, default=40, help="Requests per kind (--cpu).")
        parser.add_argument(
            "--clubs",
            type=int,
            default=1,
            help="Clubs playing their nights at once on a shared site, the tables split "
            "across them (default 1: one club at /).",
        )
        parser.add_argument(
            "--servers",
            type=int,
            default=1,
            help="App servers sharing one Redis, the load spread across them (default 1).",
        )
        parser.add_argument(
            "--affinity",
            action="store_true",
            help="Pin each app server to a CPU of its own (server i on CPU i), as servers on "
            "machines of their own would be; needs taskset.",
        )
        parser.add_argument(
            "--cpu-share",
            type=float,
            default=0.0,
            help="Let each app server use at most this share of one CPU (e.g. 0.4), as a "
            "small machine of its own would; needs root and the cgroup CPU controller.",
        )
        parser.add_argument(
            "--redis",
            action="store_true",
            help="The cache on Redis (REDIS_URL, or a throwaway redis-server) even with one "
            "server, as it is with several.",
        )
        parser.add_argument(
            "--proxy",
            action="store_true",
            help="Send the load through the shipped nginx configuration in front of the "
            "servers (docs/proxy.md); needs nginx.",
        )
        parser.add_argument(
            "--worker",
            action="store_true",
            help="Run the task worker (manage.py db_worker) beside the servers, as "
            "docs/deploy.md deploys it.",
        )

    def handle(self, **o):
        step_list(o["steps"])
        if not 1 <= o["clubs"] <= 99 or not 1 <= o["servers"] <= 8:
            raise CommandError("--clubs takes 1 to 99 clubs and --servers 1 to 8 servers.")
        if not 0 <= o["cpu_share"] <= (os.cpu_count() or 1):
            raise CommandError("--cpu-share takes a share of one CPU, e.g. 0.4.")
        if os.environ.get(CHILD):
            return self.night(o)
        urls = [] if o["no_sqlite"] else [""]
        urls += o["database_url"]
        if not urls:
            raise CommandError("Nothing to measure: --no-sqlite without --database-url.")
        from scoring.devtools.bench.night import league_key

        key = league_key(league_options(o))
        if o["days_per_year"] != 100:
            key += f"-days{o['days_per_year']}"
        if o["clubs"] > 1:
            key += f"-clubs{o['clubs']}"
        for url in urls:
            tmp = tempfile.mkdtemp(prefix="bench-")
            try:
                if url:
                    name = urlparse(url).path.lstrip("/")
                    keep_as = f"{name}_{key}".replace("-", "_")
                    recreate_postgres(url, None if o["rebuild"] else keep_as)
                else:
                    keep_as = BASE / ".bench" / f"{key}.sqlite3"
                    url = f"sqlite:///{tmp}/bench.sqlite3"
                    if keep_as.exists() and not o["rebuild"]:
                        shutil.copy(keep_as, f"{tmp}/bench.sqlite3")
                env = {**os.environ, CHILD: tmp, "DATABASE_URL": url, "BENCH_KEEP": str(keep_as)}
                env["SECRET_KEY"] = secrets.token_urlsafe(50)  # the server's, for sessions
                run = subprocess.run([sys.executable, *sys.argv], env=env, cwd=BASE, check=False)
                if run.returncode:
                    raise CommandError(f"The club night on {url} failed (see above).")
            finally:
                if not o["keep"]:
                    shutil.rmtree(tmp, ignore_errors=True)

    def night(self, o):
        from scoring.devtools.bench import night

        tmp = Path(os.environ[CHILD])
        db = urlparse(os.environ["DATABASE_URL"])
        self.stdout.write(f"\n=== Club night on {db.scheme} ({db.path}) ===")
        call_command("migrate", verbosity=0)
        call_command("createcachetable", verbosity=0)
        if o["clubs"] > 1:
            night.ensure_clubs(league_options(o), o["clubs"], os.environ["BENCH_KEEP"])
            self.measure(o, tmp, db, night)
            return
        with in_club(command_club()):
            night.ensure_league(league_options(o), os.environ["BENCH_KEEP"])
            self.measure(o, tmp, db, night)

    def measure(self, o, tmp, db, night):
        """The club night in the throwaway database's club (or clubs)."""
        clubs, count = o["clubs"], o["servers"]
        if o["cpu"]:
            return self.cpu_per_kind(o, tmp)

        def scene(tables):
            if clubs > 1:
                return night.clubs_scene(tables, o["speed"], clubs)
            return night.scene(tables, o["speed"])

        capacity, rows = 0, []
        steps = step_list(o["steps"])
        # Every table, person and member the largest step needs, made before the first
        # step: nothing the steps measure changes the people shown on results pages.
        scene(steps[-1])
        figures = []
        if not o["no_figures"] and clubs == 1:
            from scoring.devtools.bench.pages import page_costs

            figures = [workbook_figure(), night.engine_figure(), *page_costs()]
            figures += first_requests(tmp, night)
        setup = {k: o[k] for k in ("affinity", "proxy", "worker", "cpu_share", "redis")}
        with Servers(tmp, count, shared_site=clubs > 1, **setup) as servers:
            # Every worker's first pages (imports, templates) are not a club night's.
            run_locust(tmp, servers, scene(steps[0]), 20)
            for tables in steps:
                stats, cpu = run_locust(tmp, servers, scene(tables), o["seconds"])
                # A step in which nothing was answered measured nothing: it does not pass.
                ok = bool(stats) and all(
                    s["p95"] <= P95_LIMIT_MS and not s["failures"] for s in stats.values()
                )
                rows.append((tables, stats, cpu, ok))
                self.stdout.write(format_step(tables, stats, cpu, ok))
                capacity = tables if ok else capacity
                if not stats or max(s["p95"] for s in stats.values()) > GIVE_UP_MS:
                    break
        where = f"{db.scheme}, {clubs} club{'s' if clubs > 1 else ''}, {count} server"
        where += "s" if count > 1 else ""
        words = ("affinity", "redis", "proxy", "worker")
        where += "".join(f", {word}" for word in words if o[word])
        where += f", {o['cpu_share']:g} of a CPU each" if o["cpu_share"] else ""
        self.stdout.write(f"Capacity on {where}: {capacity} tables (every p95 ≤ 150 ms)")
        if count > 1:
            self.stdout.write(f"Capacity per server: {capacity / count:.0f} tables")
        for line in figures:
            self.stdout.write(line)

    def cpu_per_kind(self, o, tmp):
        """``--cpu``: each kind's server CPU, one kind at a time, on one gunicorn."""
        from scoring.devtools.bench import kinds, night

        night.scene(1, 1)
        with Gunicorn(tmp) as server:
            tally, whole = kinds.per_kind(server, o["rounds"])
        self.stdout.write(f"Server CPU per request kind ({o['rounds']} of each, one at a time):")
        for line in tally.lines() + kinds.capacity_lines(tally, whole):
            self.stdout.write(line)


def workbook_figure() -> str:
    """The workbook figure (:func:`scoring.devtools.bench.night.workbook_figure`) in a
    process of its own, so that its peak memory is the workbook's and not the league
    build's."""
    code = "import django; django.setup(); from scoring.devtools.bench import night\n"
    code += "from members.clubs.commands import command_club\n"
    code += "from members.clubs.scope import in_club\n"
    code += "with in_club(command_club()):\n    print(night.workbook_figure())"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "clubsite.settings"}
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=BASE, capture_output=True, text=True
    )
    return run.stdout.strip() or f"Workbook: failed ({run.stderr.strip()[-300:]})"


FIRST_PAGES = ("table page", "standings", "own page")


def first_requests(tmp: Path, night) -> list[str]:
    """The first request after a restart: for each of the table page, the standings and
    a member's own page, a freshly started server (after its health check, as a load
    balancer makes it) answers that page first; its time, and the same page's next
    answer. The phone's table link, the member's session and the pages' cached bodies
    come from an earlier server (the database and the shared cache outlive a restart)."""
    import http.cookiejar

    import requests

    # The production site's cookies are Secure: send them back over the loopback's HTTP.
    http.cookiejar.DefaultCookiePolicy.return_ok_secure = lambda policy, cookie, request: True
    scene = night.scene(1, 1)
    phone = requests.Session()
    member = requests.Session()
    member.cookies.set(scene["session_cookie"], scene["members"][0]["session"])
    pages = {
        "table page": (phone, None),
        "standings": (member, scene["standings"]),
        "own page": (member, f"/players/{scene['members'][0]['person']}/"),
    }
    with Gunicorn(tmp, quiet=True) as server:
        answer = phone.get(f"{server.url}/t/{scene['tables'][0]['token']}/", timeout=30)
        pages["table page"] = (phone, urlparse(answer.url).path)
        for session, path in pages.values():  # the shared cache outlives a restart
            session.get(server.url + path, timeout=30)
    lines = []
    for name in FIRST_PAGES:
        session, path = pages[name]
        with Gunicorn(tmp, quiet=True) as server:
            times = []
            for _ in range(2):
                began = time.perf_counter()
                answer = session.get(server.url + path, timeout=30, allow_redirects=False)
                times.append((time.perf_counter() - began) * 1000)
                if answer.status_code != 200:
                    times[-1] = float("nan")
        lines.append(
            f"First request after a restart, {name}: {times[0]:.0f} ms (then {times[1]:.0f} ms)"
        )
    return lines


def league_options(o: dict):
    from scoring.devtools.league.options import LeagueOptions

    return LeagueOptions(
        people=o["people"], years=o["years"], seed=o["seed"], days_per_year=o["days_per_year"]
    )


def recreate_postgres(url: str, template: str | None) -> None:
    """Drop the database and make it again: a copy of ``template`` when it exists."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        found = (
            template
            and conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template]).fetchone()
        )
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if found else ""))


def run_locust(tmp: Path, servers: Servers, scene: dict, seconds: float):
    """One step headless; per request type {p50, p95, p99, count, failures} and the
    cores used by the servers (together and each) and by Locust."""
    path = tmp / "scene.json"
    path.write_text(json.dumps(scene))
    users = len(scene["tables"]) + len(scene["boards"]) + len(scene["members"])
    prefix = tmp / "locust"
    command = [
        sys.executable, "-m", "locust", "-f", "scoring/devtools/bench/locustfile.py",
        "--headless", "--host", servers.urls[0], "-u", str(users), "-r", str(max(users, 1)),
        "-t", f"{seconds:g}s", "--csv", str(prefix), "--only-summary", "--loglevel", "WARNING",
        "--stop-timeout", "5",
    ]  # fmt: skip
    env = {**os.environ, "BENCH_SCENE": str(path), "PYTHONPATH": str(BASE)}
    env["BENCH_HOSTS"] = ",".join(servers.urls)
    env["BENCH_CPU_OUT"] = str(tmp / "server_cpu.json")
    Path(env["BENCH_CPU_OUT"]).unlink(missing_ok=True)
    server_before, machine_before, began = servers.cpu_seconds(), busy_seconds(), time.monotonic()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for stale in tmp.glob("locust_*.csv"):  # a Locust that fails writes none: no old figures
        stale.unlink()
    with open(tmp / "locust.log", "a") as log:
        ran = subprocess.run(command, env=env, cwd=BASE, check=False, stdout=log, stderr=log)
    if not Path(f"{prefix}_stats.csv").exists():
        print(f"  Locust stopped (exit {ran.returncode}) without figures; see {tmp / 'locust.log'}")
        return {}, {
            "server": 0.0,
            "server_waiting": 0.0,
            "locust": 0.0,
            "machine": 0.0,
            "servers": [],
        }
    wall = time.monotonic() - began
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = children.ru_utime + children.ru_stime - children_before.ru_utime
    load -= children_before.ru_stime
    after = servers.cpu_seconds()
    each = [(a[0] - b[0]) / wall for a, b in zip(after, server_before, strict=True)]
    waited = sum(a[1] - b[1] for a, b in zip(after, server_before, strict=True))
    cpu = {"server": sum(each), "server_waiting": waited / wall, "locust": load / wall}
    cpu["servers"] = each
    cpu["machine"] = (busy_seconds() - machine_before) / wall
    cpu["kinds"] = Tally.read(env["BENCH_CPU_OUT"])
    stats = {}
    with open(f"{prefix}_stats.csv") as handle:
        for row in csv.DictReader(handle):
            if row["Name"] == "Aggregated" or row["Name"].startswith("setup:"):
                continue
            stats[row["Name"]] = {
                "count": int(row["Request Count"]),
                "failures": int(row["Failure Count"]),
                "p50": float(row["50%"] or 0),
                "p95": float(row["95%"] or 0),
                "p99": float(row["99%"] or 0),
            }
    with open(f"{prefix}_failures.csv") as handle:
        for row in csv.DictReader(handle):
            print(f"  failed {row['Occurrences']}×: {row['Name']}: {row['Error'][:200]}")
    return stats, cpu


def busy_seconds() -> float:
    """CPU time every process on the machine has used so far (all cores)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def format_step(tables: int, stats: dict, cpu: dict, ok: bool) -> str:
    lines = [
        f"\n{tables} tables: {'PASS' if ok else 'MISS'} (cores busy: server "
        f"{cpu['server']:.2f}, load generator {cpu['locust']:.2f}, whole machine "
        f"{cpu['machine']:.2f} of {os.cpu_count()}; server threads waiting for a CPU: "
        f"{cpu['server_waiting']:.2f} on average)",
    ]
    if len(cpu.get("servers", [])) > 1:
        each = ", ".join(f"{busy:.2f}" for busy in cpu["servers"])
        lines.append(f"  cores busy per server: {each}")
    lines += [
        f"  {'request':<15} {'count':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'failed':>7}",
    ]
    for name, s in sorted(stats.items()):
        lines.append(
            f"  {name:<15} {s['count']:>7} {s['p50']:>7.0f} {s['p95']:>7.0f} {s['p99']:>7.0f} "
            f"{s['failures']:>7}"
        )
    if cpu.get("kinds") and cpu["kinds"].ms:
        lines += cpu["kinds"].lines()
    return "\n".join(lines)
