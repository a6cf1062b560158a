"""nginx in front of app servers, with the repository's proxy settings
(``clubsite/deploy/nginx/club-proxy.conf``), as a child process with its own prefix,
configuration, pid file, logs and temporary files: the deployment of docs/proxy.md on
plain HTTP and a free loopback port. Used by the proxy test
(``clubsite/tests/test_proxy.py``) and by ``benchmark --proxy``."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SNIPPET = ROOT / "clubsite" / "deploy" / "nginx" / "club-proxy.conf"

NGINX_CONF = """\
# Written by scoring/devtools/bench/proxy.py: the deployment's proxy settings on plain HTTP.
{user}
worker_processes {workers};
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections 4096;
}}

http {{
    access_log {access_log};
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

    upstream club_gunicorn {{
{servers}
        keepalive 16;
    }}

    server {{
        listen 127.0.0.1:{port};
        server_name 127.0.0.1;
        include {snippet};
    }}
}}
"""


def nginx_path() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def proxy_conf(
    prefix: Path, port: int, upstreams: list[int], workers: int = 1, access_log: bool = True
) -> str:
    """The configuration of nginx on ``port`` in front of the app servers on
    ``upstreams`` (loopback ports), with the shipped proxy snippet."""
    return NGINX_CONF.format(
        # As root, nginx's workers would switch to an unprivileged user that cannot
        # write this directory: they stay the caller's user.
        user="user root root;" if os.geteuid() == 0 else "",
        workers=workers,
        prefix=prefix,
        access_log=f"{prefix}/access.log" if access_log else "off",
        servers="\n".join(f"        server 127.0.0.1:{p};" for p in upstreams),
        port=port,
        snippet=SNIPPET,
    )


@contextlib.contextmanager
def nginx(binary: str, prefix: Path, upstreams: list[int], **options):
    """nginx on a free loopback port in front of ``upstreams``; yields its port."""
    prefix.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with running_nginx(binary, prefix, proxy_conf(prefix, port, upstreams, **options), port):
        yield port


@contextlib.contextmanager
def running_nginx(binary: str, prefix: Path, text: str, port: int):
    """nginx with the configuration ``text`` (its files in ``prefix``), once it accepts
    connections on ``port``."""
    conf = prefix / "nginx.conf"
    conf.write_text(text)
    command = [binary, "-p", str(prefix), "-e", str(prefix / "error.log"), "-c", str(conf)]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=30)
    if checked.returncode:
        raise RuntimeError(f"nginx refused its configuration: {checked.stderr}")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = (prefix / "error.log").read_text(errors="replace")
                    raise RuntimeError(f"nginx did not start: {log[-2000:]}") from None
                time.sleep(0.1)
        yield process
    finally:
        process.terminate()  # nginx's fast shutdown
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
