"""Dues: membership types with their rates, renewal periods, and the notices sent."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from members.clubs.models import club_field
from members.clubs.scope import club_manager
from members.money.models.settings import ZERO, money_field


class MembershipType(models.Model):
    """A kind of membership and its yearly dues (an early rate until a date)."""

    club = club_field()
    name = models.CharField(max_length=80)
    rate = money_field(validators=[MinValueValidator(ZERO)])
    early_rate = money_field(null=True, blank=True, validators=[MinValueValidator(ZERO)])
    early_until = models.DateField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="membershiptype_name_once"),
            models.CheckConstraint(
                condition=Q(rate__gte=0) & (Q(early_rate__isnull=True) | Q(early_rate__gte=0)),
                name="membershiptype_rates_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def rate_on(self, date):
        if self.early_rate is not None and self.early_until and date <= self.early_until:
            return self.early_rate
        return self.rate


class RenewalPeriod(models.Model):
    """An officer's renewal: dues paid in it run until ``paid_until``; reminders go to
    those unpaid on ``remind_on``."""

    club = club_field()
    name = models.CharField(max_length=80)
    paid_until = models.DateField(help_text="Dues paid in this renewal run until this date.")
    remind_on = models.DateField(null=True, blank=True)
    key = models.CharField(max_length=64)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-paid_until", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="renewal_key_once"),
        ]

    def __str__(self) -> str:
        return self.name


class DuesNotice(models.Model):
    """A renewal notice or reminder to one member: once per person per kind."""

    class Kind(models.TextChoices):
        NOTICE = "notice", gettext_lazy("Renewal notice")
        REMINDER = "reminder", gettext_lazy("Reminder")

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Waiting for the worker")
        SENT = "sent", gettext_lazy("Sent")
        FAILED = "failed", gettext_lazy("Failed")
        PRINT = "print", gettext_lazy("To print (no e-mail)")

    club = club_field()
    period = models.ForeignKey(RenewalPeriod, on_delete=models.CASCADE, related_name="notices")
    person = models.ForeignKey("members.Person", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["period", "kind", "person"]
        constraints = [
            models.UniqueConstraint(fields=["period", "person", "kind"], name="duesnotice_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.person_id}"
