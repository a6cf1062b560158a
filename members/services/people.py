"""People: adding and editing a person, a guest becoming a member, and members' logins
(create one, reset it).

A temporary password is returned once, to be shown once; it is never stored in clear.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from members.models import Person
from members.roster.clean import clean_number
from members.services.errors import ConversionRefused, LoginRefused


def save_person(person: Person, *, by=None) -> Person:
    """Save a person an officer added or edited. ``person`` comes filled in and checked
    by the person form (a new one has no primary key yet); the write happens here, in one
    transaction, and its history row names the officer ``by``."""
    if by is not None:
        person._history_user = by
    with transaction.atomic():
        person.save()
    return person


def convert_guest_to_member(
    person: Person,
    membership_number: str,
    *,
    email: str = "",
    phone: str = "",
    joined=None,
    by=None,
) -> Person:
    """A guest joins: the same row becomes a member, keeping every sign-in and game."""
    number = clean_number(membership_number)
    if person.is_merged:
        raise ConversionRefused(_("This record was merged into another; convert that one."))
    if not person.is_guest:
        raise ConversionRefused(_("%(name)s is already a member.") % {"name": person.full_name})
    if not number:
        raise ConversionRefused(_("Type the new member's membership number."))
    taken = Person.objects.filter(membership_number=number).first()
    if taken is not None:
        raise ConversionRefused(
            _(
                "Membership number %(number)s already belongs to %(name)s. Check "
                "the card, or choose another number."
            )
            % {"number": number, "name": taken.full_name}
        )
    person.kind = Person.Kind.MEMBER
    person.membership_number = number
    person.status = Person.Status.ACTIVE
    person.joined = joined or timezone.localdate()
    if email:
        person.email = email
    if phone:
        person.phone = phone
    try:
        with transaction.atomic():
            if by is not None:
                person._history_user = by
            person.save()
    except IntegrityError:
        raise ConversionRefused(
            _("Membership number %(number)s was just given to someone else; choose another.")
            % {"number": number}
        ) from None
    return person


def _username_base(person: Person) -> str:
    text = unicodedata.normalize("NFKD", f"{person.first_name}.{person.last_name}")
    text = text.encode("ascii", "ignore").decode().lower()
    text = re.sub(r"[^a-z0-9.]+", "", text).strip(".")
    return text[:30] or f"member{person.membership_number or person.pk}"


def create_login(person: Person, *, by=None) -> tuple[Any, str]:
    """Give a member a login: a username from their name, a random temporary password.

    Returns (user, password); the password is shown once and never stored in clear."""
    if person.is_merged:
        raise LoginRefused(_("This record was merged into another; give that one a login."))
    if person.is_guest:
        raise LoginRefused(_("Guests don't get logins. Make them a member first."))
    if person.user_id is not None:
        raise LoginRefused(
            _(
                "%(name)s already has a login (%(user)s). Use “New temporary "
                "password” if they forgot it."
            )
            % {"name": person.full_name, "user": person.user.get_username()}
        )
    User = get_user_model()
    base = _username_base(person)
    username = base
    suffix = 1
    while User.objects.filter(username__iexact=username).exists():
        suffix += 1
        username = f"{base}{suffix}"
    password = _temporary_password()
    with transaction.atomic():
        user = User.objects.create_user(
            username=username,
            password=password,
            first_name=person.first_name[:150],
            last_name=person.last_name[:150],
            email=person.email,
        )
        person.user = user
        if by is not None:
            person._history_user = by
        person.save(update_fields=["user", "updated_at"])
    return user, password


def reset_password(person: Person, *, by=None) -> tuple[Any, str]:
    """A new temporary password for a member who forgot theirs."""
    if person.user_id is None:
        raise LoginRefused(
            _("%(name)s has no login yet; create one first.") % {"name": person.full_name}
        )
    password = _temporary_password()
    user = person.user
    user.set_password(password)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    return user, password


def _temporary_password() -> str:
    # Easy to read aloud and type on a phone: groups of lowercase letters and digits.
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    groups = ["".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(3)]
    return "-".join(groups)


def set_language(person: Person, code: str) -> Person:
    """A member's own language ("" for the club's), chosen on their page (recorded in
    the person's history)."""
    if person.language != code:
        person.language = code
        person._change_reason = f"Language: {code or 'the club language'}"
        person.save(update_fields=["language"])
    return person
