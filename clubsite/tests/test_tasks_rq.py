"""The RQ option for several app servers (``TASKS_BACKEND=rq`` with ``REDIS_URL``,
docs/deploy.md "Several app servers"): the settings pass Django's checks, a task is
queued in Redis and RQ's worker (``manage.py rqworker``, as the unit in deploy.md runs
it) does it. Needs Redis on 127.0.0.1:6379 (CI starts it)."""

import os
import subprocess
import sys
import uuid

import pytest

from clubsite.tests.test_shared_cache import ROOT, _redis_running
from testsupport import in_ci

# A database of Redis of its own (the shared-cache tests use 0).
REDIS_URL = "redis://127.0.0.1:6379/13"

ENQUEUE = """
from clubsite.tasks import send_mail_task
print(send_mail_task.enqueue({subject!r}, "Body", ["a@example.org"]).id)
"""
RESULT = """
from clubsite.tasks import send_mail_task
print(send_mail_task.get_result({id!r}).status, send_mail_task.get_result({id!r}).return_value)
"""


@pytest.fixture
def rq_env(tmp_path):
    if not _redis_running():
        if in_ci():
            pytest.fail("Redis must run on 127.0.0.1:6379 in CI (.ci/run starts it).")
        pytest.skip("no Redis on 127.0.0.1:6379: apt-get install redis-server to run this")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ENV"}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        TASKS_BACKEND="rq",
        REDIS_URL=REDIS_URL,
        CACHE_KEY_PREFIX=f"test-{uuid.uuid4().hex[:8]}",
        EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend",
    )
    return env


def manage(env, *args) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_rq_settings_pass_the_checks_and_rqs_worker_runs_a_task(rq_env):
    manage(rq_env, "check")
    subject = f"Hello {uuid.uuid4().hex}"
    job_id = manage(rq_env, "shell", "-c", ENQUEUE.format(subject=subject)).splitlines()[-1]
    manage(rq_env, "rqworker", "default", "--burst", "--job-class", "django_tasks_rq.Job")
    status = manage(rq_env, "shell", "-c", RESULT.format(id=job_id)).splitlines()[-1]
    assert status == "SUCCESSFUL sent"


def test_rq_without_redis_url_says_what_to_set(rq_env):
    rq_env.pop("REDIS_URL")
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT, env=rq_env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0 and "TASKS_BACKEND=rq needs REDIS_URL" in done.stderr
