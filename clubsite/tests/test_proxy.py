"""The recommended deployment (docs/proxy.md): nginx in front of gunicorn, with the
repository's own proxy settings (``clubsite/deploy/nginx/club-proxy.conf``). Slow and
half-open connections to the proxy never stop ``/healthz`` from answering.

On its own, gunicorn is hung by ten clients that send a partial request and one header
line every few seconds: each holds one of its threads for as long as it keeps talking.
nginx reads every request whole before gunicorn sees it and cuts clients too slow to
send their headers (``client_header_timeout``), so here the same attack, and far more of
it, costs the site nothing.

nginx runs as a child of the test (not a daemon), with its own prefix, configuration,
pid file, logs and temporary files in the test's directory, on a free loopback port.
Where nginx is missing the test is skipped with the reason, except in CI, where it fails.
"""

import contextlib
import json
import os
import re
import selectors
import shutil
import socket
import ssl
import subprocess
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from clubsite.tests.test_server import _free_port, gunicorn
from scoring.devtools.bench.proxy import SNIPPET, nginx, nginx_path, running_nginx
from testsupport import in_ci

pytestmark = pytest.mark.proxy

ROOT = Path(__file__).resolve().parents[2]

SLOW = 100  # partial requests that send one more header line every few seconds
HALF_OPEN = 100  # connections that send a partial request line, or nothing, then wait
EVERY = 3.0  # seconds between two header lines of a slow client
ATTACK_FOR = 25.0  # seconds: longer than client_header_timeout (10 s), so clients are cut
PROBE_EVERY = 0.5  # seconds between two looks at /healthz
# How long one look at /healthz may take. Through the proxy it takes milliseconds; the
# margin is for a busy CI machine. Without the proxy no look is answered at all while
# the attack lasts, so every one of them runs out.
PROBE_TIMEOUT = 5.0

MISSING_NGINX = (
    "nginx not found; install it with 'apt-get install -y nginx' to test the recommended "
    "deployment (gunicorn behind nginx, docs/proxy.md)"
)


def look(url: str, timeout: float) -> float:
    """Seconds ``/healthz`` took to answer 200 (raises when it does not, in time)."""
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=timeout) as response:
        response.read()
        assert response.status == 200
    return time.monotonic() - started


@pytest.fixture
def nginx_binary():
    path = nginx_path()
    if path is None:
        if in_ci():
            pytest.fail(MISSING_NGINX)
        pytest.skip(MISSING_NGINX)
    return path


@pytest.fixture
def deployment(tmp_path, nginx_binary):
    """gunicorn (clubsite/gunicorn_conf.py) and nginx in front of it; the proxy's port."""
    with (
        gunicorn(tmp_path) as upstream,
        nginx(nginx_binary, tmp_path / "nginx", [upstream]) as port,
    ):
        look(f"http://127.0.0.1:{port}/healthz", timeout=30)
        yield port


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


class Attack:
    """Slow and half-open clients against one port, for a fixed time, in a thread.

    Slow clients send ``GET /healthz``, then one more header line every ``EVERY``
    seconds and never the blank line that ends the headers (every fourth sends all its
    headers of a login and then its body one byte at a time instead). Half-open clients
    send half a request line (or nothing) and then wait. A client that the server
    closes (or answers) connects again with the next line, so the pressure never
    drops. Everything stops after ``seconds``.
    """

    def __init__(self, port: int, slow: int, half_open: int, seconds: float):
        self.port = port
        self.slow = slow
        self.half_open = half_open
        self.seconds = seconds
        self.opened = 0
        self.cut = 0  # connections the server closed (and that were opened again)
        self.errors: list[str] = []
        self._selector = selectors.DefaultSelector()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="attack", daemon=True)

    def _connect(self, kind: str, index: int) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        except OSError as exc:
            self.errors.append(f"connect: {exc}")
            return
        sock.setblocking(False)
        if kind == "slow" and index % 4 == 3:
            first = (
                b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: 100000\r\n\r\n"
            )
        elif kind == "slow":
            first = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        elif index % 2:
            first = b"GET /healthz HT"
        else:
            first = b""
        with contextlib.suppress(OSError):
            sock.send(first)
        self._selector.register(sock, selectors.EVENT_READ, (kind, index))
        self.opened += 1

    def _drop(self, sock) -> None:
        self._selector.unregister(sock)
        sock.close()

    def _run(self) -> None:
        ends = time.monotonic() + self.seconds
        for i in range(self.slow):
            self._connect("slow", i)
        for i in range(self.half_open):
            self._connect("half-open", i)
        next_line = time.monotonic() + EVERY
        line = 0
        again = []  # closed by the server: connect again with the next line
        while not self._stop.is_set() and time.monotonic() < ends:
            # A server that answers (408, 400) or closes: connect again.
            for key, _ in self._selector.select(timeout=0.2):
                kind, index = key.data
                try:
                    data = key.fileobj.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data or data.startswith(b"HTTP/"):
                    self._drop(key.fileobj)
                    self.cut += 1
                    again.append((kind, index))
            if time.monotonic() >= next_line:
                next_line += EVERY
                line += 1
                for kind, index in again:
                    self._connect(kind, index)
                again.clear()
                for key in list(self._selector.get_map().values()):
                    kind, index = key.data
                    if kind != "slow":
                        continue
                    more = b"x" if index % 4 == 3 else b"X-Slow-%d: %d\r\n" % (line, index)
                    with contextlib.suppress(OSError):  # closed: the next select says so
                        key.fileobj.send(more)
        for key in list(self._selector.get_map().values()):
            self._drop(key.fileobj)
        self._selector.close()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=30)


def probe_under_attack(port: int, slow: int, half_open: int) -> tuple[Attack, list, list]:
    """Look at /healthz on ``port`` every PROBE_EVERY seconds while the attack lasts;
    the times of the answers and the failures."""
    url = f"http://127.0.0.1:{port}/healthz"
    times, failures = [], []
    with Attack(port, slow, half_open, ATTACK_FOR) as attack:
        time.sleep(2.0)  # every attacking connection is open
        while attack._thread.is_alive():
            try:
                times.append(look(url, PROBE_TIMEOUT))
            except (OSError, AssertionError) as exc:
                failures.append(f"{type(exc).__name__}: {exc}")
            time.sleep(PROBE_EVERY)
    return attack, times, failures


def test_slow_and_half_open_clients_do_not_hang_the_site_behind_the_proxy(deployment):
    attack, times, failures = probe_under_attack(deployment, SLOW, HALF_OPEN)
    assert not attack.errors, attack.errors[:5]
    assert attack.opened >= SLOW + HALF_OPEN
    # /healthz answered every look, each within PROBE_TIMEOUT, for the whole attack.
    assert not failures, (
        f"{len(failures)} of {len(failures) + len(times)} looks failed: {failures[:3]}"
    )
    assert len(times) >= 10
    assert max(times) < PROBE_TIMEOUT
    # nginx cut the clients too slow to finish their headers (client_header_timeout),
    # and they came straight back: the pressure lasted the whole time.
    assert attack.cut >= SLOW


class Echo(BaseHTTPRequestHandler):
    """Answers with the headers it was sent, as JSON."""

    def do_GET(self):
        body = json.dumps({k.lower(): v for k, v in self.headers.items()}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_proxy_says_who_the_client_is(tmp_path, nginx_binary):
    """nginx replaces whatever X-Forwarded-For a client sent with the client's address
    (so the site reads one address, set by one trusted proxy), and says the scheme and
    host it was reached by."""
    echo = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=echo.serve_forever, daemon=True)
    thread.start()
    try:
        with nginx(nginx_binary, tmp_path / "nginx", [echo.server_address[1]]) as port:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/anything",
                headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"},
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                seen = json.loads(response.read())
    finally:
        echo.shutdown()
        echo.server_close()
    assert seen["x-forwarded-for"] == "127.0.0.1"
    assert seen["x-forwarded-proto"] == "http"
    assert seen["x-forwarded-host"] == "127.0.0.1"
    assert seen["host"] == "127.0.0.1"


# ---------------------------------------------------------------------------------------
# The shipped configuration as it is: every server block's timeouts, and the TLS site
# run with a certificate made here.

NGINX_DIR = ROOT / "clubsite" / "deploy" / "nginx"
CLUB_CONF = NGINX_DIR / "club.conf"
SITE_NAME = "club.example.org"
#: What docs/proxy.md documents for slow clients, in every server block.
SLOW_CLIENT_TIMEOUTS = {
    "client_header_timeout": "10s",
    "client_body_timeout": "10s",
    "send_timeout": "10s",
}
#: An idle kept-alive connection is closed within this (docs/proxy.md: 15 s at most).
KEEPALIVE_AT_MOST = 15
CUT_AFTER = 10.0  # seconds: the documented timeout
# How long a test waits for nginx to cut a slow client: far above 10 s (a busy machine),
# far below nginx's default of 60 s (a block without the timeouts fails).
WAIT_AT_MOST = 35.0


def _without_comments(text: str) -> str:
    return re.sub(r"#[^\n]*", "", text)


def server_blocks(text: str) -> list[str]:
    """The body of each ``server { ... }`` block of an nginx file (an upstream's
    ``server host:port;`` lines are not blocks)."""
    text = _without_comments(text)
    blocks = []
    for match in re.finditer(r"(?<![\w.])server\s*\{", text):
        depth, start = 1, match.end()
        i = start
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        blocks.append(text[start : i - 1])
    return blocks


def directives(body: str) -> dict[str, str]:
    """A block's own directives (not those of its ``location`` blocks), with the
    directives of the files it includes from this repository's snippets."""
    own: dict[str, str] = {}
    depth = 0
    statement = ""
    for char in body:
        if char == "{":
            depth += 1
            statement = ""
        elif char == "}":
            depth -= 1
            statement = ""
        elif char == ";":
            if depth == 0 and statement.strip():
                name, _, value = statement.strip().partition(" ")
                if name == "include":
                    included = NGINX_DIR / Path(value.strip()).name
                    assert included.exists(), f"includes {value}, which is not shipped"
                    own.update(directives(_without_comments(included.read_text())))
                else:
                    own[name] = value.strip()
            statement = ""
        else:
            statement += char
    return own


def _seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def test_every_server_block_of_the_shipped_configuration_has_the_timeouts():
    shipped = sorted(NGINX_DIR.glob("*.conf"))
    blocks = [(path.name, body) for path in shipped for body in server_blocks(path.read_text())]
    # club.conf: plain HTTP to HTTPS, the TLS site, the catch-all default server.
    assert len(blocks) >= 3, blocks
    for name, body in blocks:
        found = directives(body)
        where = f"{name}: server {{ {' '.join(body.split())[:80]} ... }}"
        for directive, value in SLOW_CLIENT_TIMEOUTS.items():
            assert found.get(directive) == value, f"{where} has no {directive} {value}"
        assert "keepalive_timeout" in found, f"{where} has no keepalive_timeout"
        assert _seconds(found["keepalive_timeout"].split()[0]) <= KEEPALIVE_AT_MOST, where


def _make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for the site's name (and its key), made with openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        if in_ci():
            pytest.fail("openssl not found; install it with 'apt-get install -y openssl'")
        pytest.skip("openssl not found: the TLS configuration needs a certificate made here")
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
        + ["-nodes", "-keyout", str(key), "-out", str(cert), "-days", "2"]
        + ["-subj", f"/CN={SITE_NAME}", "-addext", f"subjectAltName=DNS:{SITE_NAME}"],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


NGINX_SITE_CONF = """\
# Written by clubsite/tests/test_proxy.py: clubsite/deploy/nginx/club.conf as shipped,
# its ports, certificate and snippet path put where the test runs.
{user}
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections 1024;
}}

http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

    include {site};
}}
"""


def shipped_site(prefix: Path, http: int, https: int, upstream: int) -> str:
    """club.conf with only what a deployment changes changed: the ports (loopback, no
    IPv6), the certificate's paths, the snippet's and the challenges' folders, and
    gunicorn's port. Each replacement must find its text, so a change to the shipped
    file that the test would not follow fails here."""
    cert, key = _make_certificate(prefix)
    text = CLUB_CONF.read_text()
    replacements = [
        (r"^\s*listen \[::\]:\d+[^;]*;\n", ""),
        (r"listen 80\b", f"listen 127.0.0.1:{http}"),
        (r"listen 443\b", f"listen 127.0.0.1:{https}"),
        (r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream};"),
        (r"/etc/letsencrypt/live/club\.example\.org/fullchain\.pem", str(cert)),
        (r"/etc/letsencrypt/live/club\.example\.org/privkey\.pem", str(key)),
        (r"include snippets/club-proxy\.conf;", f"include {SNIPPET};"),
        (r"/var/www/letsencrypt", str(prefix / "acme")),
    ]
    for pattern, new in replacements:
        text, count = re.subn(pattern, new, text, flags=re.MULTILINE)
        assert count, f"club.conf no longer has {pattern!r}: update the test"
    site = prefix / "club.conf"
    site.write_text(text)
    return NGINX_SITE_CONF.format(
        user="user root root;" if _is_root() else "", prefix=prefix, site=site
    )


@pytest.fixture
def shipped_tls(tmp_path, nginx_binary):
    """nginx running club.conf as shipped (TLS with a self-signed certificate) in front
    of an upstream that echoes the headers it gets; yields (http port, https port)."""
    echo = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=echo.serve_forever, daemon=True)
    thread.start()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    http, https = _free_port(), _free_port()
    text = shipped_site(prefix, http, https, echo.server_address[1])
    try:
        with running_nginx(nginx_binary, prefix, text, https):
            yield http, https
    finally:
        echo.shutdown()
        echo.server_close()


def _tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
    return context


def _seconds_until_cut(sock: socket.socket) -> float:
    """Seconds until the server closes ``sock`` (an answer such as 408 may come first);
    infinity if it is still open after WAIT_AT_MOST."""
    started = time.monotonic()
    sock.settimeout(WAIT_AT_MOST)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return float("inf")
    except (OSError, ssl.SSLError):  # reset (reset_timedout_connection) or TLS closed
        pass
    finally:
        sock.close()
    return time.monotonic() - started


def test_the_shipped_tls_site_answers_its_name_and_refuses_others(shipped_tls):
    _, https = shipped_tls
    with (
        socket.create_connection(("127.0.0.1", https), timeout=10) as raw,
        _tls_context().wrap_socket(raw, server_hostname=SITE_NAME) as tls,
    ):
        tls.sendall(
            f"GET /anything HTTP/1.1\r\nHost: {SITE_NAME}\r\nConnection: close\r\n\r\n".encode()
        )
        answer = b""
        while chunk := tls.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    seen = json.loads(body)
    assert seen["x-forwarded-proto"] == "https"
    assert seen["host"] == SITE_NAME
    # Another name: the catch-all refuses the handshake.
    with (
        socket.create_connection(("127.0.0.1", https), timeout=10) as raw,
        pytest.raises(ssl.SSLError),
    ):
        _tls_context().wrap_socket(raw, server_hostname="other.example.org")


def test_slow_clients_are_cut_after_ten_seconds_on_every_server_of_the_shipped_site(
    shipped_tls,
):
    """A client that connects and says nothing, or never finishes its headers, is
    closed after about 10 s on the TLS port (before and after the handshake) and on the
    plain port, whichever server block nginx reads it with: with nginx's default
    (60 s) in any of them, the wait runs out."""
    http, https = shipped_tls

    def plain_partial():
        sock = socket.create_connection(("127.0.0.1", http), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\n")  # no Host yet: the catch-all reads it
        return sock

    def tls_silent():
        return socket.create_connection(("127.0.0.1", https), timeout=10)  # no handshake

    def tls_partial():
        raw = socket.create_connection(("127.0.0.1", https), timeout=10)
        tls = _tls_context().wrap_socket(raw, server_hostname=SITE_NAME)
        tls.sendall(f"GET / HTTP/1.1\r\nHost: {SITE_NAME}\r\n".encode())  # never the end
        return tls

    clients = {"plain, headers unfinished": plain_partial, "TLS, silent": tls_silent}
    clients["TLS, headers unfinished"] = tls_partial
    waited: dict[str, float] = {}

    def run(name, connect):
        waited[name] = _seconds_until_cut(connect())

    threads = [threading.Thread(target=run, args=item) for item in clients.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_AT_MOST + 15)
    assert set(waited) == set(clients), waited
    for name, seconds in waited.items():
        # Cut by the timeout (not at once), and long before nginx's default of 60 s.
        assert CUT_AFTER - 1 <= seconds <= WAIT_AT_MOST, (name, waited)
