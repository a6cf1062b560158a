"""Background work shared by the site (Django's Tasks framework; docs/deploy.md, "The
worker"): a plain e-mail sent by the worker, and what counts as a mail server's
temporary refusal, which is tried again later (:data:`RETRY_DELAYS`)."""

from __future__ import annotations

import datetime
import smtplib

from django.core.mail import send_mail
from django.utils import timezone
from django_tasks import task

# Seconds to wait before the 2nd, 3rd, ... attempt after a temporary refusal.
RETRY_DELAYS = (60, 300, 900, 3600)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1


def temporary(exc: Exception) -> bool:
    """Whether the mail server may take the message later: a 4xx answer, or a
    connection that failed or dropped. A 5xx answer, or anything else, is final."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return bool(codes) and all(400 <= code < 500 for code in codes)
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return True
    if isinstance(exc, smtplib.SMTPException):
        return False
    return isinstance(exc, OSError)  # refused, reset, timed out, name not found


def retry_at(attempt: int) -> datetime.datetime:
    """When the attempt after ``attempt`` (1, 2, ...) is due."""
    return timezone.now() + datetime.timedelta(seconds=RETRY_DELAYS[attempt - 1])


@task()
def send_mail_task(subject: str, body: str, to: list[str], attempt: int = 1) -> str:
    """Send one plain e-mail from ``DEFAULT_FROM_EMAIL``. A temporary refusal queues it
    again later; a permanent one (or the last try) fails the task, whose row in the
    queue keeps the reason (the admin's "Task results")."""
    try:
        send_mail(subject, body, None, to)
    except Exception as exc:
        later = send_mail_task.get_backend().supports_defer
        if temporary(exc) and attempt < MAX_ATTEMPTS and later:
            again = send_mail_task.using(run_after=retry_at(attempt))
            again.enqueue(subject, body, to, attempt + 1)
            return "retry"
        raise
    return "sent"
