"""Statements of account: one run per officer's press, one message per person."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from members.clubs.models import club_field
from members.clubs.scope import club_manager


class StatementRun(models.Model):
    """The statements of one period sent once: the press's key is unique per club."""

    club = club_field()
    start = models.DateField()
    end = models.DateField()
    key = models.CharField(max_length=64)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="statementrun_key_once"),
            models.CheckConstraint(
                condition=Q(start__lte=models.F("end")), name="statementrun_dates"
            ),
        ]

    def __str__(self) -> str:
        return f"Statements {self.start} – {self.end}"


class StatementMessage(models.Model):
    """One person's statement of a run: e-mailed by the worker, or printed."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Waiting for the worker")
        SENDING = "sending", gettext_lazy("Being sent")
        SENT = "sent", gettext_lazy("Sent")
        FAILED = "failed", gettext_lazy("Failed")
        PRINT = "print", gettext_lazy("To print (no e-mail)")

    club = club_field()
    run = models.ForeignKey(StatementRun, on_delete=models.CASCADE, related_name="messages")
    person = models.ForeignKey("members.Person", on_delete=models.PROTECT, related_name="+")
    email = models.EmailField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=300, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["run", "person"]
        constraints = [
            models.UniqueConstraint(fields=["run", "person"], name="statementmessage_once"),
        ]
        indexes = [
            # The run's page: how many are waiting, sent, to print.
            models.Index(fields=["run", "status"], name="statementmsg_status_idx"),
        ]

    def __str__(self) -> str:
        return f"Statement of {self.person_id} ({self.status})"
