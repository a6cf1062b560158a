"""The league workbooks officers ask for: each is made by the worker, kept as a file in
the private ``exports`` storage for ``EXPORTS_KEEP_HOURS``, and given only to its club's
officers (:mod:`scoring.results.workbook_tasks`)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from members.clubs.scope import club_manager
from members.models import club_field
from scoring.models.results import Season


class WorkbookExport(models.Model):
    """One league workbook: its period and language, and where the worker has got."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the worker")
        MAKING = "making", _("being made")
        READY = "ready", _("ready")
        FAILED = "failed", _("could not be made")

    club = club_field()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField()
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.CASCADE)
    start = models.DateField(null=True, blank=True)
    end = models.DateField(null=True, blank=True)
    language = models.CharField(max_length=10, help_text="The language of its words.")
    stamp = models.CharField(
        max_length=100,
        help_text="The results' fingerprint when it was asked for: a ready workbook of the "
        "same period is given again while nothing has changed.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    file_name = models.CharField(max_length=200, blank=True, help_text="In the exports storage.")
    error = models.CharField(max_length=300, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "making", "ready", "failed"]),
                name="workbook_export_status_valid",
            ),
        ]
        indexes = [
            # "Is this period's workbook already being made?": the club's recent ones.
            models.Index(fields=["club", "requested_at"], name="workbook_export_club_idx"),
        ]

    def __str__(self) -> str:
        return f"Workbook asked for at {self.requested_at:%Y-%m-%d %H:%M}: {self.status}"
