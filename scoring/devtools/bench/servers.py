"""The app servers of the club-night benchmark: gunicorn as the README deploys it, on a
free loopback port (:class:`Gunicorn`), and several of them sharing one Redis
(:class:`Servers`, ``benchmark --servers N``), optionally each pinned to its own CPU
(``--affinity``) or each given a share of a CPU by the kernel's CPU controller
(``--cpu-share``), behind the shipped nginx (``--proxy``) and with the task worker
running beside them (``--worker``)."""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

BASE = Path(settings.BASE_DIR)


class Gunicorn:
    """The site as the README deploys it, on a free loopback port."""

    def __init__(
        self,
        tmp: Path,
        quiet: bool = False,
        env: dict | None = None,
        name: str = "",
        cpus: str = "",
        share: float = 0.0,
    ):
        self.tmp, self.quiet, self.extra, self.name = tmp, quiet, env or {}, name
        # ``cpus``: the CPUs (taskset's list, e.g. "1") the server's processes may run on.
        self.cpus = cpus
        # ``share``: at most this much of one CPU's time for the server's processes
        # together (a cgroup of its own), as a machine of that size would give it.
        self.share = share
        self.cgroup: CpuGroup | None = None
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        env = {
            **os.environ,
            "DJANGO_ENV": "production",
            "SECURE_SSL_REDIRECT": "0",
            "ALLOWED_HOSTS": "127.0.0.1",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "STATIC_ROOT": str(self.tmp / "static"),
            "SERVER_TIMING": "1",  # each answer says its CPU (clubsite.middleware)
            **self.extra,
        }
        collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
        subprocess.run(collect, env=env, cwd=BASE, check=True)
        self.log = open(self.tmp / f"gunicorn{self.name}.log", "a")
        conf = ["-c", "clubsite/gunicorn_conf.py", "clubsite.wsgi"]
        pin = ["taskset", "-c", self.cpus] if self.cpus else []
        wait = 60.0
        if self.share:
            self.cgroup = CpuGroup(f"bench-{self.port}", self.share)
            pin = self.cgroup.command() + pin
            # As many workers as gunicorn_conf.py gives a machine of that many CPUs (a
            # share of one: a 1-CPU machine), and the time their start takes there.
            cpus = max(1, math.ceil(self.share))
            env.setdefault("WEB_CONCURRENCY", str(2 * cpus + 2))
            wait = 60 / min(self.share, 1.0)
        self.process = subprocess.Popen(
            [*pin, sys.executable, "-m", "gunicorn", *conf], env=env, cwd=BASE,
            stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_until_up(self.url + "/healthz", self.process, wait)
        if not self.quiet:
            pinned = f", CPU {self.cpus}" if self.cpus else ""
            pinned += f", {self.share:g} of a CPU" if self.share else ""
            print(f"gunicorn pid {self.process.pid} on {self.url}{pinned} (log {self.log.name})")
        return self

    def cpu_seconds(self) -> tuple[float, float]:
        """Seconds the master's and its workers' threads have run on a CPU so far, and
        seconds they have waited, ready, for one (the kernel's schedstat)."""
        pids = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        pids += [int(p) for p in children.read_text().split()]
        ran = waited = 0.0
        for pid in pids:
            for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
                try:
                    on_cpu, ready, _slices = stat.read_text().split()
                except OSError:  # a thread that just ended
                    continue
                ran, waited = ran + int(on_cpu) / 1e9, waited + int(ready) / 1e9
        return ran, waited

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()
        if self.cgroup is not None:
            self.cgroup.remove()


class CpuGroup:
    """A cgroup of the kernel's CPU controller that lets its processes run for at most
    ``share`` of one CPU's time (``--cpu-share``): on one 2-core machine, two app servers
    given 0.4 of a CPU each stand for two small machines of their own, with the rest
    left to the database, the proxy and the load generator. Needs root and a writable
    cgroup file system (v2's ``cpu.max`` or v1's ``cpu.cfs_quota_us``)."""

    # A short period: a server that spends its share early in a period stalls until the
    # next one, and 100 ms (the default) made that a tail of its own.
    PERIOD_US = 10_000

    def __init__(self, name: str, share: float):
        quota = int(share * self.PERIOD_US)
        v2 = Path("/sys/fs/cgroup/cgroup.controllers").exists()
        if v2:
            self.path = Path("/sys/fs/cgroup") / name
            setting = ("cpu.max", f"{quota} {self.PERIOD_US}")
        else:
            self.path = Path("/sys/fs/cgroup/cpu") / name
            setting = ("cpu.cfs_quota_us", str(quota))
        try:
            self.path.mkdir(exist_ok=True)
            if not v2:
                (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
            (self.path / setting[0]).write_text(setting[1])
        except OSError as error:
            raise CommandError(
                f"--cpu-share needs a writable cgroup CPU controller (root): {error}"
            ) from error

    def command(self) -> list[str]:
        """A prefix that puts the command into the group before it starts (its children,
        gunicorn's workers, are born in it)."""
        procs = self.path / "cgroup.procs"
        return ["sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh"]

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()


class Servers:
    """``count`` app servers (:class:`Gunicorn`), each on its own port; with more than
    one they share one Redis (``REDIS_URL``, or a throwaway ``redis-server`` of their
    own), as several machines behind a load balancer would. ``shared_site``: the clubs
    are served at ``/<slug>/`` (``CLUBS_SHARED_SITE=1``). ``affinity``: server *i* runs
    on CPU *i* (modulo the CPUs), as servers with their own cores would; the database,
    the proxy and the load generator run where the system puts them. ``proxy``: the
    load goes through the shipped nginx configuration in front of all of them
    (:mod:`scoring.devtools.bench.proxy`). ``worker``: the database queue's worker
    (``manage.py db_worker``) runs beside them, as docs/deploy.md deploys it."""

    def __init__(
        self,
        tmp: Path,
        count: int = 1,
        shared_site: bool = False,
        affinity: bool = False,
        proxy: bool = False,
        worker: bool = False,
        cpu_share: float = 0.0,
        redis: bool = False,
    ):
        self.tmp, self.count, self.shared_site = tmp, count, shared_site
        # ``redis``: the cache on Redis even for one server (as it is for several).
        self.cpu_share, self.use_redis = cpu_share, redis or count > 1
        self.affinity, self.proxy, self.worker = affinity, proxy, worker
        self.servers: list[Gunicorn] = []
        self.redis = None
        self.stack = contextlib.ExitStack()
        self.proxy_url = ""
        self.worker_process = None

    def __enter__(self):
        env = {"CLUBS_SHARED_SITE": "1"} if self.shared_site else {}
        if self.use_redis:
            env["REDIS_URL"] = os.environ.get("REDIS_URL") or self._start_redis()
        if self.affinity and not shutil.which("taskset"):
            raise CommandError("--affinity needs taskset (the Debian package util-linux).")
        cores = os.cpu_count() or 1
        try:
            for index in range(self.count):
                name = f"-{index + 1}" if self.count > 1 else ""
                cpus = str(index % cores) if self.affinity else ""
                server = Gunicorn(self.tmp, env=env, name=name, cpus=cpus, share=self.cpu_share)
                self.servers.append(server.__enter__())
            if self.proxy:
                self._start_proxy()
            if self.worker:
                self._start_worker(env)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start_proxy(self) -> None:
        from scoring.devtools.bench.proxy import nginx, nginx_path

        binary = nginx_path()
        if binary is None:
            raise CommandError("--proxy needs nginx: apt-get install -y nginx.")
        ports = [server.port for server in self.servers]
        # The access log would cost the proxy a write per request: a benchmark keeps none.
        opened = nginx(binary, self.tmp / "nginx", ports, workers=1, access_log=False)
        port = self.stack.enter_context(opened)
        self.proxy_url = f"http://127.0.0.1:{port}"
        print(f"nginx on {self.proxy_url} in front of {len(ports)} server(s)")

    def _start_worker(self, env: dict) -> None:
        log = self.stack.enter_context((self.tmp / "worker.log").open("a"))
        command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--verbosity", "1"]
        self.worker_process = subprocess.Popen(
            command, env={**os.environ, "DJANGO_ENV": "production", **env}, cwd=BASE,
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        print(f"db_worker pid {self.worker_process.pid} (log {log.name})")

    def _start_redis(self) -> str:
        if not shutil.which("redis-server"):
            raise CommandError(
                "--servers needs Redis for the servers' shared cache: install redis-server "
                "(the Debian package) or give REDIS_URL."
            )
        port = free_port()
        command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.tmp)]
        self.redis = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=self.tmp)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        print(f"redis-server pid {self.redis.pid} on 127.0.0.1:{port}")
        return f"redis://127.0.0.1:{port}/0"

    @property
    def urls(self) -> list[str]:
        """Where the load goes: the proxy, or each server in turn."""
        if self.proxy_url:
            return [self.proxy_url]
        return [server.url for server in self.servers]

    def cpu_seconds(self) -> list[tuple[float, float]]:
        return [server.cpu_seconds() for server in self.servers]

    def __exit__(self, *exc):
        if self.worker_process is not None:
            self.worker_process.terminate()
            self.worker_process.wait(timeout=30)
        self.stack.close()
        for server in reversed(self.servers):
            server.__exit__()
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(timeout=30)


def free_port() -> int:
    """A free loopback port: the first from ``BENCH_PORT_BASE`` on when that is set (a
    machine whose users share out port ranges), else one the system picks."""
    base = int(os.environ.get("BENCH_PORT_BASE") or 0)
    for port in range(base, base + 100) if base else [0]:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise CommandError(f"No free port from BENCH_PORT_BASE={base} to {base + 99}.")


def wait_until_up(url: str, process, seconds: float = 60) -> None:
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError("gunicorn stopped at once; see its log.")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise CommandError(f"gunicorn did not answer within {seconds:g} s.")
