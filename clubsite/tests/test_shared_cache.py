"""Every worker and server sees one cache: what one process stores, another reads. With
Redis, the login sessions are read through it too (Django's cached_db engine).

Each check runs two separate processes of the site (as two gunicorn workers would be)
against one database, or one Redis: the first counts a wrong room code, the second sees
the count. A worker's own memory (Django's default local-memory cache) would fail this.
"""

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from testsupport import in_ci

ROOT = Path(__file__).resolve().parents[2]
REDIS = ("127.0.0.1", 6379)

SET = "from django.core.cache import cache; cache.set({key!r}, 3, 300); cache.incr({key!r})"
GET = "from django.core.cache import cache; print(cache.get({key!r}))"
SETTINGS = (
    "from django.conf import settings; print(settings.CACHES['default'], settings.SESSION_ENGINE)"
)


def _manage(*args, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ENV", "REDIS_URL"}}
    full_env.update(env)
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def _redis_running() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1):
            return True
    except OSError:
        return False


def test_the_default_cache_is_shared_through_the_database(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}"}
    _manage("migrate", "--noinput", "-v", "0", **env)
    backend = _manage("shell", "-c", SETTINGS, **env)
    assert "DatabaseCache" in backend
    assert backend.endswith("django.contrib.sessions.backends.db")  # no cache in front
    key = f"wrong-codes-{uuid.uuid4().hex}"
    _manage("shell", "-c", SET.format(key=key), **env)
    assert _manage("shell", "-c", GET.format(key=key), **env) == "4"


def test_with_redis_url_the_cache_is_shared_through_redis(tmp_path):
    if not _redis_running():
        if in_ci():
            pytest.fail("Redis must run on 127.0.0.1:6379 in CI (.ci/run starts it).")
        pytest.skip("no Redis on 127.0.0.1:6379: apt-get install redis-server to run this")
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "CACHE_KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}",
    }
    backend = _manage("shell", "-c", SETTINGS, **env)
    assert "RedisCache" in backend
    assert backend.endswith("django.contrib.sessions.backends.cached_db")  # read from Redis
    key = f"wrong-codes-{uuid.uuid4().hex}"
    _manage("shell", "-c", SET.format(key=key), **env)
    assert _manage("shell", "-c", GET.format(key=key), **env) == "4"
