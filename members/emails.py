"""A member's e-mail address: Django's check (``validate_email``), with a plain word for
the one refusal a club meets most, an accented letter before the @ ("inés.8@…").

Django accepts an internationalised domain (``@correo.españa.es``) but not an
internationalised local part (RFC 6531): few mail servers deliver to one, and Django's
mail sends none, so the site keeps Django's rule everywhere (the person form, "Make a
member", the roster import) and says what to check instead of "not a valid address".
"""

from __future__ import annotations

import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _


def _plain(text: str) -> str:
    """``text`` without its accents: "inés" → "ines"."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def accent_problem(value: str) -> str | None:
    """The plain refusal of an accented letter before the @, or None."""
    local, at, domain = value.rpartition("@")
    if not (at and local and not local.isascii()):
        return None
    letters = "".join(sorted({c for c in local if not c.isascii()}))
    words = _(
        "“%(email)s” has a letter with an accent before the @ (%(letters)s), which mail "
        "cannot be sent to."
    ) % {"email": value, "letters": letters}
    plain = _plain(local)
    if plain.isascii():
        words += " " + _("Check it with the member: it is usually written %(plain)s.") % {
            "plain": f"{plain}@{domain}"
        }
    return words


def email_problem(value: str) -> str | None:
    """Why ``value`` is not an address the site can write to, in plain words (a roster's
    line); None when it is one."""
    problem = accent_problem(value)
    if problem:
        return problem
    try:
        validate_email(value)
    except ValidationError:
        return _("email “%(email)s” is not a valid address") % {"email": value}
    return None


def validate_member_email(value: str) -> None:
    """Django's check, with the plain word for an accented letter before the @."""
    problem = accent_problem(value)
    if problem:
        raise ValidationError(problem, code="invalid")
    validate_email(value)


class MemberEmailField(forms.EmailField):
    """A form's e-mail box with :func:`validate_member_email`'s plain refusals."""

    default_validators = [validate_member_email]
