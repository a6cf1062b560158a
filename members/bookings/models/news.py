"""The club's news: announcements, the substitutes list and its calls, and the
messages members send each other about a partner (relayed, never showing addresses)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from members.clubs.history import club_history
from members.clubs.models import club_field
from members.clubs.scope import club_manager
from members.models import ClubDay, Person


class AnnouncementQuerySet(models.QuerySet):
    def current(self, today: datetime.date):
        """Shown on the front page and the board: not yet over."""
        return self.filter(Q(last_day__gte=today) | Q(last_day__isnull=True, first_day__gte=today))


class Announcement(models.Model):
    """A closure, a rule change or an event, with the dates it is about. Shown on the
    front page and the room board until its last day; e-mailed once to the members who
    asked for announcements."""

    class Kind(models.TextChoices):
        CLOSURE = "closure", _("Closure")
        RULES = "rules", _("Rule change")
        EVENT = "event", _("Event")
        NEWS = "news", _("News")

    club = club_field()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.NEWS)
    title = models.CharField(max_length=120)
    body = models.TextField(max_length=2000, blank=True)
    first_day = models.DateField(help_text="The (first) date it is about.")
    last_day = models.DateField(null=True, blank=True, help_text="The last date, if several.")
    key = models.CharField(max_length=64, help_text="The form's key: a second press saves once.")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    history = club_history()
    objects = club_manager(AnnouncementQuerySet)

    class Meta:
        ordering = ["first_day", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="announcement_key_once"),
            models.CheckConstraint(
                condition=Q(last_day__isnull=True) | Q(last_day__gte=F("first_day")),
                name="announcement_days_in_order",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["closure", "rules", "event", "news"]),
                name="announcement_kind_valid",
            ),
        ]
        indexes = [
            # The current announcements (front page, board): by their last day.
            models.Index(fields=["club", "last_day", "first_day"], name="announcement_current_idx"),
        ]

    def __str__(self) -> str:
        return self.title


class Substitute(models.Model):
    """A person the officers may call when tables are short."""

    club = club_field()
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="substitute_entries")
    note = models.CharField(max_length=120, blank=True)
    added_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["person__last_name", "person__first_name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "person"], name="substitute_once"),
        ]

    def __str__(self) -> str:
        return str(self.person)


class SubstituteCall(models.Model):
    """One "tables are short" e-mail to every substitute, for a day."""

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="substitute_calls")
    message = models.TextField(max_length=1000, blank=True)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="substitutecall_key_once"),
        ]

    def __str__(self) -> str:
        return f"Call for {self.day}"


class PartnerMessage(models.Model):
    """A member's answer to another looking for a partner on a day, relayed by e-mail
    (neither sees the other's address)."""

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="partner_messages")
    sender = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="partner_sent")
    recipient = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="partner_received")
    text = models.TextField(max_length=500)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="partnermessage_key_once"),
            models.CheckConstraint(
                condition=~Q(sender=F("recipient")), name="partnermessage_not_to_self"
            ),
        ]
        indexes = [
            # A member's messages about a day (the partner page).
            models.Index(fields=["day", "recipient"], name="partnermessage_inbox_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} → {self.recipient_id} on {self.day_id}"
