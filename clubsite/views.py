import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from clubsite import display, languages
from clubsite.clubs.views import club_list
from scoring.play.devices import remember_device

logger = logging.getLogger(__name__)

#: The shared cache's key the health check writes and reads back.
HEALTH_KEY = "clubsite:healthz"


def home(request):
    """The front page: what to do next, by role. It gives the browser its device cookie,
    so the room code typed next is judged by this phone's own tries. A shared site's
    own front page (no club) lists its clubs."""
    if getattr(request, "club", None) is None:
        return club_list(request)
    response = render(request, "home.html")
    remember_device(request, response)
    return response


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


@require_POST
def choose_language(request):
    """The one-tap language switch (the table page, the board): this phone remembers the
    choice (a cookie, a year). A logged-in member who chose a language on their page
    changes that choice too, so the tap is never outranked by an older choice. Back to
    the page it came from (``next``, this site only)."""
    code = languages.valid(request.POST.get("language")) or languages.club_language(request)
    response = _back(request)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    if languages.member_language(request):
        from members.permissions import person_for
        from members.services.people import set_language

        person = person_for(request.user)
        if person is not None:  # a record merged into another one keeps no login
            set_language(person, code)
        languages.remember_member_language(request, code)
    return response


@require_POST
def choose_display(request):
    """The "Larger" and "High contrast" switches (the table page, the door): this phone
    remembers them (clubsite.display). Back to the page it came from."""
    response = _back(request)
    display.remember(request, response)
    return response


def _back(request):
    """A redirect to the page a switch was tapped on (``next``, this site only)."""
    target = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) or not target.startswith(get_script_prefix()):
        target = reverse("home")  # a page of this club (or the site's), never another
    return redirect(target)
