"""The money e-mails on the worker (Django's Tasks framework): one task per statement
and per dues notice. Each task takes its row with one conditional UPDATE (pending →
sending) before it sends, so a task queued twice, or two workers, never send one person
the same statement twice. Statements of account carry no unsubscribe."""

from __future__ import annotations

import logging

from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_scopes import scopes_disabled
from django_tasks import task

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
            status=Status.SENDING
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
            logger.warning("Statement to %s not sent: %s", message.email, exc)
            StatementMessage.objects.filter(pk=message_id).update(
                status=Status.FAILED, error=(str(exc) or type(exc).__name__)[:300]
            )
            return "failed"
        StatementMessage.objects.filter(pk=message_id).update(
            status=Status.SENT, sent_at=timezone.now(), error=""
        )
        return "sent"


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
