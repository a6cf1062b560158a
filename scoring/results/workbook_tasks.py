"""The league workbook on the worker: an officer asks (:func:`ask_for_workbook`), the
worker makes the file (:func:`make_workbook`, a task), and the page gives it to the
club's officers when it is ready.

A second ask for the same period and language while one is waiting or being made gets
that one, and so does an ask while a ready one is still current (the results'
fingerprint, :func:`scoring.results.cache.results_stamp`, unchanged, and made within
``REUSE_MINUTES``). The worker takes an export with one conditional UPDATE (waiting →
being made), so a task queued twice makes it once; it writes the file through a
temporary file, so a worker killed mid-way leaves no half file, and
:func:`requeue_stuck` queues again one left "being made" or "waiting"
``TASKS_STUCK_MINUTES`` after it was asked for. Each finished export deletes its club's
workbooks older than ``EXPORTS_KEEP_HOURS`` (and ``manage.py requeue_stuck`` every
club's), files and rows.
"""

from __future__ import annotations

import datetime
import logging
import tempfile

from django.conf import settings
from django.core.files import File
from django.core.files.storage import storages
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django_scopes import scopes_disabled
from django_tasks import task

from members.clubs.scope import in_club
from scoring.models import ResultsVersion, WorkbookExport
from scoring.results import exports
from scoring.results.cache import results_stamp
from scoring.results.standings.periods import Period

logger = logging.getLogger(__name__)

Status = WorkbookExport.Status
REUSE_MINUTES = 30


def storage():
    return storages["exports"]


def period_of(export: WorkbookExport) -> Period:
    return Period(start=export.start, end=export.end, season=export.season)


def ask_for_workbook(period: Period, by, language: str) -> WorkbookExport:
    """The export of ``period``'s workbook in ``language``: one already waiting, being
    made, or ready and current; else a new one, queued for the worker."""
    stamp = results_stamp()
    same = WorkbookExport.objects.filter(
        season=period.season, start=period.start, end=period.end, language=language
    )
    fresh = timezone.now() - datetime.timedelta(minutes=REUSE_MINUTES)
    with transaction.atomic():
        # One ask at a time per club: the club's results-version row is the lock.
        ResultsVersion.objects.select_for_update().first()
        found = (
            same.filter(
                Q(status__in=[Status.PENDING, Status.MAKING])
                | Q(status=Status.READY, stamp=stamp, finished_at__gte=fresh)
            )
            .order_by("-requested_at")
            .first()
        )
        if found is not None and (
            found.status != Status.READY or storage().exists(found.file_name)
        ):
            return found
        export = WorkbookExport.objects.create(
            requested_by=by,
            requested_at=timezone.now(),
            season=period.season,
            start=period.start,
            end=period.end,
            language=language,
            stamp=stamp,
        )
    make_workbook.enqueue(export.pk)
    export.refresh_from_db()  # the immediate backend has made it already
    return export


@task()
def make_workbook(export_id: int) -> str:
    """Make one asked-for workbook, if it is still waiting; says what happened."""
    with scopes_disabled():
        export = WorkbookExport.objects.select_related("club").filter(pk=export_id).first()
    if export is None:
        return "gone"
    club = export.club
    with in_club(club), timezone.override(club.time_zone), translation.override(export.language):
        return _make(export_id)


def _make(export_id: int) -> str:
    claimed = WorkbookExport.objects.filter(pk=export_id, status=Status.PENDING).update(
        status=Status.MAKING, started_at=timezone.now()
    )
    if not claimed:
        return "skipped"
    export = WorkbookExport.objects.select_related("season").get(pk=export_id)
    period = period_of(export)
    name = f"{export.club_id}/{export.pk}-league-{period.slug}.xlsx"
    try:
        with tempfile.TemporaryFile(suffix=".xlsx") as handle:
            exports.write_league_workbook(handle, period)
            handle.seek(0)
            name = storage().save(name, File(handle))
    except Exception as exc:  # recorded for the officer; the page offers to try again
        logger.exception("The league workbook %s could not be made", export_id)
        WorkbookExport.objects.filter(pk=export_id).update(
            status=Status.FAILED, error=str(exc)[:300], finished_at=timezone.now()
        )
        return "failed"
    WorkbookExport.objects.filter(pk=export_id).update(
        status=Status.READY, file_name=name, finished_at=timezone.now()
    )
    prune_workbooks()
    return "ready"


def prune_workbooks(now: datetime.datetime | None = None) -> int:
    """Delete the workbooks (files and rows) asked for more than ``EXPORTS_KEEP_HOURS``
    ago: the active club's, or every club's outside a club's scope."""
    now = now or timezone.now()
    old = WorkbookExport.objects.filter(
        requested_at__lt=now - datetime.timedelta(hours=settings.EXPORTS_KEEP_HOURS)
    ).exclude(status__in=[Status.PENDING, Status.MAKING])
    gone = 0
    for pk, name in old.values_list("pk", "file_name"):
        if name:
            storage().delete(name)
        gone += WorkbookExport.objects.filter(pk=pk).delete()[0]
    return gone


def requeue_stuck(now: datetime.datetime | None = None) -> int:
    """Queue again every workbook whose task was lost (a worker killed while making it,
    or a queue emptied): still waiting or being made ``TASKS_STUCK_MINUTES`` after it
    was asked for or begun. Returns how many."""
    now = now or timezone.now()
    stale = now - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    with scopes_disabled():
        exports_ = WorkbookExport.objects
        making = exports_.filter(status=Status.MAKING, started_at__lt=stale)
        interrupted = list(making.values_list("pk", flat=True))
        exports_.filter(pk__in=interrupted, status=Status.MAKING).update(
            status=Status.PENDING, requested_at=now
        )
        waiting = exports_.filter(status=Status.PENDING, requested_at__lt=stale)
        lost = list(waiting.values_list("pk", flat=True))
        exports_.filter(pk__in=lost).update(requested_at=now)
    for pk in interrupted + lost:
        make_workbook.enqueue(pk)
    return len(interrupted) + len(lost)
