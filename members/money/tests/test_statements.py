"""Statements through the worker: one per person per run, a double press sends
nothing twice, members without e-mail get a printable copy."""

import datetime
from decimal import Decimal

import pytest
from django.core import mail
from django.urls import reverse

from members.money.models import StatementMessage, StatementRun
from members.money.services.ledger import add_charge, record_payment
from members.money.services.statements import send_statements
from members.money.tasks import send_statement
from testsupport import run_worker

START, END = datetime.date(2026, 11, 1), datetime.date(2026, 11, 30)


@pytest.fixture
def ledger(ann, bob, rates):
    bob.email = ""
    bob.save()
    add_charge(ann, Decimal("12.00"), "table", date=datetime.date(2026, 11, 5))
    record_payment(ann, Decimal("10.00"), "cash", date=datetime.date(2026, 11, 6))
    add_charge(bob, Decimal("5.00"), "table", date=datetime.date(2026, 11, 5))


@pytest.mark.django_db(transaction=True)  # the worker closes its connection
def test_each_person_gets_one_statement_through_the_worker(db_tasks, ledger, ann):
    run, new = send_statements(START, END, key="press-1")
    again, new_again = send_statements(START, END, key="press-1")  # a double tap
    assert new and not new_again and again.pk == run.pk
    assert not mail.outbox  # nothing sent before the worker runs
    run_worker()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [ann.email] and "-2.00 USD" in message.body
    assert "unsubscribe" not in message.body.lower()
    statuses = dict(run.messages.values_list("person__first_name", "status"))
    assert statuses == {"Ann": "sent", "Bob": "print"}
    # A task queued again for a sent statement sends nothing.
    send_statement.enqueue(run.messages.get(person=ann).pk)
    run_worker()
    assert len(mail.outbox) == 1


def test_the_pages_send_once_and_print_the_rest(ledger, login, treasurer_user):
    client = login(treasurer_user)
    data = {"start": "2026-11-01", "end": "2026-11-30", "key": "page-key"}
    client.post(reverse("money:statements"), data)
    client.post(reverse("money:statements"), data)
    assert StatementRun.objects.count() == 1 and len(mail.outbox) == 1
    run = StatementRun.objects.get()
    page = client.get(reverse("money:statement_print", args=[run.pk])).content.decode()
    assert "Statement of Bob Brown" in page and "Ann Adams" not in page
    # Each count after its label ("Enviado: 20" reads right; "20 Enviado" did not).
    page = client.get(reverse("money:statement_run", args=[run.pk])).content.decode()
    assert "Sent: <strong>1</strong>" in page
    assert "To print (no e-mail): <strong>1</strong>" in page


def test_a_period_that_ends_before_it_starts_is_refused(ledger, login, treasurer_user):
    client = login(treasurer_user)
    data = {"start": "2026-11-30", "end": "2026-11-01", "key": "k"}
    response = client.post(reverse("money:statements"), data, follow=True)
    assert "starts after it ends" in response.content.decode()
    assert not StatementMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_worker_stopped_part_way_then_run_again_sends_each_once(db_tasks, rates):
    from members.tests.factories import MemberFactory

    people = [MemberFactory(email=f"p{i}@example.org") for i in range(3)]
    run, _ = send_statements(START, END, key="press-2")
    run_worker(max_tasks=1)
    assert len(mail.outbox) == 1
    for person in people:  # the same tasks queued again, as after a lost queue
        send_statement.enqueue(run.messages.get(person=person).pk)
    run_worker()
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in people)


@pytest.mark.django_db(transaction=True)
def test_a_temporary_refusal_waits_and_tries_again_later(db_tasks, ledger, ann, monkeypatch):
    import smtplib

    from django_tasks_db.models import DBTaskResult

    def refuse(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr("members.money.tasks.send_mail", refuse)
    run, _ = send_statements(START, END, key="press-3")
    run_worker()
    message = run.messages.get(person=ann)
    assert message.status == "pending" and message.attempts == 1 and message.error == "gone"
    waiting = DBTaskResult.objects.filter(status="READY", run_after__isnull=False)
    assert waiting.count() == 1  # queued again for later


@pytest.mark.django_db(transaction=True)  # the worker closes its connection
def test_requeue_stuck_queues_lost_statements_and_dues_notices_again(db_tasks, ledger, ann, bob):
    from django.core.management import call_command
    from django.utils import timezone
    from django_tasks_db.models import DBTaskResult

    from members.money.models import DuesNotice
    from members.money.services.dues import open_renewal

    run, _ = send_statements(START, END, key="press-3")
    open_renewal("Dues 2027", datetime.date(2027, 12, 31), key="open-3")
    DBTaskResult.objects.all().delete()  # the queue lost its tasks
    long_ago = timezone.now() - datetime.timedelta(hours=2)
    StatementRun.objects.filter(pk=run.pk).update(created_at=long_ago)
    DuesNotice.objects.update(created_at=long_ago)
    call_command("requeue_stuck", verbosity=0)
    run_worker()
    assert len(mail.outbox) == 2  # the statement and the dues notice, once each
    assert run.messages.get(person=ann).status == "sent"
    assert DuesNotice.objects.get(person=ann).status == "sent"
    call_command("requeue_stuck", verbosity=0)  # again: nothing waits, nothing sent
    assert not DBTaskResult.objects.filter(status="READY").exists()
    run_worker()
    assert len(mail.outbox) == 2
