"""The members' jobs on the worker: a confirmed roster import applied, and a club's
backup made (its export file, for its officers to download for ``EXPORTS_KEEP_HOURS``).
How a job is asked for, claimed once and retried: :mod:`members.jobs.runner`."""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.core.files import File
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from members.clubs.portable import PortableError, export_club
from members.clubs.scope import current_club
from members.jobs import runner
from members.jobs.models import ClubJob
from members.roster.plan import apply_import
from members.roster.read import Roster


@task()
def apply_roster(job_id: int) -> str:
    """Save a confirmed roster import (its plan made again against the database, as
    the preview was): the people and the job's "done" in one transaction."""
    return runner.run(job_id, _apply_roster, atomic=True)


def _apply_roster(job: ClubJob) -> dict:
    roster = Roster.from_json(job.payload["roster"])
    plan = apply_import(roster, by=job.requested_by)
    return {
        "filename": roster.filename,
        **plan.counts(),
        "refused_rows": [{"line": r.line, "reason": r.reason} for r in plan.refused],
    }


@task()
def make_backup(job_id: int) -> str:
    """Write the club's export file (what ``export_club`` writes; ``import_club`` reads
    it back) into the exports storage, through a temporary file: a worker killed mid-way
    leaves no half file, and running it again writes a new whole one."""
    return runner.run(job_id, _make_backup, atomic=False)


def _make_backup(job: ClubJob) -> dict:
    club = current_club()
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.json"
        try:
            counts = export_club(club, path)
        except PortableError as exc:
            raise runner.JobRefused(
                _("The backup could not be made (%(why)s). Tell the site's operator.")
                % {"why": exc}
            ) from exc
        with path.open("rb") as handle:
            name = runner.storage().save(
                f"{club.pk}/backup-{job.pk}-{club.slug}-{stamp}.json", File(handle)
            )
    job.file_name = name
    runner.prune()  # the club's backups past EXPORTS_KEEP_HOURS go
    return {"rows": sum(counts.values())}
