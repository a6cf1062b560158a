"""Asking for a club job, running it on the worker, and finding lost ones.

- :func:`ask`: one job per key (the asking form's, made when it was drawn), so a
  double press, a reload or a retried POST finds the job the first made; a kind that
  must not run twice at once (``single``) gives the one already waiting or running.
- :func:`run`: the task's body. The worker takes the job with one conditional UPDATE
  (waiting → running), so a task queued twice runs it once. An ``atomic`` job's work
  and its "done" are one transaction: a worker killed mid-way leaves nothing written
  and the job "running", which :func:`requeue_stuck` puts back to waiting. A
  temporary failure (the database busy or away, a full or missing disk) is tried again
  later (``clubsite.tasks.RETRY_DELAYS``); :class:`JobRefused` says in plain words why
  the job cannot be done, and anything else is recorded as failed with a plain
  sentence (the traceback goes to the log).
- :func:`requeue_stuck`, :func:`prune`: run by ``manage.py requeue_stuck``.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.files.storage import storages
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django_scopes import scopes_disabled

from clubsite.tasks import MAX_ATTEMPTS, retry_at
from members.clubs.languages import club_language
from members.clubs.scope import in_club
from members.jobs.models import ClubJob

logger = logging.getLogger(__name__)

Status = ClubJob.Status
Kind = ClubJob.Kind
# The task of each kind, by name: members never imports scoring (the rebuild is
# scoring's), and requeue_stuck queues any kind again.
TASKS = {
    Kind.ROSTER: "members.jobs.tasks.apply_roster",
    Kind.BACKUP: "members.jobs.tasks.make_backup",
    Kind.REBUILD: "scoring.results.rebuild.rebuild_club",
}
# Finished jobs stay on the officers' list this long (their files EXPORTS_KEEP_HOURS).
KEEP_DAYS = 30


class JobRefused(Exception):
    """The job cannot be done, for a reason its message says in plain words."""


def storage():
    return storages["exports"]


def enqueue(job: ClubJob, run_after: datetime.datetime | None = None) -> None:
    """Queue ``job``'s task, after ``run_after`` when given. A backend that cannot wait
    (the immediate one) is not given a later run: ``requeue_stuck`` queues the job once
    it is overdue, instead of running it again at once, inside its own failure."""
    task = import_string(TASKS[job.kind])
    if run_after is not None:
        if not task.get_backend().supports_defer:
            return
        task = task.using(run_after=run_after)
    task.enqueue(job.pk)


def ask(kind, *, key: str, by=None, payload=None, single=None) -> tuple[ClubJob, bool]:
    """The active club's job of ``kind`` for ``key``: the one already asked for with
    this key (or, with ``single``, a dict of filters such as ``{}``, one of this kind
    matching them still waiting or running), else a new one, queued for the worker.
    Returns the job and whether this call made it."""
    if not key or len(key) > 64:
        raise JobRefused(_("This page is out of date. Reload it, then press the button again."))
    found = ClubJob.objects.filter(key=key).first()
    if found is None and single is not None:
        working = ClubJob.objects.filter(kind=kind, status__in=[Status.PENDING, Status.RUNNING])
        working = working.filter(**single)
        found = working.order_by("-requested_at").first()
    if found is not None:
        if found.kind != kind:
            raise JobRefused(_("This page is out of date. Reload it, then press the button again."))
        return found, False
    try:
        with transaction.atomic():
            job = ClubJob.objects.create(
                kind=kind, key=key, requested_by=by, requested_at=timezone.now(),
                payload=payload or {},
            )  # fmt: skip
    except IntegrityError:  # the same press, at the same moment, in another request
        return ClubJob.objects.get(key=key), False
    enqueue(job)
    job.refresh_from_db()  # the immediate backend has run it already
    return job, True


def run(job_id: int, work: Callable[[ClubJob], dict], *, atomic: bool) -> str:
    """Run job ``job_id`` with ``work`` (which returns the counts to keep), if it is
    still waiting; says what happened."""
    with scopes_disabled():
        job = ClubJob.objects.select_related("club").filter(pk=job_id).first()
    if job is None:
        return "gone"
    club = job.club
    # The club's language is read once its scope is entered (as ClubCommand does).
    with (
        in_club(club),
        timezone.override(club.time_zone),
        translation.override(club_language()),
    ):
        return _run(job_id, work, atomic)


def _run(job_id, work, atomic) -> str:
    claimed = ClubJob.objects.filter(pk=job_id, status=Status.PENDING).update(
        status=Status.RUNNING, started_at=timezone.now(), attempts=F("attempts") + 1, error=""
    )
    if not claimed:  # done, failed, or another worker has it
        return "skipped"
    job = ClubJob.objects.get(pk=job_id)
    try:
        if atomic:
            with transaction.atomic():
                _done(job, work(job))
        else:
            _done(job, work(job))
    except JobRefused as exc:
        return _failed(job, str(exc))
    except (OperationalError, InterfaceError, OSError) as exc:  # may pass
        logger.warning("Job %s (%s) failed, try %s: %s", job.pk, job.kind, job.attempts, exc)
        if job.attempts < MAX_ATTEMPTS:
            due = retry_at(job.attempts)
            ClubJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(
                status=Status.PENDING, due_at=due, error=_("Tried again later: %(why)s")
                % {"why": _temporary_reason(exc)},
            )  # fmt: skip
            enqueue(job, run_after=due)
            return "retry"
        return _failed(job, _temporary_reason(exc))
    except Exception:
        logger.exception("Job %s (%s) failed", job.pk, job.kind)
        return _failed(
            job,
            _("Something went wrong on the server. Try again; if it fails again, tell the "
              "site's operator (the details are in the server's log)."),
        )  # fmt: skip
    return "done"


def _done(job: ClubJob, result: dict) -> None:
    ClubJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(
        status=Status.DONE, result=result, payload={}, file_name=job.file_name,
        finished_at=timezone.now(), error="", due_at=None,
    )  # fmt: skip


def _failed(job: ClubJob, reason: str) -> str:
    try:
        ClubJob.objects.filter(pk=job.pk).update(
            status=Status.FAILED, error=reason[:300], finished_at=timezone.now()
        )
    except DatabaseError:  # the database is away: requeue_stuck finds it "running"
        logger.exception("Job %s could not be marked failed", job.pk)
    return "failed"


def _temporary_reason(exc: Exception) -> str:
    if isinstance(exc, OSError):
        return _("the server could not write the file (is its disk full?).")
    return _("the database was busy or not answering.")


def requeue_stuck(now: datetime.datetime | None = None) -> int:
    """Queue again every job whose task was lost: running ``TASKS_STUCK_MINUTES``
    after it began (its worker was killed: an atomic job wrote nothing, the others do
    the same again), or waiting that long after it was asked for or due. Returns how
    many. Safe to run at any time, from any server."""
    now = now or timezone.now()
    stale = now - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    with scopes_disabled():
        jobs = ClubJob.objects
        killed = list(jobs.filter(status=Status.RUNNING, started_at__lt=stale))
        jobs.filter(pk__in=[j.pk for j in killed], status=Status.RUNNING).update(
            status=Status.PENDING, due_at=now
        )
        waiting = jobs.filter(status=Status.PENDING).filter(
            Q(due_at__lt=stale) | Q(due_at__isnull=True, requested_at__lt=stale)
        )
        lost = killed + list(waiting)
        jobs.filter(pk__in=[j.pk for j in lost], status=Status.PENDING).update(due_at=now)
    for job in lost:
        enqueue(job)
    return len(lost)


def prune(now: datetime.datetime | None = None) -> int:
    """Delete the files of jobs finished more than ``EXPORTS_KEEP_HOURS`` ago, and the
    jobs themselves after ``KEEP_DAYS``: the active club's, or every club's outside a
    club's scope. Returns how many files were deleted."""
    now = now or timezone.now()
    old = now - datetime.timedelta(hours=settings.EXPORTS_KEEP_HOURS)
    with_files = ClubJob.objects.filter(finished_at__lt=old).exclude(file_name="")
    gone = 0
    for pk, name in with_files.values_list("pk", "file_name"):
        storage().delete(name)
        gone += ClubJob.objects.filter(pk=pk).update(file_name="")
    ClubJob.objects.filter(
        requested_at__lt=now - datetime.timedelta(days=KEEP_DAYS),
        status__in=[Status.DONE, Status.FAILED],
    ).delete()
    return gone
