"""The app servers of the club-night benchmark: gunicorn as the README deploys it, on a
free loopback port (:class:`Gunicorn`), and several of them sharing one Redis
(:class:`Servers`, ``benchmark --servers N``)."""

from __future__ import annotations

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

    def __init__(self, tmp: Path, quiet: bool = False, env: dict | None = None, name: str = ""):
        self.tmp, self.quiet, self.extra, self.name = tmp, quiet, env or {}, name
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
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *conf], env=env, cwd=BASE,
            stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_until_up(self.url + "/healthz", self.process)
        if not self.quiet:
            print(f"gunicorn pid {self.process.pid} on {self.url} (log {self.log.name})")
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


class Servers:
    """``count`` app servers (:class:`Gunicorn`), each on its own port; with more than
    one they share one Redis (``REDIS_URL``, or a throwaway ``redis-server`` of their
    own), as several machines behind a load balancer would. ``shared_site``: the clubs
    are served at ``/<slug>/`` (``CLUBS_SHARED_SITE=1``)."""

    def __init__(self, tmp: Path, count: int = 1, shared_site: bool = False):
        self.tmp, self.count, self.shared_site = tmp, count, shared_site
        self.servers: list[Gunicorn] = []
        self.redis = None

    def __enter__(self):
        env = {"CLUBS_SHARED_SITE": "1"} if self.shared_site else {}
        if self.count > 1:
            env["REDIS_URL"] = os.environ.get("REDIS_URL") or self._start_redis()
        try:
            for index in range(self.count):
                name = f"-{index + 1}" if self.count > 1 else ""
                self.servers.append(Gunicorn(self.tmp, env=env, name=name).__enter__())
        except BaseException:
            self.__exit__()
            raise
        return self

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
        return [server.url for server in self.servers]

    def cpu_seconds(self) -> list[tuple[float, float]]:
        return [server.cpu_seconds() for server in self.servers]

    def __exit__(self, *exc):
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
