"""The site's own health check (``/healthz``). The front page and the language switch
are the club's (``members.clubs.front``)."""

import logging
import secrets

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse

logger = logging.getLogger(__name__)

#: The shared cache's key the health check writes and reads back.
HEALTH_KEY = "clubsite:healthz"


def healthz(request):
    """For load balancers and uptime checks: whether this server can serve pages.

    The database and the shared cache are reported separately, e.g.
    ``{"status": "ok", "database": "ok", "cache": "down"}``. Pages need the database:
    without it the answer is 503 ("down"), so a load balancer stops sending members
    here. Without the cache (Redis) pages are read from the database, slower but whole:
    the answer stays 200, with ``"status": "degraded"`` for monitoring to alert on."""
    database = "ok" if _database_answers() else "down"
    cache_state = "ok" if _cache_answers() else "down"
    status = "down" if database == "down" else "ok" if cache_state == "ok" else "degraded"
    response = JsonResponse(
        {"status": status, "database": database, "cache": cache_state},
        status=503 if database == "down" else 200,
    )
    response["Cache-Control"] = "no-store"
    return response


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
