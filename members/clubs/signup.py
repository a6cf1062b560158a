"""Self-service "Start a club" (only when ``CLUB_SIGNUP`` is on): a form, an e-mail
with a signed, time-limited confirmation link (``django.core.signing``), and on
confirming, the club with its settings and the person as its first officer, who then
sets a password on the one-time link of :mod:`members.clubs.officers`.

Nothing is stored until the link is confirmed: the link carries what the form said,
signed with the site's secret key, so it cannot be changed, and it ends after
``CLUB_SIGNUP_HOURS``. A repeated confirmation (a double tap, a reload) finds the
club made by the first and leads to the same next step; two at the same moment make
one club (the slug is unique). The confirmation mail is sent by the worker
(:func:`clubsite.tasks.send_mail_task`), so a slow mail server never holds the page."""

from __future__ import annotations

import json
import time

from django import forms
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubsite.tasks import send_mail_task
from members.clubs.officers import officer_login
from members.clubs.services import create_club
from members.models import Club, ClubRole

SALT = "members.clubs.signup"
#: Sign-ups sent from one address in one hour; more are refused until the next hour.
PER_ADDRESS_PER_HOUR = 5
#: One confirmation mail to an e-mail address in this many minutes (whoever asks)...
RECIPIENT_MINUTES = 10
#: ... and no more than this many to it in a day.
PER_RECIPIENT_PER_DAY = 3


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

    language_code = forms.ChoiceField(
        label=_("The club's language"),
        choices=(),
        help_text=_("Its pages, table phones and e-mails are in it; you can change it later."),
    )
    time_zone = forms.ChoiceField(
        label=_("Where the club plays (time zone)"),
        choices=(),
        help_text=_("Dates and times are shown in it; a day's table links end at its midnight."),
        widget=forms.Select(attrs={"data-browser-time-zone": ""}),
    )

    def __init__(self, *args, language: str = "en", **kwargs):
        """``language``: the one the browser asks for (Accept-Language), chosen at first,
        with its usual time zone (the page's script puts the browser's own in its place
        when the list has it)."""
        from members.clubs import zones
        from members.clubs.forms import language_choices

        super().__init__(*args, **kwargs)
        self.fields["language_code"].choices = language_choices()
        self.fields["language_code"].initial = language
        self.fields["time_zone"].choices = zones.zone_choices(language)
        self.fields["time_zone"].initial = zones.default_zone(language)
        self.fields["time_zone"].widget.attrs["data-aliases"] = json.dumps(
            zones.aliases(), separators=(",", ":"), sort_keys=True
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
    return signing.dumps({k: data[k] for k in FIELDS if k in data}, salt=SALT)


#: What the confirmation link carries (a link made before the club's language and time
#: zone were asked carries the first four: the club gets the site's defaults).
FIELDS = ("club_name", "slug", "your_name", "email", "language_code", "time_zone")


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


def _hashed(text: str) -> str:
    """What a cache key keeps of an address: a keyed hash, never the address."""
    return salted_hmac(SALT, text.strip().lower()).hexdigest()[:32]


def _count(key: str, timeout: int) -> int:
    """Add one to the shared counter ``key`` and return it."""
    cache.add(key, 0, timeout)
    try:
        return cache.incr(key)
    except ValueError:  # the key went between the two calls
        return 1


def too_many(address: str) -> bool:
    """Whether the client ``address`` has sent its sign-ups for this hour (and counts
    this one)."""
    key = f"clubsite:signup:{_hashed(address)}:{int(time.time() // 3600)}"
    return _count(key, 3600) > PER_ADDRESS_PER_HOUR


class Refused(Exception):
    """No confirmation mail may go to this address now, and why, in plain words."""


def _recipient_may_be_mailed(address: str) -> str:
    """Count a mail to the e-mail address ``address`` (hashed) against its limits, or
    raise :class:`Refused`: one per ``RECIPIENT_MINUTES``, ``PER_RECIPIENT_PER_DAY`` a
    day, whoever asks from wherever. Returns the key of the minutes' limit."""
    soon = f"clubsite:signup-to:{address}"
    if not cache.add(soon, 1, RECIPIENT_MINUTES * 60):
        raise Refused(
            ngettext(
                "A link was sent to this e-mail address less than %(minutes)s minute ago: "
                "open it, or try again later.",
                "A link was sent to this e-mail address less than %(minutes)s minutes ago: "
                "open it, or try again later.",
                RECIPIENT_MINUTES,
            )
            % {"minutes": RECIPIENT_MINUTES}
        )
    day = f"clubsite:signup-to:{address}:{int(time.time() // 86400)}"
    if _count(day, 86400) > PER_RECIPIENT_PER_DAY:
        raise Refused(
            _(
                "This e-mail address has been sent several links today: open one of them, "
                "or try again tomorrow."
            )
        )
    return soon


def send_confirmation(data: dict, link: str) -> bool:
    """E-mail the confirmation link, once for the same club and address in
    ``RECIPIENT_MINUTES`` (a double tap sends one mail), and within the address's own
    limits (:class:`Refused` otherwise). The subject carries no word the form's sender
    typed. Returns whether a mail went."""
    address = _hashed(data["email"])
    key = f"clubsite:signup-sent:{data['slug']}:{address}"
    if not cache.add(key, 1, RECIPIENT_MINUTES * 60):
        if cache.get(key) is None:  # the shared cache is away: no limit, so no mail
            raise Refused(_("The e-mail could not be sent just now: try again in a few minutes."))
        return False
    try:
        soon = _recipient_may_be_mailed(address)
    except Refused:
        cache.delete(key)
        raise
    context = {"data": data, "link": link, "hours": settings.CLUB_SIGNUP_HOURS}
    context["site_name"] = settings.SITE_NAME
    subject = render_to_string("clubs/email/signup_subject.txt", context)
    body = render_to_string("clubs/email/signup.txt", context)
    try:
        send_mail_task.enqueue(" ".join(subject.split()), body, [data["email"]])
    except Exception:
        cache.delete_many([key, soon])
        raise
    return True


def _club_fields(data: dict) -> dict:
    """The new club's language and time zone from a confirmed sign-up."""
    return {k: data[k] for k in ("language_code", "time_zone") if data.get(k)}


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
            club = create_club(data["slug"], data["club_name"], officer=user, **_club_fields(data))
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
