"""The club's background jobs (see :mod:`members.jobs`)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from members.clubs.models import club_field
from members.clubs.scope import club_manager


class ClubJob(models.Model):
    """One asked-for job of a club, and where the worker has got with it."""

    class Kind(models.TextChoices):
        ROSTER = "roster", _("Roster import")
        REBUILD = "rebuild", _("Rebuild of the totals and ratings")
        BACKUP = "backup", _("Club backup")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for the worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    club = club_field()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    key = models.CharField(
        max_length=64,
        help_text="Made when the asking form was drawn: the same press again finds this job.",
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField(
        null=True, blank=True, help_text="When a retry after a temporary failure is due."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    payload = models.JSONField(
        default=dict, blank=True, help_text="What the job works on; emptied when it is done."
    )
    result = models.JSONField(default=dict, blank=True, help_text="What it did, as counts.")
    file_name = models.CharField(max_length=200, blank=True, help_text="In the exports storage.")
    error = models.CharField(max_length=300, blank=True, help_text="Why it failed, in plain words.")

    objects = club_manager()

    class Meta:
        ordering = ["-requested_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "key"], name="club_job_key_once"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed"]),
                name="club_job_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["roster", "rebuild", "backup"]), name="club_job_kind_valid"
            ),
        ]
        indexes = [
            # The officers' list of the club's recent jobs, newest first, and "is one of
            # this kind already waiting?".
            models.Index(fields=["club", "requested_at"], name="club_job_club_idx"),
            # The sweep of every club's waiting and running jobs (requeue_stuck).
            models.Index(fields=["status", "requested_at"], name="club_job_status_idx"),
        ]

    def __str__(self) -> str:
        when = f"{self.requested_at:%Y-%m-%d %H:%M}"
        return f"{self.get_kind_display()} asked for at {when}: {self.status}"

    @property
    def working(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.RUNNING)
