"""This app's e-mails on the worker: one task per ``Notice`` (one person, one event).

The task claims its row with one conditional UPDATE (pending → sending) before it
sends, so a task queued twice, or two workers, send it once. A temporary refusal of the
mail server puts it back to waiting and queues it again later
(``clubsite.tasks.RETRY_DELAYS``); a permanent one marks it failed with the reason.
A row whose task was lost is queued again by :func:`requeue_stuck` (``manage.py
requeue_stuck``); one a killed worker left "sending" is marked failed, never sent twice."""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db.models import Q
from django.utils import timezone
from django_tasks import task

from clubsite.tasks import MAX_ATTEMPTS, retry_at, temporary
from members.bookings.models import Notice
from members.clubs.scope import in_club
from members.models import Club

logger = logging.getLogger(__name__)
Status = Notice.Status


@task()
def send_notice(notice_id: int, club_id: int, attempt: int = 1) -> str:
    """Send one notice if it still waits; says what happened."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return "gone"
    with in_club(club):
        claimed = Notice.objects.filter(pk=notice_id, status=Status.PENDING).update(
            status=Status.SENDING, claimed_at=timezone.now()
        )
        if not claimed:  # sent, failed, or another worker has it
            return "skipped"
        notice = Notice.objects.get(pk=notice_id)
        headers = (
            {"List-Unsubscribe": f"<{notice.unsubscribe_url}>"} if notice.unsubscribe_url else {}
        )
        message = EmailMessage(notice.subject, notice.body, None, [notice.email], headers=headers)
        try:
            message.send()
        except Exception as exc:
            return _not_sent(notice, exc, attempt)
        Notice.objects.filter(pk=notice_id).update(status=Status.SENT, sent_at=timezone.now())
    return "sent"


def _not_sent(notice: Notice, exc: Exception, attempt: int) -> str:
    error = str(exc)[:300] or type(exc).__name__
    logger.warning(
        "Notice %s to person %s not sent (try %s): %s",
        notice.event,
        notice.person_id,
        attempt,
        error,
    )
    rows = Notice.objects.filter(pk=notice.pk, status=Status.SENDING)
    later = send_notice.get_backend().supports_defer
    if temporary(exc) and attempt < MAX_ATTEMPTS and later:
        due = retry_at(attempt)
        rows.update(status=Status.PENDING, error=error, due_at=due, claimed_at=None)
        send_notice.using(run_after=due).enqueue(notice.pk, notice.club_id, attempt + 1)
        return "retry"
    rows.update(status=Status.FAILED, error=error)
    return "failed"


def requeue_stuck(now: datetime.datetime | None = None) -> int:
    """Queue again every notice still waiting ``TASKS_STUCK_MINUTES`` after it was due
    (its task lost), and mark failed each one a killed worker left being sent (the mail
    server may have taken it: sending again could write twice). Club by club, in each
    club's scope. Returns how many were queued."""
    now = now or timezone.now()
    stale = now - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    queued = 0
    for club in Club.objects.all():
        with in_club(club):
            Notice.objects.filter(status=Status.SENDING, claimed_at__lt=stale).update(
                status=Status.FAILED, error="interrupted: perhaps not sent"
            )
            lost = Notice.objects.filter(status=Status.PENDING).filter(
                Q(due_at__lt=stale) | Q(due_at__isnull=True, created_at__lt=stale)
            )
            waiting = list(lost.values_list("pk", flat=True))
            Notice.objects.filter(pk__in=waiting).update(due_at=now)
            for pk in waiting:
                send_notice.enqueue(pk, club.pk)
            queued += len(waiting)
    return queued
