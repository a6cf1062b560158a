"""A person's choices about this app's e-mails (their page, or the unsubscribe link in
a message, which works without logging in: signed with ``django.core.signing``)."""

from __future__ import annotations

from django.core import signing
from django.db.models import Q

from members.bookings.models import MailChoice
from members.models import Person

SALT = "members.bookings.unsubscribe"
#: The choices a link or the page may switch, by name.
KINDS = ("announcements", "booking_news", "substitute_calls")


def choices_of(person: Person) -> MailChoice:
    """The person's choices (the defaults when never changed; not saved)."""
    found = MailChoice.objects.filter(person=person).first()
    return found or MailChoice(person=person)


def set_choice(person: Person, kind: str, wanted: bool) -> MailChoice:
    if kind not in KINDS:
        raise ValueError(kind)
    choice, _ = MailChoice.objects.get_or_create(person=person)
    if getattr(choice, kind) != wanted:
        setattr(choice, kind, wanted)
        choice.save(update_fields=[kind, "updated_at"])
    return choice


def wants(kind: str):
    """A filter of people for ``kind``: announcements are asked for; the others are
    sent unless stopped."""
    if kind == "announcements":
        return Q(mail_choice__announcements=True)
    return Q(mail_choice__isnull=True) | Q(**{f"mail_choice__{kind}": True})


def reachable(kind: str):
    """People who can be e-mailed about ``kind``: an address, not merged away, wanting it."""
    return Person.objects.current().exclude(email="").filter(wants(kind))


def token(person: Person, kind: str) -> str:
    return signing.dumps({"p": person.pk, "k": kind}, salt=SALT)


def from_token(value: str) -> tuple[Person, str] | None:
    """(person, kind) of an unsubscribe link of the active club, or None if forged."""
    try:
        data = signing.loads(value, salt=SALT)
    except signing.BadSignature:
        return None
    if (
        not isinstance(data, dict)
        or data.get("k") not in KINDS
        or not isinstance(data.get("p"), int)
    ):
        return None
    person = Person.objects.filter(pk=data["p"]).first()
    if person is not None and person.merged_into_id:
        person = person.merged_into
    return (person, data["k"]) if person is not None else None
