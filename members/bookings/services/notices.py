"""The outbox: one ``Notice`` per person per event, written with what caused it and
sent by the worker (:mod:`members.bookings.tasks`). The unique constraint on (event,
person) makes an event replayed (a double tap, a retried request) write nothing new."""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import translation

from members.bookings.models import Notice
from members.bookings.services import choices
from members.clubs import languages
from members.clubs.officers import club_page_url
from members.clubs.scope import current_club
from members.models import Person

Kind = Notice.Kind
#: The mail choice each kind of notice obeys.
CHOICE = {
    Kind.PROMOTED: "booking_news",
    Kind.PARTNER: "booking_news",
    Kind.PARTNER_LEFT: "booking_news",
    Kind.SUBSTITUTES: "substitute_calls",
    Kind.ANNOUNCEMENT: "announcements",
}


def _link(root: str, name: str, **kwargs) -> str:
    """The full address of the club's page ``name`` for an e-mail: from ``root`` (the
    scheme and host of the request that caused it, whose club prefix ``reverse()``
    gives), else, outside a request (a shell, the worker), the club's own address on
    the site (``SITE_URL/<slug>/…``, :func:`members.clubs.officers.club_page_url`)."""
    if root:
        return root.rstrip("/") + reverse(name, kwargs=kwargs)
    current = get_script_prefix()
    set_script_prefix(settings.FORCE_SCRIPT_NAME or "/")  # never a club's prefix twice
    try:
        return club_page_url(current_club(), name, **kwargs)
    finally:
        set_script_prefix(current)


def queue(kind: str, event: str, person: Person, template: str, context: dict, root: str = ""):
    """Write one person's notice of ``event`` (in their language) and queue its task;
    nothing if they have no address, do not want it, or have it already."""
    if not person.email or not choices.reachable(CHOICE[kind]).filter(pk=person.pk).exists():
        return None
    if Notice.objects.filter(event=event, person=person).exists():
        return None
    club = current_club()
    with translation.override(languages.valid(person.language) or club.language_code):
        unsubscribe = _link(root, "bookings:unsubscribe", token=choices.token(person, CHOICE[kind]))
        text = render_to_string(
            f"bookings/email/{template}.txt",
            {**context, "person": person, "club": club, "unsubscribe": unsubscribe},
        )
        subject, _sep, body = text.strip().partition("\n")
    try:
        with transaction.atomic():
            notice = Notice.objects.create(
                kind=kind,
                event=event,
                person=person,
                email=person.email,
                subject=subject.strip()[:200],
                body=body.strip() + "\n",
                unsubscribe_url=unsubscribe,
            )
    except IntegrityError:
        return None
    from members.bookings.tasks import send_notice

    send_notice.enqueue(notice.pk, club.pk)
    return notice


def promoted(booking, root: str = "") -> None:
    """The booking's people are told they have a place now."""
    link = _link(root, "bookings:days")
    for person in filter(None, (booking.person, booking.partner)):
        queue(
            Kind.PROMOTED,
            f"promoted:{booking.pk}",
            person,
            "promoted",
            {"day": booking.day, "link": link},
            root,
        )


def partner_left(booking, partner, root: str = "") -> None:
    """The member who made ``booking`` is told ``partner`` cancelled her place: they
    stay booked, alone."""
    queue(
        Kind.PARTNER_LEFT,
        f"partner-left:{booking.pk}:{partner.pk}",
        booking.person,
        "partner_left",
        {"day": booking.day, "partner": partner, "link": _link(root, "bookings:days")},
        root,
    )


def partner_message(message, root: str = "") -> None:
    link = _link(root, "bookings:partners", pk=message.day_id)
    queue(
        Kind.PARTNER,
        f"partner:{message.pk}",
        message.recipient,
        "partner",
        {"message": message, "day": message.day, "link": link},
        root,
    )


def substitute_call(call, people, root: str = "") -> int:
    link = _link(root, "bookings:days")
    sent = 0
    for person in people:
        sent += bool(
            queue(
                Kind.SUBSTITUTES,
                f"subs:{call.pk}",
                person,
                "substitutes",
                {"call": call, "day": call.day, "link": link},
                root,
            )
        )
    return sent


def announcement(item, root: str = "") -> int:
    link = _link(root, "home")
    sent = 0
    for person in choices.reachable("announcements").members():
        sent += bool(
            queue(
                Kind.ANNOUNCEMENT,
                f"announcement:{item.pk}",
                person,
                "announcement",
                {"item": item, "link": link},
                root,
            )
        )
    return sent
