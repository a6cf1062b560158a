"""The benchmark over HTTP: gunicorn on a free loopback port, a browser-like login, and
a bounded load client.

- :class:`Server` starts gunicorn (``clubsite/gunicorn_conf.py``, the application of
  ``scoring.devtools.wsgi``: the site plus the minimal view) against the benchmark's
  throwaway database, waits until it answers, and stops it;
- :class:`Browser` keeps cookies like a browser and logs in through the login form
  (session cookie, CSRF token);
- :func:`load` sends requests from ``connections`` threads, each on its own kept-alive
  connection, for ``seconds`` (or ``limit`` requests), and returns the latencies'
  median and 95th percentile, the requests per second and the body's size.

Standard library only (``http.client``, ``threading``): no load-testing dependency.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.db import connections as db_connections
from django.shortcuts import resolve_url

from scoring.devtools.bench.prepare import BenchError

MINIMAL_PATH = "/bench/minimal/"
CSRF_FIELD = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn serving the site on a free loopback port, for a ``with`` block."""

    def __init__(self, *, workers: int = 2, threads: int = 4, log: Callable = print):
        self.port = free_port()
        self.workers, self.threads, self.log = workers, threads, log
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            str(settings.BASE_DIR / "clubsite" / "gunicorn_conf.py"),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--threads",
            str(self.threads),
            "--access-logfile",
            os.devnull,
            "--error-logfile",
            "-",
            "--log-level",
            "warning",
            "scoring.devtools.wsgi:application",
        ]
        env = {**os.environ, "ALLOWED_HOSTS": "127.0.0.1,localhost"}
        self.process = subprocess.Popen(
            command, cwd=Path(settings.BASE_DIR), env=env, start_new_session=True
        )
        self._wait_until_up()
        self.log(
            f"gunicorn is up on 127.0.0.1:{self.port} ({self.workers} workers × "
            f"{self.threads} threads, pid {self.process.pid})."
        )
        return self

    def _wait_until_up(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn stopped at once (exit {self.process.returncode}).")
            try:
                status, _, _ = Browser(self.port).get(MINIMAL_PATH)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__(None, None, None)
        raise BenchError(f"gunicorn did not answer within {seconds:g} s.")

    def __exit__(self, *exc) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


class Browser:
    """Cookies kept like a browser's, on one kept-alive connection (reopened when the
    server closes it)."""

    def __init__(self, port: int, cookies: dict | None = None):
        self.port = port
        self.cookies: dict[str, str] = dict(cookies or {})
        self.connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        return self.connection

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        """(status, headers, body bytes) of one request; cookies set are kept."""
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                connection = self._connect()
                connection.request(method, path, body=data, headers=sent)
                response = connection.getresponse()
                content = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.close()
                if attempt == 2:
                    raise
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        return response.status, response.headers, content

    def get(self, path: str, headers=None):
        return self.request("GET", path, headers=headers)

    def post(self, path: str, body: dict, headers=None):
        """A form POST with the CSRF token, as the page's form would send it."""
        token = self.cookies.get(settings.CSRF_COOKIE_NAME, "")
        return self.request("POST", path, {**body, "csrfmiddlewaretoken": token}, headers)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def login(self, username: str, password: str) -> None:
        """Log in through the login form, like a person at a browser."""
        login_path = resolve_url(settings.LOGIN_URL)
        status, _, page = self.get(login_path)
        found = CSRF_FIELD.search(page)
        if status != 200 or not found:
            raise BenchError(f"The login page answered {status} without a form.")
        form = {"username": username, "password": password, "next": "/"}
        form["csrfmiddlewaretoken"] = found.group(1).decode()
        status, _, _ = self.request("POST", login_path, form)
        if status != 302 or settings.SESSION_COOKIE_NAME not in self.cookies:
            raise BenchError(f"Logging in as {username} failed (HTTP {status}).")


class _Tally:
    """What the client threads of one run measured, under a lock: each request's time
    and size, and what failed."""

    def __init__(self):
        self.samples: list[float] = []
        self.sizes: list[int] = []
        self.failures: list[str] = []
        self.lock = threading.Lock()

    def request(self, send, browser: Browser, index: int) -> None:
        """One timed request: ``send(browser, index)`` (see :func:`load`)."""
        began = time.perf_counter()
        status, _headers, body, expect = send(browser, index)
        took = (time.perf_counter() - began) * 1000
        with self.lock:
            self.samples.append(took)
            self.sizes.append(len(body))
            if status != expect:
                self.failures.append(f"HTTP {status} (expected {expect})")

    def fail(self, why: str) -> None:
        with self.lock:
            self.failures.append(why)

    def summary(self, elapsed: float) -> dict:
        return _summary(self.samples, self.sizes, self.failures, elapsed)


def load(
    port: int,
    cookies: dict,
    send: Callable[[Browser, int], tuple],
    *,
    connections: int,
    seconds: float,
    limit: int = 0,
    before: Callable[[], None] | None = None,
) -> dict:
    """Requests from ``connections`` threads for ``seconds`` (each thread stops after
    ``limit`` requests when given). ``send(browser, thread)`` makes one request and
    returns (status, headers, body, expected status); ``before`` runs, untimed, before
    each request (one connection only). A client whose connection fails stops, and the
    failure is counted."""
    tally = _Tally()
    deadline = time.perf_counter() + seconds

    def worker(index: int) -> None:
        browser = Browser(port, cookies)
        done = 0
        try:
            while time.perf_counter() < deadline and not (limit and done >= limit):
                if before:
                    before()
                tally.request(send, browser, index)
                done += 1
        except Exception as error:  # a refused connection: this client stops
            tally.fail(f"{type(error).__name__}: {error}")
        finally:
            browser.close()
            db_connections.close_all()  # this thread's own database connections

    return tally.summary(_run_threads(worker, connections))


def waves(
    port: int,
    cookies: dict,
    send: Callable[[Browser, int], tuple],
    *,
    connections: int,
    seconds: float,
    pause: float = 0.5,
) -> dict:
    """``connections`` clients that send at the same moment: every thread waits at a
    barrier, all send one request together, and the next wave starts ``pause`` seconds
    after the slowest answer, for ``seconds``. The last answer of a wave waits for all the
    others, so the 95th percentile is what the slowest table of a room that pressed Save
    together feels (the closed loop of :func:`load` measures the server flat out instead:
    hundreds of saves a second, no pause between them)."""
    tally = _Tally()
    deadline = time.perf_counter() + seconds
    state = {"stop": False}

    def decide() -> None:  # run by one thread once all have arrived at the barrier
        state["stop"] = time.perf_counter() >= deadline

    barrier = threading.Barrier(connections, action=decide)

    def worker(index: int) -> None:
        browser = Browser(port, cookies)
        try:
            while True:
                barrier.wait(timeout=120)
                if state["stop"]:
                    break
                tally.request(send, browser, index)
                barrier.wait(timeout=120)  # the wave ends with its slowest answer
                if index == 0:
                    time.sleep(pause)
        except threading.BrokenBarrierError:
            tally.fail("a client stopped mid-wave")
        except Exception as error:  # a refused connection: every client stops
            tally.fail(f"{type(error).__name__}: {error}")
            barrier.abort()
        finally:
            browser.close()
            db_connections.close_all()

    return tally.summary(_run_threads(worker, connections))


def _run_threads(worker: Callable[[int], None], count: int) -> float:
    """Run ``worker(i)`` in ``count`` threads at once; the seconds until all are done."""
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began


def _summary(samples: list[float], sizes: list[int], failures: list[str], elapsed: float):
    if not samples:
        raise BenchError("No request was sent (give more seconds).")
    ordered = sorted(samples)
    return {
        "median_ms": statistics.median(samples),
        "p95_ms": ordered[max(0, int(len(ordered) * 0.95 + 0.5) - 1)],
        "requests": len(samples),
        "per_second": len(samples) / elapsed,
        "bytes": max(sizes),
        "failures": failures[:5],
        "failed": len(failures),
    }
