"""A closed club day's results by e-mail: what each message says, who gets one, the
unsubscribe link, and the send itself with its log (:class:`ResultsMailing`).

Sending is idempotent: a press of the officer's button carries a key made when the
button was drawn, so a double tap or a reload is the same mailing; and a plain send
skips everyone who already has (or is waiting for, or is being sent) the day's
results. Only "send again" writes to them a second time. Each message is one row of
the log, which the worker moves from waiting to being sent to sent, or failed with the
reason (:mod:`scoring.results.mail_tasks`, whose ``send_day_results`` starts a
mailing), so the day's page says what went to whom.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from members.clubs import languages
from members.clubs.scope import current_club
from members.models import ClubDay, Person
from scoring.models import RatingPoint, ResultsMailing, ResultsMessage
from scoring.results.ratings import NEW_PLAYER_RATING, display_rating
from scoring.results.standings.individual import latest_ratings

UNSUBSCRIBE_SALT = "scoring.results.mail.unsubscribe"
DONE = (ResultsMessage.Status.SENT, ResultsMessage.Status.PENDING, ResultsMessage.Status.SENDING)


class MailRefused(Exception):
    """The results cannot be sent now; the message says why and what to do."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def unsubscribe_token(person: Person) -> str:
    return signing.dumps(person.pk, salt=UNSUBSCRIBE_SALT)


def person_from_token(token: str) -> Person | None:
    """The person an unsubscribe link was made for, or None for a forged or odd link."""
    try:
        pk = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    person = Person.objects.filter(pk=pk).first()
    if person is not None and person.merged_into_id:
        person = person.merged_into
    return person


def opted_in() -> QuerySet[Person]:
    """Members who asked for the results and have an address."""
    return Person.objects.filter(
        results_by_email=True, kind=Person.Kind.MEMBER, merged_into__isnull=True
    ).exclude(email="")


def recipients(day: ClubDay, again: bool = False):
    """Who a send reaches: the opted-in members, less (unless ``again``) those who
    already have the day's results or are being sent them."""
    people = opted_in()
    if not again:
        done = ResultsMessage.objects.filter(day=day, status__in=DONE).values("person")
        people = people.exclude(pk__in=done)
    return people


def rating_changes(day: ClubDay) -> dict[int, dict]:
    """{person id: their rating before and after the day's games} for everyone with a
    finished game that day, in three queries whatever the number of recipients. Points
    are written in the order games are rated, so "before" is the last point ahead of the
    person's first of the day (another club day of the same date included)."""
    first: dict[int, int] = {}
    last: dict[int, float] = {}
    points = RatingPoint.objects.filter(game__day=day).order_by("pk")
    for person_id, pk, value in points.values_list("person_id", "pk", "ordinal"):
        first.setdefault(person_id, pk)
        last[person_id] = value
    before = latest_ratings(first, day.date - datetime.timedelta(days=1))
    same_date = (
        RatingPoint.objects.filter(person__in=list(first), played_on=day.date)
        .exclude(game__day=day)
        .order_by("pk")
        .values_list("person_id", "pk", "ordinal")
    )
    for person_id, pk, value in same_date:
        if pk < first[person_id]:
            before[person_id] = value
    changes = {}
    for person_id, value in last.items():
        start = display_rating(before[person_id]) if person_id in before else NEW_PLAYER_RATING
        end = display_rating(value)
        changes[person_id] = {
            "before": start,
            "after": end,
            "change": end - start,
            # A first rated day: the message says why it can rise after a loss.
            "first": person_id not in before,
        }
    return changes


def own_games(person: Person, rows: list[dict]) -> list[dict]:
    """The person's finished games of the day, from the board's finished rows: their
    side, the others, and how it ended."""
    mine = []
    for row in rows:
        teams = sorted(row["game"].teams.all(), key=lambda t: t.index)
        own = next(
            (t for t in teams if any(m.person_id == person.pk for m in t.memberships.all())), None
        )
        if own is None:
            continue
        sides = row["sides"]
        mine.append(
            {
                "row": row,
                "own": sides[teams.index(own)],
                "others": [s for t, s in zip(teams, sides, strict=True) if t is not own],
                "won": own.pk == row["game"].winner_id,
            }
        )
    return mine


def _sender(club) -> str | None:
    """The club's sender name on the site's address (``DEFAULT_FROM_EMAIL``), or that
    address as it is when the club has set no name."""
    if not club.results_sender_name:
        return None
    return formataddr((club.results_sender_name, parseaddr(settings.DEFAULT_FROM_EMAIL)[1]))


def build_message(person, content, link: Callable[[str], str]) -> EmailMultiAlternatives:
    """One member's message, in their own language (their choice, else the club's)."""
    with translation.override(languages.valid(person.language) or languages.club_language()):
        return _message_in_language(person, content, link)


def _message_in_language(person, content, link) -> EmailMultiAlternatives:
    club = current_club()
    unsubscribe = link(reverse("scoring:results_unsubscribe", args=[unsubscribe_token(person)]))
    context = {
        **content,
        "person": person,
        "games": own_games(person, content["finished"]),
        "rating": content["rating_changes"].get(person.pk),
        "unsubscribe_url": unsubscribe,
        "day_url": link(reverse("scoring:day_result", args=[content["day"].pk])),
        "club_name": club.name,
    }
    subject = _("Results of %(day)s — %(club)s") % {
        "day": content["day"],
        "club": club.name,
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("results/email/results.txt", context),
        from_email=_sender(club),
        to=[person.email],
        reply_to=[club.results_reply_to] if club.results_reply_to else None,
        headers={"List-Unsubscribe": f"<{unsubscribe}>"},
    )
    message.attach_alternative(render_to_string("results/email/results.html", context), "text/html")
    return message


def _start(day: ClubDay, key: str, again: bool, by, site_root: str):
    """The mailing of this press and whether it is new. The new one claims its
    recipients (their log rows, "waiting to be sent") in one transaction, so a second
    officer sending at the same moment skips them."""
    existing = ResultsMailing.objects.filter(key=key).first()
    if existing is not None:
        return existing, False
    now = timezone.now()
    try:
        with transaction.atomic():
            ClubDay.objects.select_for_update().filter(pk=day.pk).first()
            mailing = ResultsMailing.objects.create(
                day=day, key=key, again=again, sent_by=by, created_at=now, site_root=site_root
            )
            ResultsMessage.objects.bulk_create(
                ResultsMessage(mailing=mailing, day=day, person=p, email=p.email, due_at=now)
                for p in recipients(day, again)
            )
    except IntegrityError:  # the same press, a moment earlier
        return ResultsMailing.objects.get(key=key), False
    return mailing, True


def progress(mailing: ResultsMailing, stale: datetime.datetime) -> dict[str, int]:
    """How far a mailing has got: {status: messages, "total", "done"}, from its
    prefetched messages; "stuck" counts those waiting or being sent since before
    ``stale``."""
    counts = dict.fromkeys(ResultsMessage.Status.values, 0)
    counts["stuck"] = 0
    for message in mailing.messages.all():
        counts[message.status] += 1
        since = message.claimed_at if message.status == "sending" else message.due_at
        if message.status in ("pending", "sending") and (since is None or since < stale):
            counts["stuck"] += 1
    counts["total"] = len(mailing.messages.all())
    counts["done"] = counts["sent"] + counts["failed"] + counts["interrupted"]
    return counts


def mail_card(day: ClubDay) -> dict:
    """What the day page's e-mail part shows: who asked, who is waiting, and each recent
    mailing with how far it has got (``sending``: one is still going)."""
    stale = timezone.now() - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    log = log_for(day)
    for mailing in log:
        mailing.progress = progress(mailing, stale)
        mailing.stuck = mailing.progress["stuck"] > 0
    return {
        "day": day,
        "opted_in": opted_in().count(),
        "waiting": recipients(day).count() if not day.is_open else 0,
        "log": log,
        "sending": any(m.progress["pending"] or m.progress["sending"] for m in log),
    }


def log_for(day: ClubDay, limit: int = 10) -> list[ResultsMailing]:
    """The day's latest mailings with their messages and people (three queries)."""
    return list(
        ResultsMailing.objects.filter(day=day)
        .select_related("sent_by")
        .prefetch_related("messages__person")[:limit]
    )
