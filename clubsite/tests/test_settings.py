"""Production mode: refuses a missing or development SECRET_KEY, passes check --deploy."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env):
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "secret",
    [None, "short", "django-insecure-development-only-key-never-use-in-production"],
)
def test_production_refuses_to_start_without_a_real_secret_key(secret):
    env = {"DJANGO_ENV": "production", "ALLOWED_HOSTS": "club.example.org"}
    if secret is not None:
        env["SECRET_KEY"] = secret
    result = run_manage("check", **env)
    assert result.returncode != 0
    assert "needs a real SECRET_KEY" in result.stderr


def test_production_passes_check_deploy():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="club.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_development_check_deploy_would_warn():
    """The deploy check is real: development settings do not pass it."""
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_ENV="development")
    assert result.returncode == 1
    output = result.stdout + result.stderr
    # Not a crash: the deploy warnings development settings are meant to give.
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in output, output[-500:]


def test_sqlite_default_uses_wal_and_immediate_transactions(settings):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("this run uses PostgreSQL (DATABASE_URL); the SQLite defaults do not apply")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"]


@pytest.mark.django_db
def test_healthz_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok", "tasks": "ok"}


@pytest.mark.django_db
def test_security_headers_are_set(client):
    response = client.get("/")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("value", ["prod", "Production-ish", "staging"])
def test_an_unknown_django_env_is_refused_at_start_up(value):
    """A typo must not quietly run development mode (DEBUG on, the public key)."""
    result = run_manage("check", DJANGO_ENV=value)
    assert result.returncode != 0
    assert "must be 'development' or 'production'" in result.stderr


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_database_url_means_the_default_database(blank):
    """DATABASE_URL= (a blank line in an env file) starts with the SQLite default."""
    result = run_manage(
        "shell", "-c", "from django.db import connection; print(connection.vendor)",
        DATABASE_URL=blank,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "sqlite"  # after shell's own notes
