"""The real worker as its own process, for the tests of background work with the
worker in the loop (``manage.py db_worker`` started as a subprocess, as the deployment
runs it), and a slow mail server for it to talk to.

- :class:`SlowSMTP`: a plain SMTP server on 127.0.0.1 that takes ``delay`` seconds to
  accept each message and records each accepted one (a message counts once the server
  has answered 250 to it, as a real server's acceptance). It can hold the reply to the
  n-th message until told to go on, so a test can kill the worker while the server has
  a message in hand: unanswered, it was never accepted, and is dropped.
- :class:`WorkerDatabase`: the database the worker process uses. On PostgreSQL the
  test database itself (a transactional test's rows are committed); on SQLite, whose
  test database lives in the test's memory, a file copied from it before the worker
  runs (``to_worker``) and back after (``from_worker``), by SQLite's online backup.
"""

from __future__ import annotations

import os
import signal
import socketserver
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        server: SlowSMTP = self.server.owner
        self._say("220 slow-smtp ready")
        recipients: list[str] = []
        while line := self.rfile.readline():
            verb = line.decode("ascii", "replace").strip().split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self._say("250 slow-smtp")
            elif verb == "MAIL":
                recipients = []
                self._say("250 OK")
            elif verb == "RCPT":
                address = line.decode().split(":", 1)[1].strip().strip("<>").split(">")[0]
                recipients.append(address)
                self._say("250 OK")
            elif verb == "DATA":
                self._say("354 go on")
                while self.rfile.readline() not in (b".\r\n", b""):
                    pass
                if not server.accept(recipients):
                    return  # the client went away before the answer: not accepted
                self._say("250 accepted")
            elif verb == "QUIT":
                self._say("221 bye")
                return
            else:  # RSET, NOOP
                self._say("250 OK")

    def _say(self, text: str) -> None:
        self.wfile.write(text.encode() + b"\r\n")
        self.wfile.flush()


class SlowSMTP:
    """``with SlowSMTP(delay=0.05) as smtp:`` ... ``smtp.port``, ``smtp.accepted``."""

    def __init__(self, delay: float = 0.05, hold_at: int | None = None):
        self.delay, self.hold_at = delay, hold_at
        self.accepted: list[str] = []  # one recipient per accepted message, in order
        self.seen = 0
        self.holding = threading.Event()  # the held message is in hand
        self.release = threading.Event()
        self.lock = threading.Lock()

    def __enter__(self):
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        self.server.owner = self
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def accept(self, recipients: list[str]) -> bool:
        time.sleep(self.delay)
        with self.lock:
            self.seen += 1
            held = self.seen == self.hold_at
        if held:
            self.holding.set()
            self.release.wait(60)
            return False  # the worker was killed meanwhile: never answered
        with self.lock:
            self.accepted.extend(recipients)
        return True


class WorkerDatabase:
    """Where the worker process finds the test's database (see the module's docstring)."""

    def __init__(self, connection, folder: Path):
        self.connection = connection
        self.sqlite = connection.vendor == "sqlite"
        self.file = folder / "worker.sqlite3"
        self.url = f"sqlite:///{self.file}" if self.sqlite else _postgres_url(connection)

    def to_worker(self) -> None:
        if self.sqlite:
            self.file.unlink(missing_ok=True)
            self.connection.ensure_connection()
            with sqlite3.connect(self.file) as copy:
                self.connection.connection.backup(copy)

    def from_worker(self) -> None:
        if self.sqlite:
            with sqlite3.connect(self.file) as copy:
                copy.backup(self.connection.connection)

    def environment(self, **more: str) -> dict[str, str]:
        env = {**os.environ, "DATABASE_URL": self.url, "TASKS_BACKEND": "db"}
        env.update({"DJANGO_ENV": "development", "DEBUG": "0", "CONN_MAX_AGE": "0"})
        return {**env, **more}

    def manage(self, *args: str, env: dict, timeout: float = 180) -> str:
        """Run ``manage.py`` with ``args`` to its end; its output (a failure raises)."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def start_worker(self, env: dict) -> subprocess.Popen:
        """The worker as the deployment runs it, until killed."""
        args = ["db_worker", "--no-reload", "--interval", "0.1", "--no-startup-delay"]
        return subprocess.Popen(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip

    @staticmethod
    def kill(worker: subprocess.Popen) -> None:
        worker.send_signal(signal.SIGKILL)
        worker.wait(30)


def _postgres_url(connection) -> str:
    s = connection.settings_dict
    login = quote(s["USER"] or "") + (f":{quote(s['PASSWORD'])}" if s["PASSWORD"] else "")
    host = s["HOST"] or "localhost"
    return f"postgres://{login}@{host}:{s['PORT'] or 5432}/{s['NAME']}"
