"""The club's news: announcements, the substitutes list and its call, and partner
messages. Each write carries the key of the form it came from (or a unique pair), so a
second press of the same form writes nothing and mails nobody twice."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from members.bookings.models import (
    Announcement,
    Booking,
    PartnerMessage,
    Substitute,
    SubstituteCall,
)
from members.bookings.services import notices
from members.bookings.services.errors import NewsRefused
from members.models import ClubDay, Person


def _check_key(key: str) -> str:
    if not key or len(key) > 64:
        raise NewsRefused(_("This page is out of date. Reload it, then press the button again."))
    return key


def announce(*, key: str, by=None, mail: bool = True, root: str = "", **fields):
    """Save an announcement (and e-mail it to the members who asked). Returns it and
    whether this call saved it (False: the same form was sent already)."""
    _check_key(key)
    found = Announcement.objects.filter(key=key).first()
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            item = Announcement.objects.create(key=key, created_by=by, **fields)
            if mail:
                notices.announcement(item, root=root)
    except IntegrityError:
        return Announcement.objects.get(key=key), False
    return item, True


def withdraw(item: Announcement) -> None:
    """Take an announcement off the pages (its history keeps it)."""
    item.delete()


def add_substitute(person: Person, note: str = "") -> tuple[Substitute, bool]:
    if person.is_merged:
        raise NewsRefused(_("That record was merged into another one; choose that one."))
    return Substitute.objects.get_or_create(person=person, defaults={"note": note[:120]})


def call_substitutes(day: ClubDay, *, key: str, message: str = "", by=None, root: str = ""):
    """E-mail every substitute (one message each, once) that tables are short on
    ``day``. Returns the call and how many were queued by this press."""
    _check_key(key)
    if not day.is_open:
        raise NewsRefused(_("%(day)s is closed: there is nothing to call for.") % {"day": day})
    found = SubstituteCall.objects.filter(key=key).first()
    if found is not None:
        return found, 0
    people = [s.person for s in Substitute.objects.select_related("person")]
    if not people:
        raise NewsRefused(_("The substitutes list is empty: add people to it first."))
    try:
        with transaction.atomic():
            call = SubstituteCall.objects.create(day=day, key=key, message=message, created_by=by)
            count = notices.substitute_call(call, people, root=root)
    except IntegrityError:
        return SubstituteCall.objects.get(key=key), 0
    return call, count


def looking(day: ClubDay):
    """The bookings of ``day`` whose member looks for a partner."""
    return (
        Booking.objects.active()
        .filter(day=day, looking_for_partner=True)
        .select_related("person")
        .order_by("queued_at", "pk")
    )


def send_partner_message(
    day: ClubDay, sender: Person, recipient: Person, text: str, *, key: str, root: str = ""
):
    """Relay ``sender``'s message to ``recipient`` by e-mail (no address shown to
    either). The recipient must be looking for a partner on the day or have written to
    the sender about it. Returns the message and whether this call sent it."""
    _check_key(key)
    text = (text or "").strip()
    if not text:
        raise NewsRefused(_("Write a few words to send."))
    if len(text) > 500:
        raise NewsRefused(_("Keep the message under 500 characters."))
    if recipient.pk == sender.pk:
        raise NewsRefused(_("That is you: choose someone else."))
    asked = looking(day).filter(person=recipient).exists()
    answered = PartnerMessage.objects.filter(day=day, sender=recipient, recipient=sender).exists()
    if not (asked or answered):
        raise NewsRefused(
            _("%(name)s is not looking for a partner on %(day)s any more.")
            % {"name": recipient.full_name, "day": day}
        )
    if not recipient.email:
        raise NewsRefused(
            _("%(name)s has no e-mail address on record; look for them at the club.")
            % {"name": recipient.full_name}
        )
    found = PartnerMessage.objects.filter(key=key).first()
    if found is not None:
        return found, False
    try:
        with transaction.atomic():
            message = PartnerMessage.objects.create(
                day=day, sender=sender, recipient=recipient, text=text, key=key
            )
            notices.partner_message(message, root=root)
    except IntegrityError:
        return PartnerMessage.objects.get(key=key), False
    return message, True
