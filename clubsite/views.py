"""The site's own health check (``/healthz``). The front page and the language switch
are the club's (``members.clubs.front``)."""

import datetime
import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.db.models import Min
from django.http import JsonResponse
from django.utils import timezone

logger = logging.getLogger(__name__)

#: The shared cache's key the health check writes and reads back.
HEALTH_KEY = "clubsite:healthz"
#: Where the last day's failure counts are kept for FAILURES_SECONDS (load balancers
#: ask often; the counts read whole tables).
FAILURES_KEY = "clubsite:healthz:failures"
FAILURES_SECONDS = 300


def healthz(request):
    """For load balancers and uptime checks: whether this server can serve pages.

    The database and the shared cache are reported separately, e.g.
    ``{"status": "degraded", "database": "ok", "cache": "down", "tasks": "ok"}``. Pages
    need the database: without it the answer is 503 ("down"), so a load balancer stops
    sending members here. Without the cache (Redis) pages are read from the database,
    slower but whole: the answer stays 200, with ``"status": "degraded"`` for
    monitoring to alert on. The same when the background work's queue is stuck
    (``"tasks": "stuck"`` and a ``"reason"``): a task has waited for the worker longer
    than ``TASKS_STUCK_MINUTES`` (the worker is stopped, or too few for the work).

    What failed in the last day, when anything did, is counted for the operator in
    ``"failed_last_day"`` (:func:`failures`): tasks the queue recorded as failed, results
    messages the mail server refused, workbooks and club jobs that could not be done
    (each page says why; the admin's "Task results" has a failed task's traceback)."""
    database = "ok" if _database_answers() else "down"
    cache_state = "ok" if _cache_answers() else "down"
    try:
        stuck = queue_stuck() if database == "ok" else None
    except DatabaseError:  # the queue's table is missing (not migrated): say so
        logger.warning("Health check: the task queue cannot be read", exc_info=True)
        stuck = "The background work's queue cannot be read: run manage.py migrate."
    fine = cache_state == "ok" and stuck is None
    status = "down" if database == "down" else "ok" if fine else "degraded"
    body = {"status": status, "database": database, "cache": cache_state}
    body["tasks"] = "unknown" if database == "down" else "ok" if stuck is None else "stuck"
    if stuck:
        body["reason"] = stuck
    failed = _failures_kept() if database == "ok" else {}
    if any(failed.values()):
        body["failed_last_day"] = failed
    response = JsonResponse(body, status=503 if database == "down" else 200)
    response["Cache-Control"] = "no-store"
    return response


def queue_stuck() -> str | None:
    """Why the database queue of background work is stuck, or None: the oldest task
    that is due has waited longer than ``TASKS_STUCK_MINUTES``. (Other queues are
    watched by their own tools.)"""
    from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
    from django_tasks_db import DatabaseBackend
    from django_tasks_db.models import DBTaskResult, get_date_max

    if not isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
        return None
    now = timezone.now()
    due = DBTaskResult.objects.ready()
    oldest = [
        due.filter(run_after=get_date_max()).aggregate(at=Min("enqueued_at"))["at"],
        due.exclude(run_after=get_date_max()).aggregate(at=Min("run_after"))["at"],
    ]
    waited = max((now - at for at in oldest if at is not None), default=None)
    limit = datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    if waited is None or waited <= limit:
        return None
    minutes = int(waited.total_seconds() // 60)
    return (
        f"{due.count()} background task(s) waiting, the oldest for {minutes} minutes: "
        "is the worker (manage.py db_worker) running?"
    )


def failures() -> dict[str, int]:
    """How many background tasks, results messages, workbooks and club jobs failed in
    the last 24 hours, in every club (counts only: nothing of a club's shown); empty
    when a table is missing (a database not migrated)."""
    from django.apps import apps
    from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends
    from django_tasks_db import DatabaseBackend
    from django_tasks_db.models import DBTaskResult

    since = timezone.now() - datetime.timedelta(days=1)
    counts = {}
    try:
        if isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
            tasks = DBTaskResult.objects.failed().filter(finished_at__gte=since)
            counts["tasks"] = tasks.count()
        # The apps' rows by name (the frame imports no app), every club's: counts only.
        rows = {
            "results_mail": ("scoring", "ResultsMessage", {"claimed_at__gte": since}),
            "workbooks": ("scoring", "WorkbookExport", {"finished_at__gte": since}),
            "club_jobs": ("members", "ClubJob", {"requested_at__gte": since}),
        }
        for name, (app, model, when) in rows.items():
            found = apps.get_model(app, model)._base_manager.filter(status="failed", **when)
            counts[name] = found.count()
    except DatabaseError:
        logger.warning("Health check: the failed work cannot be counted", exc_info=True)
        return {}
    return counts


def _failures_kept() -> dict[str, int]:
    try:
        kept = cache.get(FAILURES_KEY)
    except Exception:  # the cache is away: count now
        kept = None
    if kept is None:
        kept = failures()
        try:
            cache.set(FAILURES_KEY, kept, FAILURES_SECONDS)
        except Exception:
            logger.warning("Health check: the failure counts cannot be kept", exc_info=True)
    return kept


def _database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.warning("Health check: the database does not answer", exc_info=True)
        return False
    return True


def _cache_answers() -> bool:
    """A value written to the shared cache is read back. The Redis cache answers as an
    empty cache while Redis is away (so this reads nothing back); the database cache
    raises when the database is away."""
    token = secrets.token_hex(8)
    try:
        cache.set(HEALTH_KEY, token, 30)
        return cache.get(HEALTH_KEY) == token
    except Exception:  # any backend's failure means "down"
        logger.warning("Health check: the cache does not answer", exc_info=True)
        return False
