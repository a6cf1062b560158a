"""This app's e-mails on the worker: queued with the event, sent by the worker once per
person, never twice however often the task or the event is replayed."""

import contextvars
import smtplib
import threading

import pytest
from django.core import mail
from django.db import connection, connections

from members.bookings.models import Booking, Notice
from members.bookings.services import bookings, notices
from members.bookings.tasks import send_notice
from testsupport import run_worker

Status = Notice.Status


@pytest.mark.django_db(transaction=True)
def test_promotion_mail_waits_for_the_worker_and_goes_once(db_tasks, rules, soon, people):
    made = [bookings.book(soon, p).booking for p in people[:6]]
    bookings.cancel(made[0])
    bookings.cancel(made[1])
    assert mail.outbox == []  # nothing sent in the request
    assert set(Notice.objects.values_list("status", flat=True)) == {Status.PENDING}
    run_worker()
    assert sorted(m.to[0] for m in mail.outbox) == [people[4].email, people[5].email]
    assert set(Notice.objects.values_list("status", flat=True)) == {Status.SENT}
    # The same events replayed, the tasks queued again: nothing more is sent.
    for booking in Booking.objects.filter(person__in=people[4:6]):
        notices.promoted(booking)
    for notice in Notice.objects.all():
        send_notice.enqueue(notice.pk, notice.club_id)
    run_worker()
    assert len(mail.outbox) == 2


@pytest.mark.django_db(transaction=True)
def test_a_task_whose_worker_died_while_sending_does_not_send_again(db_tasks, rules, soon, people):
    made = [bookings.book(soon, p).booking for p in people[:5]]
    bookings.cancel(made[0])
    notice = Notice.objects.get()
    Notice.objects.filter(pk=notice.pk).update(status=Status.SENDING)  # killed mid-send
    run_worker()
    assert mail.outbox == []
    assert send_notice.call(notice.pk, notice.club_id) == "skipped"


def test_a_permanent_refusal_is_recorded(rules, soon, people, monkeypatch):
    def refuse(self, *args, **kwargs):
        raise smtplib.SMTPRecipientsRefused({"x@example.org": (550, b"no such user")})

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    made = [bookings.book(soon, p).booking for p in people[:5]]
    bookings.cancel(made[0])
    notice = Notice.objects.get()
    assert notice.status == Status.FAILED and "no such user" in notice.error


def test_nobody_mailed_who_stopped_it_or_has_no_address(rules, soon, people):
    from members.bookings.services.choices import set_choice

    set_choice(people[4], "booking_news", False)
    people[5].email = ""
    people[5].save()
    made = [bookings.book(soon, p).booking for p in people[:6]]
    bookings.cancel(made[0])
    bookings.cancel(made[1])
    assert Booking.objects.filter(day=soon).waiting().count() == 0
    assert not Notice.objects.exists() and mail.outbox == []


def _in_this_club(target, *args) -> threading.Thread:
    return threading.Thread(target=contextvars.copy_context().run, args=(target, *args))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_members_booking_the_last_place_at_once(rules, soon, people):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    for person in people[:3]:
        bookings.book(soon, person)
    for _attempt in range(6):
        barrier = threading.Barrier(2)
        a, b = people[3], people[4]
        Booking.objects.filter(day=soon, person__in=[a, b]).delete()
        outcomes = []

        def member(person, barrier=barrier, outcomes=outcomes):
            try:
                barrier.wait(timeout=10)
                outcomes.append(bookings.book(soon, person).booking.status)
            finally:
                connections.close_all()

        threads = [_in_this_club(member, a), _in_this_club(member, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcomes) == [Booking.Status.BOOKED, Booking.Status.WAITING]
        assert bookings.taken_places(soon) == 4


@pytest.mark.django_db(transaction=True)
def test_a_lost_task_is_queued_again_and_sent_once(db_tasks, rules, soon, people):
    import datetime

    from django.core.management import call_command
    from django.utils import timezone

    from members.bookings.tasks import requeue_stuck

    made = [bookings.book(soon, p).booking for p in people[:6]]
    bookings.cancel(made[0])
    from django_tasks_db.models import DBTaskResult

    DBTaskResult.objects.all().delete()  # the task is lost
    assert requeue_stuck() == 0  # not overdue yet
    later = timezone.now() + datetime.timedelta(minutes=11)
    assert requeue_stuck(now=later) == 1
    run_worker()
    assert [m.to for m in mail.outbox] == [[people[4].email]]
    # Left "sending" by a killed worker: marked failed, not sent again.
    bookings.cancel(made[1])
    notice = Notice.objects.get(person=people[5])
    Notice.objects.filter(pk=notice.pk).update(status=Status.SENDING, claimed_at=timezone.now())
    DBTaskResult.objects.all().delete()
    assert requeue_stuck(now=timezone.now() + datetime.timedelta(minutes=11)) == 0
    assert Notice.objects.get(pk=notice.pk).status == Status.FAILED
    call_command("requeue_stuck", verbosity=0)
    run_worker()
    assert len(mail.outbox) == 1
