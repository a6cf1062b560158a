"""A person's choices about this app's e-mails, and the outbox: one row per person per
event (``Notice``), so a message is sent once however often the event is replayed."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from members.clubs.models import club_field
from members.clubs.scope import club_manager
from members.models import Person


class MailChoice(models.Model):
    """What a person wants by e-mail besides their statements: the club's announcements
    (asked for), a place freed on the waiting list and partner messages (on unless
    stopped), calls to substitutes. Absent: the defaults."""

    #: A merge keeps the kept record's choices (members.services.merge).
    rebuilt_after_merge = True

    club = club_field()
    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="mail_choice")
    announcements = models.BooleanField(default=False)
    booking_news = models.BooleanField(default=True)
    substitute_calls = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = club_manager()

    class Meta:
        ordering = ["person"]

    def __str__(self) -> str:
        return f"Mail choices of {self.person_id}"


class Notice(models.Model):
    """One e-mail of this app to one person about one event (``event``: what happened,
    e.g. ``promoted:12``). The unique constraint makes a replayed event write nothing;
    the worker claims a row (pending → sending) before it sends, so a task run twice
    sends once."""

    class Kind(models.TextChoices):
        PROMOTED = "promoted", _("A place from the waiting list")
        PARTNER = "partner", _("A partner message")
        PARTNER_LEFT = "partner_left", _("A partner's cancellation")
        SUBSTITUTES = "substitutes", _("A call to substitutes")
        ANNOUNCEMENT = "announcement", _("An announcement")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the worker")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Not sent")

    club = club_field()
    kind = models.CharField(max_length=15, choices=Kind.choices)
    event = models.CharField(max_length=60)
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="notices")
    email = models.EmailField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    unsubscribe_url = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(null=True, blank=True, help_text="A retry's time.")
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "event", "person"], name="notice_once_per_person"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "sending", "sent", "failed"]),
                name="notice_status_valid",
            ),
        ]
        indexes = [
            # An event's messages (how many went out, on the officer's pages).
            models.Index(fields=["club", "event"], name="notice_event_idx"),
            # The lost ones (requeue_stuck): by status, oldest first.
            models.Index(fields=["club", "status", "created_at"], name="notice_status_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.event} → {self.person_id} ({self.status})"
