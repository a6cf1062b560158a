"""The results e-mail log: every time an officer sends a closed day's results, and what
happened to each message (sent, or failed and why)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from members.clubs.scope import club_manager
from members.models import ClubDay, Person, club_field


class ResultsMailing(models.Model):
    """One press of "send the results" for a club day."""

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="results_mailings")
    key = models.CharField(
        max_length=64,
        unique=True,
        help_text="Made when the officer's button was drawn: a repeat of the same press "
        "(a double tap, a reload) is the same mailing and sends nothing more.",
    )
    again = models.BooleanField(
        default=False, help_text="Sent again to people who already had the day's results."
    )
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    site_root = models.CharField(
        max_length=300,
        blank=True,
        help_text="The club's address as the officer used it (https://host/slug/): the "
        "links in the messages, which the worker writes outside any request.",
    )

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Results of {self.day} sent {self.created_at:%Y-%m-%d %H:%M}"


class ResultsMessage(models.Model):
    """One recipient of one mailing."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        # A worker stopped while sending it: the mail server may or may not have it.
        INTERRUPTED = "interrupted", _("interrupted, perhaps not sent")

    club = club_field()
    mailing = models.ForeignKey(ResultsMailing, on_delete=models.CASCADE, related_name="messages")
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    email = models.EmailField(help_text="The address it went to.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="How many times a worker has tried to send it."
    )
    due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When its task was due to run (a retry's later time): a message still "
        "waiting long after it lost its task and is queued again.",
    )
    claimed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a worker took it to send: one still being sent long after was "
        "interrupted (the worker stopped), and is marked so.",
    )

    objects = club_manager()

    class Meta:
        ordering = ["person__last_name", "person__first_name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["mailing", "person"], name="results_message_once"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "sending", "sent", "failed", "interrupted"]),
                name="results_message_status_valid",
            ),
        ]
        indexes = [
            # "Who already has this day's results": day + status.
            models.Index(fields=["day", "status"], name="results_message_day_idx"),
            # The worker's sweep: messages waiting or being sent, across clubs.
            models.Index(
                fields=["status", "due_at"],
                name="results_message_waiting_idx",
                condition=Q(status__in=["pending", "sending"]),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} <{self.email}>: {self.get_status_display()}"
