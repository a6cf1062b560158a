"""The results e-mail on the real worker (the database queue and ``db_worker``): the
press sends nothing itself, the worker sends each message once, also when it is stopped
half-way or killed while holding a message, a temporary refusal is tried again later
and a permanent one recorded, and the day page says how far it has got."""

import datetime
import secrets
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from members.services.days import close_day
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import ResultsMessage
from scoring.results.mail_tasks import requeue_stuck
from scoring.tests import games
from testsupport import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = 40


@pytest.fixture
def big_day(club):
    """A closed day, and 40 members who asked for its results."""
    people = [MemberFactory(first_name=f"M{n:02}", results_by_email=True) for n in range(MEMBERS)]
    day = ClubDayFactory(signed_in=people[:4])
    table = TableFactory(round__day=day, seated=people[:4])
    games.win(table, people[:2], people[2:4])
    close_day(day)
    return day


def press(client, day, again=False):
    data = {"key": secrets.token_urlsafe(24), "again": "yes" if again else "no"}
    return client.post(reverse("scoring:send_results", args=[day.pk]), data)


def addresses():
    return sorted(m.to[0] for m in mail.outbox)


def statuses():
    return sorted(ResultsMessage.objects.values_list("status", flat=True))


def test_the_press_queues_and_the_worker_sends_each_once(
    officer_client, big_day, db_tasks, django_assert_max_num_queries
):
    with django_assert_max_num_queries(40 + MEMBERS):  # one insert per task; no SMTP
        response = press(officer_client, big_day)
    assert response.status_code == 302
    assert mail.outbox == []  # nothing sent inside the request
    assert statuses() == ["pending"] * MEMBERS
    page = officer_client.get(reverse("members:day", args=[big_day.pk])).content.decode()
    assert f"Sending: 0 of {MEMBERS}" in page and 'hx-trigger="every 3s"' in page

    # The worker is stopped after 15 messages, then a new one finishes the rest.
    run_worker(max_tasks=15)
    assert len(mail.outbox) == 15
    page = officer_client.get(reverse("scoring:day_mail", args=[big_day.pk])).content.decode()
    assert f"Sending: 15 of {MEMBERS}" in page
    run_worker()
    assert len(addresses()) == MEMBERS == len(set(addresses()))
    assert statuses() == ["sent"] * MEMBERS
    # The links in a message are the club's, at the officer's host.
    assert "http://testserver/results/" in mail.outbox[0].body
    page = officer_client.get(reverse("scoring:day_mail", args=[big_day.pk])).content.decode()
    assert "Sending:" not in page and "hx-trigger" not in page


def test_a_task_run_twice_sends_once(officer_client, big_day, db_tasks):
    press(officer_client, big_day)
    message = ResultsMessage.objects.first()
    from scoring.results.mail_tasks import send_results_message

    send_results_message.enqueue(message.pk)  # the same message queued again
    run_worker()
    assert len(addresses()) == MEMBERS == len(set(addresses()))


def test_a_message_a_killed_worker_was_sending_is_never_sent_twice_by_itself(
    officer_client, big_day, db_tasks
):
    """A worker killed while talking to the mail server leaves its message "sending"
    and its task "running" forever; the server may have taken it or not. The sweep
    marks it "interrupted" (never sends it again by itself); the officer's plain send
    reaches it."""
    press(officer_client, big_day)
    run_worker(max_tasks=10)
    held = ResultsMessage.objects.filter(status="pending").first()
    # What the killed worker left: the row taken, its task no longer waiting.
    ResultsMessage.objects.filter(pk=held.pk).update(
        status="sending", claimed_at=timezone.now(), attempts=1
    )
    DBTaskResult.objects.filter(args_kwargs__args=[held.pk], status="READY").update(
        status="RUNNING"
    )
    run_worker()
    assert len(mail.outbox) == MEMBERS - 1
    requeue_stuck()
    assert ResultsMessage.objects.get(pk=held.pk).status == "sending"  # may still be going
    requeue_stuck(now=timezone.now() + datetime.timedelta(minutes=11))
    run_worker()
    assert ResultsMessage.objects.get(pk=held.pk).status == "interrupted"
    assert len(mail.outbox) == MEMBERS - 1
    page = officer_client.get(reverse("members:day", args=[big_day.pk])).content.decode()
    assert "interrupted, perhaps not sent" in page and "Send the results to 1 member" in page
    press(officer_client, big_day)
    run_worker()
    assert len(addresses()) == MEMBERS == len(set(addresses()))


def test_a_message_whose_task_was_lost_is_queued_again(officer_client, big_day, db_tasks):
    press(officer_client, big_day)
    DBTaskResult.objects.all().delete()  # the queue lost them (a queue emptied by hand)
    run_worker()
    assert mail.outbox == []
    assert requeue_stuck() == 0  # not overdue yet
    assert requeue_stuck(now=timezone.now() + datetime.timedelta(minutes=11)) == MEMBERS
    run_worker()
    assert len(addresses()) == MEMBERS == len(set(addresses()))


def test_a_temporary_refusal_is_tried_again_later_and_a_permanent_one_is_recorded(
    officer_client, big_day, db_tasks, monkeypatch
):
    real = EmailBackend.send_messages
    refusals = {"m00": 451, "m01": 550}

    def refuse(self, messages):
        address = messages[0].to[0]
        code = refusals.get(address.split("@")[0][:3].lower())
        if code:
            raise smtplib.SMTPRecipientsRefused({address: (code, b"try later or never")})
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    press(officer_client, big_day)
    run_worker()
    assert len(mail.outbox) == MEMBERS - 2
    failed = ResultsMessage.objects.get(status="failed")
    waiting = ResultsMessage.objects.get(status="pending")
    assert failed.person.first_name == "M01" and "try later or never" in failed.error
    assert waiting.person.first_name == "M00" and waiting.attempts == 1
    assert waiting.due_at > timezone.now()  # queued again, to run a minute later
    later = DBTaskResult.objects.get(status="READY")
    assert later.run_after == waiting.due_at
    # The server takes it now; the retry, once due, sends it.
    refusals.clear()
    DBTaskResult.objects.filter(pk=later.pk).update(run_after=timezone.now())
    run_worker()
    assert ResultsMessage.objects.get(pk=waiting.pk).status == "sent"
    assert len(addresses()) == MEMBERS - 1 == len(set(addresses()))


def test_only_officers_see_the_mail_progress(member_client, big_day):
    url = reverse("scoring:day_mail", args=[big_day.pk])
    assert member_client.get(url).status_code == 403
