"""The results e-mail with the real worker as its own process (``manage.py db_worker``,
as docs/deploy.md runs it) on the site's database (a file on SQLite; the test database
itself on PostgreSQL), through a slow mail server: a closed day's results to 40
members are delivered each once, also when the worker is killed (SIGKILL) half-way,
with a message in the mail server's hands, and started again after ``requeue_stuck``.
The press itself sends nothing: it queues one task per message."""

import secrets

import pytest
from django.core import mail
from django.db import connection
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from members.services.days import close_day
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import ResultsMessage
from scoring.tests import games
from testsupport.worker_process import SlowSMTP, WorkerDatabase

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = 40
DELAY = 0.05  # seconds the mail server takes per message (the case: 1 s)


@pytest.fixture
def big_day(club):
    people = [MemberFactory(first_name=f"M{n:02}", results_by_email=True) for n in range(MEMBERS)]
    day = ClubDayFactory(signed_in=people[:4])
    table = TableFactory(round__day=day, seated=people[:4])
    games.win(table, people[:2], people[2:4])
    close_day(day)
    day.addresses = sorted(p.email for p in people)
    return day


@pytest.fixture
def worker_db(tmp_path):
    return WorkerDatabase(connection, tmp_path)


def press(client, day):
    data = {"key": secrets.token_urlsafe(24), "again": "no"}
    response = client.post(reverse("scoring:send_results", args=[day.pk]), data)
    assert response.status_code == 302
    return response


def mail_settings(smtp: SlowSMTP, **more) -> dict:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp.port),
        "EMAIL_USE_TLS": "0",
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        **more,
    }


def statuses() -> dict[str, int]:
    found: dict[str, int] = {}
    for status in ResultsMessage.objects.values_list("status", flat=True):
        found[status] = found.get(status, 0) + 1
    return found


def test_the_worker_process_delivers_each_message_once(
    officer_client, big_day, worker_db, db_tasks
):
    press(officer_client, big_day)
    # The press queued one task per member and sent nothing itself.
    assert mail.outbox == [] and statuses() == {"pending": MEMBERS}
    assert DBTaskResult.objects.filter(status="READY").count() == MEMBERS

    with SlowSMTP(delay=DELAY) as smtp:
        worker_db.to_worker()
        env = worker_db.environment(**mail_settings(smtp))
        worker_db.manage("db_worker", "--batch", "--no-reload", "--interval", "0", env=env)
        worker_db.from_worker()
    assert sorted(smtp.accepted) == big_day.addresses  # each once
    assert statuses() == {"sent": MEMBERS}


def test_a_worker_killed_half_way_and_started_again_loses_and_doubles_nothing(
    officer_client, big_day, worker_db, db_tasks
):
    press(officer_client, big_day)
    with SlowSMTP(delay=DELAY, hold_at=16) as smtp:
        worker_db.to_worker()
        env = worker_db.environment(**mail_settings(smtp, TASKS_STUCK_MINUTES="0"))
        worker = worker_db.start_worker(env)
        try:
            assert smtp.holding.wait(120), "the worker never reached the 16th message"
        finally:
            worker_db.kill(worker)  # SIGKILL, with the 16th message in the server's hands
        smtp.release.set()
        assert len(smtp.accepted) == 15 and len(set(smtp.accepted)) == 15

        # As the worker's service does when it starts again: the sweep, then the worker.
        worker_db.manage("requeue_stuck", env=env)
        worker_db.manage("db_worker", "--batch", "--no-reload", "--interval", "0", env=env)
        worker_db.from_worker()
        # The one the killed worker held may have reached the server: it is not sent
        # again by itself, but marked so, and the rest went once each.
        assert statuses() == {"sent": MEMBERS - 1, "interrupted": 1}
        assert len(smtp.accepted) == MEMBERS - 1 == len(set(smtp.accepted))
        held = ResultsMessage.objects.get(status="interrupted")
        assert held.email not in smtp.accepted

        # The officer's plain "Send the results" reaches it (this server never took it).
        page = officer_client.get(reverse("members:day", args=[big_day.pk])).content.decode()
        assert "Send the results to 1 member" in page
        press(officer_client, big_day)
        worker_db.to_worker()
        worker_db.manage("db_worker", "--batch", "--no-reload", "--interval", "0", env=env)
        worker_db.from_worker()
    assert sorted(smtp.accepted) == big_day.addresses  # all 40, each exactly once
    assert mail.outbox == []  # nothing was ever sent by the test's own process
