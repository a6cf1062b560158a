"""The club and who runs it: ``Club`` (the root of every club-owned row), its old slugs
(``ClubSlugRedirect``), its officers (``ClubRole``) and ``club_field`` (every club-owned
row's pointer at its club). App label ``members`` (``members.models`` imports them, and
the migrations name the validators and defaults there)."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from members.clubs.scope import club_manager, current_club_id

#: The Django group that made officers before clubs had their own roles; the upgrade
#: (members 0009) turned its users into the club's officers. It grants nothing now.
OFFICERS_GROUP = "Officers"

#: First path segments a club's slug may not take: the site's own addresses.
RESERVED_SLUGS = frozenset(
    {"admin", "accounts", "static", "media", "healthz", "clubs", "sw.js", "app", "api", "www"}
)


def default_club_name() -> str:
    return settings.CLUB_NAME


def default_time_zone() -> str:
    return settings.TIME_ZONE


def default_language() -> str:
    return getattr(settings, "CLUB_LANGUAGE", None) or settings.LANGUAGE_CODE


class Paper(models.TextChoices):
    """The paper a club prints on: what CSS's ``@page { size }`` and the workbook's
    print setup call it."""

    A4 = "A4", "A4"
    LETTER = "Letter", gettext_lazy("Letter")


def paper_for_language(code: str | None) -> str:
    """The usual paper of a club speaking ``code``: Letter in English (a club in the
    United States), A4 elsewhere."""
    return Paper.LETTER if (code or "").lower() == "en" else Paper.A4


def default_paper(language: str | None = None) -> str:
    """A new club's paper: the ``CLUB_PAPER`` setting, else the usual one of its
    ``language`` (a new club's by default)."""
    chosen = (getattr(settings, "CLUB_PAPER", "") or "").strip().lower()
    for paper in Paper:
        if chosen == paper.value.lower():
            return paper.value
    return paper_for_language(language or default_language())


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _(
                "“%(value)s” is not a time zone name. Use one like Europe/London or "
                "America/New_York."
            )
            % {"value": value}
        )


def validate_club_slug(value: str) -> None:
    """A slug is the first part of the club's addresses: never one of the site's own
    (the admin, the login) nor the first part of a club page's address (``days``,
    ``t``, ...), which would hide that page of every club served at ``/``."""
    from django.urls import get_resolver

    taken = set(RESERVED_SLUGS)
    for pattern in get_resolver().url_patterns:
        first = str(pattern.pattern).lstrip("^").split("/")[0]
        if first:
            taken.add(first)
        for inner in getattr(pattern, "url_patterns", ()):
            taken.add(str(inner.pattern).lstrip("^").split("/")[0])
            for deeper in getattr(inner, "url_patterns", ()):
                taken.add(str(deeper.pattern).lstrip("^").split("/")[0])
    if value.lower() in taken:
        raise ValidationError(
            _("“%(value)s” is an address the site uses itself; choose another short name.")
            % {"value": value}
        )


class ClubQuerySet(models.QuerySet):
    def active(self):
        return self.filter(is_active=True)


class Club(models.Model):
    """A club: the root of its data. Every club-owned row points here (``club``), and
    every query of club data runs inside one club's scope (:mod:`members.clubs`).

    A club is served at ``/<slug>/…`` on a shared site, at ``/`` on its own host name
    (``host``), and at ``/`` when it is the site's only club (see
    ``members.clubs.middleware``). Its game settings (the default rule set, the
    ranking, the other team's OK) are ``scoring.ClubSettings``, one row per club."""

    slug = models.SlugField(
        max_length=40,
        unique=True,
        validators=[
            RegexValidator(r"^[a-z0-9][a-z0-9-]*$", "Use small letters, digits and dashes."),
            validate_club_slug,
        ],
        help_text="The club's part of the site's addresses: /<slug>/ on a shared site.",
    )
    name = models.CharField(max_length=120, default=default_club_name)
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text="Where the club plays, e.g. America/New_York: dates and times are shown "
        "in it and a day's table links end at its midnight.",
    )
    language_code = models.CharField(
        max_length=10,
        default=default_language,
        help_text="The language of the club's pages.",
    )
    paper = models.CharField(
        max_length=6,
        choices=Paper.choices,
        default=default_paper,
        help_text="The paper the club prints on: the workbook, the day sheet, the table cards.",
    )
    results_sender_name = models.CharField(
        max_length=120,
        blank=True,
        help_text="The name the results e-mail comes from (the club's name when empty).",
    )
    results_reply_to = models.EmailField(
        blank=True, help_text="Where replies to the results e-mail go (none when empty)."
    )
    host = models.CharField(
        max_length=253,
        null=True,
        blank=True,
        unique=True,
        help_text="A host name of the club's own (scores.example.org), served at its root. "
        "It must also be in the site's ALLOWED_HOSTS.",
    )
    is_active = models.BooleanField(
        default=True, help_text="A suspended club's pages say so and show nothing else."
    )
    root_links = models.BooleanField(
        default=False,
        help_text="The club whose addresses were at the site's root before the site had "
        "more than one club: old links, QR codes and bookmarks (/days/, /t/…) lead to its "
        "/<slug>/ addresses. At most one club.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["root_links"], condition=Q(root_links=True), name="club_one_root_links"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.host = (self.host or "").strip().lower() or None
        super().save(*args, **kwargs)

    def unique_error_message(self, model_class, unique_check):
        if tuple(unique_check) == ("slug",):
            return ValidationError(
                _("Another club has the address /%(slug)s/ already; choose another short name.")
                % {"slug": self.slug},
                code="unique",
            )
        if tuple(unique_check) == ("host",):
            return ValidationError(
                _("Another club has the host name %(host)s already.") % {"host": self.host},
                code="unique",
            )
        return super().unique_error_message(model_class, unique_check)

    def clean(self):
        super().clean()
        held = ClubSlugRedirect.objects.filter(old_slug=self.slug)
        if self.pk is not None:
            held = held.exclude(club_id=self.pk)  # a club may move back to an old slug
        if self.slug and held.exists():
            raise ValidationError(
                {
                    "slug": _(
                        "“%(slug)s” was another club's address and still leads there; "
                        "choose another short name."
                    )
                    % {"slug": self.slug}
                }
            )

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The club's time zone, for dates and times computed outside a request (a
        request's own is activated by the club middleware)."""
        return zoneinfo.ZoneInfo(self.time_zone)


class ClubSlugRedirect(models.Model):
    """A slug a club had before it moved (the admin): ``/<old_slug>/…`` redirects
    permanently to the same page at the club's slug now, so old links, bookmarks and QR
    codes keep working. While it is here no club may take the old slug (except the
    club itself, moving back). Deleting it frees the slug and ends the redirect."""

    old_slug = models.SlugField(
        max_length=40, unique=True, help_text="The club's former part of the addresses."
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="slug_redirects")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["old_slug"]
        verbose_name = "old club address"

    def __str__(self) -> str:
        return f"/{self.old_slug}/ → {self.club_id}"


def club_field(one: bool = False, **kwargs) -> models.ForeignKey:
    """The ``club`` of a club-owned row: the active club unless given (see
    :mod:`members.clubs`). PROTECT: a club's rows go before the club does. ``one``: the
    club has one such row (a OneToOneField)."""
    options = {
        "on_delete": models.PROTECT,
        "related_name": "+",
        "default": current_club_id,
        "editable": False,
    }
    options.update(kwargs)
    return (models.OneToOneField if one else models.ForeignKey)(Club, **options)


class ClubRole(models.Model):
    """A login's role at one club. An officer of one club is nobody at another; a
    superuser (the platform operator) is an officer everywhere. Being a member is having
    a ``Person`` record with the login in that club."""

    class Role(models.TextChoices):
        OFFICER = "officer", "Officer"
        TREASURER = "treasurer", "Treasurer"

    club = club_field(editable=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.OFFICER)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["club", "user", "role"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="clubrole_once"),
            models.CheckConstraint(
                condition=Q(role__in=["officer", "treasurer"]), name="clubrole_role_valid"
            ),
        ]
        indexes = [
            # A login's clubs (the page that lets them choose one).
            models.Index(fields=["user"], name="clubrole_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} is {self.get_role_display().lower()} of {self.club_id}"
