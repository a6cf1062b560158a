"""The money e-mails on the worker (Django's Tasks framework): one task per statement
and per dues notice. Each task takes its row with one conditional UPDATE (pending →
sending) before it sends, so a task queued twice, or two workers, never send one person
the same statement twice. Statements of account carry no unsubscribe."""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_scopes import scopes_disabled
from django_tasks import task

from clubsite.tasks import MAX_ATTEMPTS, retry_at, temporary
from members.clubs.scope import in_club
from members.money.models import DuesNotice, MoneySettings, StatementMessage

logger = logging.getLogger(__name__)


def _language(person, club) -> str:
    return person.language or club.language_code


@task()
def send_statement(message_id: int) -> str:
    """Send one statement, if it still waits; says what happened."""
    with scopes_disabled():
        message = StatementMessage.objects.select_related("club").filter(pk=message_id).first()
    if message is None:
        return "gone"
    club = message.club
    with in_club(club), timezone.override(club.time_zone):
        Status = StatementMessage.Status
        claimed = StatementMessage.objects.filter(pk=message_id, status=Status.PENDING).update(
            status=Status.SENDING, attempts=F("attempts") + 1
        )
        if not claimed:
            return "skipped"
        message = StatementMessage.objects.select_related("person", "run").get(pk=message_id)
        from members.money.services.reads import statement_for

        with translation.override(_language(message.person, club)):
            statement = statement_for(message.person, message.run.start, message.run.end)
            context = {"statement": statement, "club": club}
            subject = render_to_string("money/mail/statement_subject.txt", context).strip()
            body = render_to_string("money/mail/statement.txt", context)
        try:
            send_mail(subject, body, None, [message.email])
        except Exception as exc:  # a refusal, a dropped connection
            return _statement_not_sent(message, exc)
        StatementMessage.objects.filter(pk=message_id).update(
            status=Status.SENT, sent_at=timezone.now(), error=""
        )
        return "sent"


def _statement_not_sent(message: StatementMessage, exc: Exception) -> str:
    """A temporary refusal of the mail server waits and tries again later
    (``clubsite.tasks.RETRY_DELAYS``); anything else is recorded as failed."""
    Status = StatementMessage.Status
    error = (str(exc) or type(exc).__name__)[:300]
    logger.warning("Statement to %s not sent (try %s): %s", message.email, message.attempts, error)
    waiting = StatementMessage.objects.filter(pk=message.pk, status=Status.SENDING)
    later = send_statement.get_backend().supports_defer
    if temporary(exc) and message.attempts < MAX_ATTEMPTS and later:
        waiting.update(status=Status.PENDING, error=error)
        send_statement.using(run_after=retry_at(message.attempts)).enqueue(message.pk)
        return "retry"
    waiting.update(status=Status.FAILED, error=error)
    return "failed"


@task()
def send_dues_notice(notice_id: int) -> str:
    """Send one renewal notice or reminder, if it still waits."""
    with scopes_disabled():
        notice = DuesNotice.objects.select_related("club").filter(pk=notice_id).first()
    if notice is None:
        return "gone"
    club = notice.club
    with in_club(club), timezone.override(club.time_zone):
        Status = DuesNotice.Status
        claimed = DuesNotice.objects.filter(pk=notice_id, status=Status.PENDING).update(
            status=Status.SENT
        )
        if not claimed:
            return "skipped"
        notice = DuesNotice.objects.select_related("person", "period").get(pk=notice_id)
        from members.money.services.reads import dues_amount

        with translation.override(_language(notice.person, club)):
            context = {
                "notice": notice,
                "club": club,
                "amount": dues_amount(notice.person, timezone.localdate()),
                "currency": MoneySettings.current().currency,
            }
            subject = render_to_string("money/mail/dues_subject.txt", context).strip()
            body = render_to_string("money/mail/dues.txt", context)
        try:
            send_mail(subject, body, None, [notice.person.email])
        except Exception as exc:
            logger.warning("Dues notice to %s not sent: %s", notice.person.email, exc)
            DuesNotice.objects.filter(pk=notice_id).update(status=Status.FAILED)
            return "failed"
        return "sent"


def requeue_stuck(now: datetime.datetime | None = None) -> int:
    """Queue again every statement and dues notice still waiting ``TASKS_STUCK_MINUTES``
    after its run or renewal made it (its task was lost: a worker killed, a queue
    emptied). A task claims its row before sending, so one queued twice sends once. A
    statement left "being sent" by a killed worker is not sent again (it may have gone);
    the statements page shows it. Returns how many were queued."""
    now = now or timezone.now()
    stale = now - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    with scopes_disabled():
        statements = list(
            StatementMessage.objects.filter(
                status=StatementMessage.Status.PENDING, run__created_at__lt=stale
            ).values_list("pk", flat=True)
        )
        notices = list(
            DuesNotice.objects.filter(
                status=DuesNotice.Status.PENDING, created_at__lt=stale
            ).values_list("pk", flat=True)
        )
    for pk in statements:
        send_statement.enqueue(pk)
    for pk in notices:
        send_dues_notice.enqueue(pk)
    return len(statements) + len(notices)
