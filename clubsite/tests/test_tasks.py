"""Background work on the real worker (the database queue and ``db_worker``): the
sign-up's confirmation mail, a mail server's temporary refusal tried again later and a
permanent one kept in the task's row."""

import datetime
import smtplib

import pytest
from django_tasks_db.models import DBTaskResult

from clubsite import tasks
from clubsite.tests.test_club_signup import FORM, START
from testsupport import run_worker

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def signup_on(settings):
    settings.CLUBS_SHARED_SITE = True
    settings.CLUB_SIGNUP = True


def test_the_signup_mail_is_sent_by_the_worker(signup_on, client, db_tasks, mailoutbox):
    response = client.post(START, FORM)
    assert response.status_code == 302 and response["Location"].endswith("/sent/")
    assert mailoutbox == []  # the request only queued it
    run_worker()
    [mail] = mailoutbox
    assert mail.to == ["nora@example.org"] and "/accounts/start-club/" in mail.body


def test_a_temporary_refusal_is_tried_again_later(db_tasks, mailoutbox, monkeypatch):
    real = tasks.send_mail
    refusals = [smtplib.SMTPServerDisconnected("went away")]

    def flaky(*args, **kwargs):
        if refusals:
            raise refusals.pop()
        return real(*args, **kwargs)

    monkeypatch.setattr(tasks, "send_mail", flaky)
    tasks.send_mail_task.enqueue("Hello", "Body", ["a@example.org"])
    run_worker()
    assert mailoutbox == []
    later = DBTaskResult.objects.get(status="READY")
    assert later.args_kwargs["args"][-1] == 2  # the second attempt, due a minute later
    run_worker()
    assert mailoutbox == []  # not due yet
    DBTaskResult.objects.filter(pk=later.pk).update(run_after=later.enqueued_at)
    run_worker()
    assert [m.to for m in mailoutbox] == [["a@example.org"]]


def test_a_permanent_refusal_fails_the_task_with_the_reason(db_tasks, mailoutbox, monkeypatch):
    def refuse(*args, **kwargs):
        raise smtplib.SMTPRecipientsRefused({"a@example.org": (550, b"no such mailbox")})

    monkeypatch.setattr(tasks, "send_mail", refuse)
    tasks.send_mail_task.enqueue("Hello", "Body", ["a@example.org"])
    run_worker()
    failed = DBTaskResult.objects.get()
    assert failed.status == "FAILED" and "no such mailbox" in failed.traceback
    assert mailoutbox == []


def test_healthz_says_when_the_queue_is_stuck(client, db_tasks, settings):
    from django.utils import timezone

    settings.TASKS_STUCK_MINUTES = 10
    health = client.get("/healthz").json()
    assert health["status"] == "ok" and health["tasks"] == "ok"
    tasks.send_mail_task.enqueue("Hello", "Body", ["a@example.org"])
    assert client.get("/healthz").json()["tasks"] == "ok"  # waiting, but not for long
    queued = timezone.now() - datetime.timedelta(minutes=11)
    DBTaskResult.objects.update(enqueued_at=queued)
    response = client.get("/healthz")
    health = response.json()
    assert response.status_code == 200
    assert health["status"] == "degraded" and health["tasks"] == "stuck"
    assert "1 background task(s) waiting, the oldest for 11 minutes" in health["reason"]
    run_worker()  # the worker runs again: all well
    assert client.get("/healthz").json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "tasks": "ok",
    }


def test_healthz_counts_the_last_days_failures(client, db_tasks, settings):
    """Mail and task failures are visible to the operator: counts only, every club's."""
    from django.core.cache import cache
    from django.utils import timezone

    from members.jobs.models import ClubJob

    assert "failed_last_day" not in client.get("/healthz").json()
    tasks.send_mail_task.enqueue("Hello", "Body", ["a@example.org"])
    DBTaskResult.objects.update(status="FAILED", finished_at=timezone.now())
    ClubJob.objects.create(kind="backup", key="k", requested_at=timezone.now(), status="failed")
    old = timezone.now() - datetime.timedelta(days=2)
    ClubJob.objects.create(kind="backup", key="k2", requested_at=old, status="failed")
    cache.clear()  # the counts are kept for a few minutes
    health = client.get("/healthz").json()
    assert health["status"] == "ok"  # a failure is reported, not a server's trouble
    assert health["failed_last_day"] == {
        "tasks": 1,
        "results_mail": 0,
        "workbooks": 0,
        "club_jobs": 1,
    }
