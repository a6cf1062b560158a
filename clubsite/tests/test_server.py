"""The production server (gunicorn with ``clubsite/gunicorn_conf.py``): a client that
opens a connection and never finishes its request holds one thread, not its worker, so
the others are still served. (Enough of them hold every thread: gunicorn never cuts a
slow client, which is why it runs behind nginx; see ``test_proxy.py``.)"""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STALLED_FOR = 30  # seconds: GUNICORN_TIMEOUT below


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float) -> int:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status


@contextlib.contextmanager
def gunicorn(tmp_path, **settings):
    """gunicorn with the deployment's settings (``clubsite/gunicorn_conf.py``) on a free
    loopback port, on a throwaway SQLite database; yields the port once ``/healthz``
    answers, and stops it on the way out. ``settings``: more environment variables."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ENV", "DATABASE_URL"}}
    env.update(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        # One worker, of the default threads: a stalled client may not hold all of it.
        WEB_CONCURRENCY="1",
        GUNICORN_TIMEOUT=str(STALLED_FOR),
        DATABASE_URL=f"sqlite:///{tmp_path / 'server.sqlite3'}",
    )
    env.update(settings)
    # Its log goes to a file: a full pipe would stall it.
    with open(tmp_path / f"gunicorn-{port}.log", "w+b") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "clubsite/gunicorn_conf.py", "clubsite.wsgi"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        url = f"http://127.0.0.1:{port}/healthz"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if _get(url, timeout=5) == 200:
                        break
                except OSError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(log.read().decode()[-2000:]) from None
                time.sleep(0.2)
            yield port
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture
def server(tmp_path):
    with gunicorn(tmp_path) as port:
        yield port, f"http://127.0.0.1:{port}/healthz"


def test_a_half_open_connection_holds_one_thread_not_the_worker(server):
    port, url = server
    stalled = []
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        stalled.append(s)
        time.sleep(0.5)
        # A normal request is served while the stalled client waits. With plain sync
        # workers it would wait for them to time out (GUNICORN_TIMEOUT, 30 s) and this
        # would time out first. The margin is wide because a worker's first request
        # loads Django's URLs and middleware, which takes seconds on a busy CI machine.
        assert _get(url, timeout=STALLED_FOR / 3) == 200
    finally:
        for s in stalled:
            s.close()
