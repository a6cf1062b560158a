"""One background job of the club (:mod:`members.jobs`): where it has got (the part
that says so reloads itself while it waits or runs), what it did, and a backup's file.
Officers only; another club's job is not found."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from members.jobs.models import ClubJob
from members.jobs.runner import storage
from members.permissions import officer_required
from members.roster.plan import summary_of


def job_context(job: ClubJob) -> dict:
    """What the job's status part shows (also for the "Background work" list)."""
    stale = timezone.now() - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    since = job.started_at if job.status == ClubJob.Status.RUNNING else job.requested_at
    summary = ""
    if job.kind == ClubJob.Kind.ROSTER and job.status == ClubJob.Status.DONE:
        summary = summary_of(job.result)
    return {
        "job": job,
        "working": job.working,
        "stuck": job.working and since is not None and since < stale,
        "summary": summary,
        "keep_hours": settings.EXPORTS_KEEP_HOURS,
    }


@officer_required
@require_GET
def job_view(request, pk):
    job = get_object_or_404(ClubJob.objects.select_related("requested_by"), pk=pk)
    template = "members/_job_status.html" if request.htmx else "members/job.html"
    return render(request, template, job_context(job))


@officer_required
@require_GET
def job_file_view(request, pk):
    """A finished backup's file (404 while it is not ready, or once it is deleted)."""
    job = get_object_or_404(ClubJob, pk=pk, status=ClubJob.Status.DONE, kind=ClubJob.Kind.BACKUP)
    if not job.file_name:
        raise Http404("The backup's file is gone.")
    try:
        handle = storage().open(job.file_name, "rb")
    except FileNotFoundError:
        raise Http404("The backup's file is gone.") from None
    name = job.file_name.rsplit("/", 1)[-1]
    return FileResponse(handle, as_attachment=True, filename=name, content_type="application/json")
