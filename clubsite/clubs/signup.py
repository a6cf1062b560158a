"""Self-service "Start a club" (only when ``CLUB_SIGNUP`` is on): a form, an e-mail
with a signed, time-limited confirmation link (``django.core.signing``), and on
confirming, the club with its settings and the person as its first officer, who then
sets a password on the one-time link of :mod:`clubsite.clubs.officers`.

Nothing is stored until the link is confirmed: the link carries what the form said,
signed with the site's secret key, so it cannot be changed, and it ends after
``CLUB_SIGNUP_HOURS``. A repeated confirmation (a double tap, a reload) finds the
club made by the first and leads to the same next step; two at the same moment make
one club (the slug is unique). The confirmation mail is sent by the worker
(:func:`clubsite.tasks.send_mail_task`), so a slow mail server never holds the page."""

from __future__ import annotations

import hashlib
import time

from django import forms
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from clubsite.clubs.officers import officer_login
from clubsite.clubs.services import create_club
from clubsite.tasks import send_mail_task
from members.models import Club, ClubRole

SALT = "clubsite.clubs.signup"
#: Sign-ups sent from one address in one hour; more are refused until the next hour.
PER_ADDRESS_PER_HOUR = 5


class SignupForm(forms.Form):
    club_name = forms.CharField(label=_("Your club's name"), max_length=120)
    slug = forms.CharField(
        label=_("A short name for its address"),
        max_length=40,
        help_text=_(
            "Small letters, digits and dashes, e.g. north-hills: your club's pages "
            "will be at /north-hills/."
        ),
    )
    your_name = forms.CharField(label=_("Your name"), max_length=150)
    email = forms.EmailField(
        label=_("Your e-mail address"),
        max_length=254,  # a login's e-mail holds no more
        help_text=_("We send a link there: open it to make the club."),
    )

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip().lower()
        club = Club(slug=slug, name="—")
        try:
            club.full_clean()
        except ValidationError as problem:
            if "slug" in problem.message_dict:
                raise ValidationError(problem.message_dict["slug"]) from None
        return slug


def make_token(data: dict) -> str:
    """The confirmation link's signed, time-stamped token of the form's ``data``."""
    return signing.dumps(
        {k: data[k] for k in ("club_name", "slug", "your_name", "email")}, salt=SALT
    )


class LinkProblem(Exception):
    """A confirmation link that does not work, and why, in plain words."""


def read_token(token: str) -> dict:
    try:
        return signing.loads(token, salt=SALT, max_age=settings.CLUB_SIGNUP_HOURS * 3600)
    except signing.SignatureExpired:
        raise LinkProblem(
            _("This link has ended (it works for %(hours)s hours). Fill in the form again.")
            % {"hours": settings.CLUB_SIGNUP_HOURS}
        ) from None
    except signing.BadSignature:
        raise LinkProblem(
            _("This link is not whole: open it from the e-mail again, or copy all of it.")
        ) from None


def too_many(address: str) -> bool:
    """Whether ``address`` has sent its sign-ups for this hour (and counts this one)."""
    key = f"clubsite:signup:{address}:{int(time.time() // 3600)}"
    cache.add(key, 0, 3600)
    try:
        count = cache.incr(key)
    except ValueError:  # the key went between the two calls
        count = 1
    return count > PER_ADDRESS_PER_HOUR


def send_confirmation(data: dict, link: str) -> bool:
    """E-mail the confirmation link, once for the same club, address and link's hour
    (a double tap sends one mail). Returns whether a mail went."""
    address = hashlib.sha256(data["email"].lower().encode()).hexdigest()[:32]
    key = f"clubsite:signup-sent:{data['slug']}:{address}"
    if not cache.add(key, 1, 600):
        return False
    context = {"data": data, "link": link, "hours": settings.CLUB_SIGNUP_HOURS}
    subject = render_to_string("clubs/email/signup_subject.txt", context)
    body = render_to_string("clubs/email/signup.txt", context)
    try:
        send_mail_task.enqueue(" ".join(subject.split()), body, [data["email"]])
    except Exception:
        cache.delete(key)
        raise
    return True


class Taken(Exception):
    """The club's address was taken by another sign-up or club meanwhile."""


def start_club(data: dict):
    """Make the club of a confirmed sign-up and its first officer: ``(club, user)``.
    Confirmed again (a double tap), it answers with what the first made; raises
    :class:`Taken` when another club has the slug."""
    first, _space, last = " ".join(data["your_name"].split()).partition(" ")
    try:
        with transaction.atomic():
            user = officer_login(email=data["email"], first_name=first[:150], last_name=last)
            club = create_club(data["slug"], data["club_name"], officer=user)
        return club, user
    except (ValidationError, IntegrityError):
        pass
    club = Club.objects.filter(slug=data["slug"]).first()
    role = None
    if club is not None:
        role = (
            ClubRole.objects.with_scopes_disabled()
            .select_related("user")
            .filter(club=club, user__email__iexact=data["email"])
            .first()
        )
    if role is None:
        raise Taken()
    return club, role.user
