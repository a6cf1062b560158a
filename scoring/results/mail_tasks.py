"""The results e-mail on the worker: one task per message (Django's Tasks framework,
run by ``manage.py db_worker``), so the officer's press answers at once however slow
the mail server is.

Each message's log row says where it is: ``pending`` (waiting for the worker),
``sending`` (a worker has it), ``sent`` or ``failed`` (with the reason). A worker
takes a row with one conditional UPDATE (pending → sending) before it sends, so two
workers, or a task queued twice, never send one person the same press twice. A
temporary refusal of the mail server (a 4xx answer, a dropped or refused connection)
puts the row back to waiting and queues it again later (``clubsite.tasks.RETRY_DELAYS``); a
permanent one (a 5xx answer, a message that cannot be written) records it as failed.

A worker stopped mid-way loses nothing: the rows it had not reached still wait, with
their tasks in the queue, for the next worker (stopped with SIGTERM it finishes the
message in hand first). A row whose task was lost is found by :func:`requeue_stuck`
(``manage.py requeue_stuck``, run when the worker starts and every few minutes,
docs/deploy.md): one still waiting ``TASKS_STUCK_MINUTES`` after it was due is queued
again. One still "sending" that long had its worker killed while talking to the mail
server, which may or may not have taken the message: sending it again could write to
that person twice, so it is marked "interrupted, perhaps not sent" instead, and the day
page's plain "Send the results" (which counts it as not sent) reaches it when the
officer says so.
"""

from __future__ import annotations

import datetime
import logging
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.core.mail import get_connection
from django.db.models import F, Q
from django.urls import get_script_prefix, set_script_prefix
from django.utils import timezone
from django.utils.translation import gettext as _
from django_scopes import scopes_disabled
from django_tasks import task

from clubsite.tasks import MAX_ATTEMPTS, retry_at, temporary
from members.clubs.scope import in_club
from members.models import ClubDay
from scoring.models import ResultsMailing, ResultsMessage
from scoring.results.board import day_report
from scoring.results.cache import day_stamp
from scoring.results.mail import MailRefused, _start, build_message, rating_changes

logger = logging.getLogger(__name__)

Status = ResultsMessage.Status


def enqueue_mailing(mailing: ResultsMailing) -> None:
    """Queue one task per waiting message of ``mailing``."""
    for pk in mailing.messages.filter(status=Status.PENDING).values_list("pk", flat=True):
        send_results_message.enqueue(pk)


@task()
def send_results_message(message_id: int) -> str:
    """Send one message of a mailing, if it is still waiting; says what happened."""
    with scopes_disabled():
        message = ResultsMessage.objects.select_related("club").filter(pk=message_id).first()
    if message is None:
        return "gone"
    club = message.club
    with in_club(club), timezone.override(club.time_zone):
        return _send(message_id)


def _send(message_id: int) -> str:
    claimed = ResultsMessage.objects.filter(pk=message_id, status=Status.PENDING).update(
        status=Status.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1
    )
    if not claimed:  # sent, failed, or another worker has it
        return "skipped"
    message = ResultsMessage.objects.select_related("person", "mailing__day").get(pk=message_id)
    try:
        with _links(message.mailing) as link:
            content = _mailing_content(message.mailing)
            email = build_message(message.person, content, link)
        get_connection().send_messages([email])
    except Exception as exc:  # a refusal, a dropped connection, a message that failed
        return _not_sent(message, exc)
    ResultsMessage.objects.filter(pk=message_id, status=Status.SENDING).update(
        status=Status.SENT, error="", sent_at=timezone.now()
    )
    return "sent"


#: The content of the mailing being sent: (mailing id, its moment, the day's
#: fingerprint, content). A worker sends a mailing's messages one after another, so
#: the day's report (its games, the top six, the event's ranking) and the ratings are
#: read once per mailing, not once per recipient; only the last mailing is kept.
_last_content: tuple | None = None


def _mailing_content(mailing: ResultsMailing) -> dict:
    """What every message of ``mailing`` shows of the day (each adds the person's own
    part): read once, and again only if the day's games changed since (a hand
    corrected between two messages: the next one shows it; one query to know)."""
    global _last_content
    day = mailing.day
    key = (mailing.pk, mailing.created_at, day_stamp(day.pk))
    if _last_content is not None and _last_content[:3] == key:
        return _last_content[3]
    content = {**day_report(day), "rating_changes": rating_changes(day)}
    _last_content = (*key, content)
    return content


class _links:
    """Absolute links for the messages, written outside a request: ``reverse()`` gives
    the club's paths (its ``/<slug>/`` prefix) and the officer's host is put in front."""

    def __init__(self, mailing: ResultsMailing):
        root = mailing.site_root or f"{settings.SITE_URL.rstrip('/')}/{mailing.club.slug}/"
        self.parts = urlsplit(root)

    def __enter__(self):
        self.previous = get_script_prefix()
        set_script_prefix(self.parts.path or "/")
        return lambda path: urlunsplit((self.parts.scheme, self.parts.netloc, path, "", ""))

    def __exit__(self, *exc):
        set_script_prefix(self.previous)


def _not_sent(message: ResultsMessage, exc: Exception) -> str:
    error = str(exc)[:300] or type(exc).__name__
    logger.warning(
        "Results e-mail to %s not sent (try %s): %s", message.email, message.attempts, error
    )
    waiting = ResultsMessage.objects.filter(pk=message.pk, status=Status.SENDING)
    if temporary(exc) and message.attempts < MAX_ATTEMPTS:
        due = retry_at(message.attempts)
        waiting.update(status=Status.PENDING, error=error, due_at=due, claimed_at=None)
        retry = send_results_message
        if retry.get_backend().supports_defer:
            retry.using(run_after=due).enqueue(message.pk)
        # else (the immediate backend): requeue_stuck queues it once it is overdue.
        return "retry"
    waiting.update(status=Status.FAILED, error=error)
    return "failed"


def requeue_stuck(now: datetime.datetime | None = None) -> int:
    """Queue again every message whose task was lost, and mark "interrupted" every one
    a killed worker left being sent (see the module's docstring). Returns how many were
    queued. Safe to run at any time, by any number of servers."""
    now = now or timezone.now()
    stale = now - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    with scopes_disabled():
        messages = ResultsMessage.objects
        messages.filter(status=Status.SENDING, claimed_at__lt=stale).update(
            status=Status.INTERRUPTED,
            error="",
        )
        lost = messages.filter(status=Status.PENDING).filter(
            Q(due_at__lt=stale) | Q(due_at__isnull=True)
        )
        waiting = list(lost.values_list("pk", flat=True))
        messages.filter(pk__in=waiting).update(due_at=now)
    for pk in waiting:
        send_results_message.enqueue(pk)
    return len(waiting)


def send_day_results(
    day: ClubDay, *, key: str, site_root: str, again: bool = False, by=None
) -> tuple[ResultsMailing, bool]:
    """Send ``day``'s results to the opted-in members (see the module's docstring): the
    log rows are written here and each message is a task for the worker
    (:mod:`scoring.results.mail_tasks`), so the press answers at once. ``site_root`` is
    the club's address (``https://host/slug/``) for the links in the messages. Returns
    the mailing and whether this call started it (False: the same press was already
    handled)."""
    if day.is_open:
        raise MailRefused(
            _("Close the day first: the results are sent once play is over and scores are final.")
        )
    if not key or len(key) > 64:
        raise MailRefused(_("This page is out of date. Reload it, then press the button again."))
    mailing, new = _start(day, key, again, by, site_root)
    if mailing.day_id != day.pk:
        raise MailRefused(_("This page is out of date. Reload it, then press the button again."))
    if new:
        enqueue_mailing(mailing)
    return mailing, new
