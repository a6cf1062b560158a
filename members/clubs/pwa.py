"""Installing the table page on a phone's home screen: the web app manifest and the
service worker, one of each per club, at the club's root (``/sw.js`` of a club served
at ``/``, ``/<slug>/sw.js`` on a shared site), whose scope is that club's pages.

django-pwa was weighed and not used: its template tag registers the worker with an
inline ``<script>``, which the site's Content-Security-Policy forbids, and its worker
caches a fixed list of URLs set in settings; what is left (a JSON file and a JS file
served with the right type) is these two views. The worker (``static/js/sw.js``,
served from here so the static files it keeps carry their hashed names) keeps the
page shell and static files and never touches a form's POST. The installed app opens
:func:`app_start`: the table this phone opened last, or the room-code box; offline, the
worker gives the kept table page or a page saying what to do.

What the worker may keep of a page is decided here, by the server, never guessed by the
worker: it keeps only a table page that carries ``X-Keep-Offline``
(:func:`keeps_offline`), which is only ever set on the page drawn for a table-link
holder who is not logged in, and names the grant and when it ends. A page drawn for a
logged-in officer, player or member never carries it, so it is never kept. Logging out
and closing a day tell the browser to drop every kept page (``Clear-Site-Data``,
:func:`clears_offline_copies`).
"""

from __future__ import annotations

import json
from functools import wraps

from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from clubsite.devices import GRANT_KEY
from members.models import ClubDay
from members.services.days import links_end

#: Static files every table page needs, kept by the service worker.
SHELL_FILES = (
    "css/site.css",
    "css/scoring.css",
    "css/confirm.css",
    "js/htmx.min.js",
    "js/table.js",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


#: The session key of the table whose page this browser opened last (see
#: :func:`keeps_offline`): where the installed app opens.
LAST_TABLE_KEY = "pwa_last_table"


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    """The installed app opens :func:`app_start` (one address whatever table it was
    installed from: a table of last week must not be where it opens today)."""
    start = reverse("app_start")
    root = reverse("home")
    data = {
        "id": start,
        "name": _("%(club)s scores") % {"club": request.club.name},
        "short_name": _("Scores"),
        "description": _("Enter the hands of your table."),
        "lang": get_language(),
        "start_url": start,
        "scope": root,
        "display": "standalone",
        "background_color": "#fdfcf8",
        "theme_color": "#0b5394",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
@never_cache
def app_start(request):
    """Where the installed app opens: the table page this phone opened last (the table
    page itself then says if its link has ended), or the room-code box when it has
    none. Offline, the service worker answers instead: the kept table page, or a page
    saying what to do."""
    table_pk = request.session.get(LAST_TABLE_KEY)
    grant = request.session.get(GRANT_KEY)
    if not isinstance(table_pk, int) and isinstance(grant, dict):
        table_pk = grant.get("table")
    if isinstance(table_pk, int):
        return redirect("scoring:table", table_pk=table_pk)
    return redirect("home")


def offline_words() -> dict:
    """What the worker's offline pages say, in the active language."""
    return {
        "lang": get_language(),
        "title": _("No connection"),
        "noCopy": [
            _("No connection, and this table page is not kept on this phone."),
            _(
                "Keep the hands on paper for now. When the connection is back, reload this "
                "page and enter them; or type the room code on your table card on the "
                "club's front page."
            ),
        ],
        "noTable": [
            _("No connection, and no table page is kept on this phone."),
            _(
                "When the connection is back, open the app again, or type the room code on "
                "your table card (or scan its QR code). Keep the hands on paper until then."
            ),
        ],
    }


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    with open(finders.find("js/sw.js"), encoding="utf-8") as handle:
        body = handle.read()
    shell = json.dumps([static(name) for name in SHELL_FILES])
    body = body.replace("[/* SHELL */]", shell, 1)
    body = body.replace("{/* WORDS */}", json.dumps(offline_words(), ensure_ascii=False), 1)
    root = reverse("home")
    body = body.replace('var ROOT = "/";', f"var ROOT = {json.dumps(root)};", 1)
    body = body.replace(
        'var START = "/app/";', f"var START = {json.dumps(reverse('app_start'))};", 1
    )
    response = HttpResponse(body, content_type="text/javascript")
    response["Service-Worker-Allowed"] = root
    return response


#: The response header that lets the service worker keep a table page for offline use.
KEEP_OFFLINE = "X-Keep-Offline"
#: What logging out and closing a day tell the browser: drop the HTTP cache and the
#: site's storage (the worker's kept pages, and the worker itself, which the next table
#: page registers again). The typed boxes and unsent saves a table page keeps on the
#: device go too: after a logout they could not be sent under that login anyway.
CLEAR_SITE_DATA = '"cache", "storage"'


def keeps_offline(view):
    """On a table view (``table_pk``): a page drawn (200) is remembered in the session
    as the table the installed app opens (:func:`app_start`); one drawn for a
    table-link holder who is not logged in also gets
    ``X-Keep-Offline: table=<pk>; day=<pk>; until=<ms>``, the grant it was drawn for
    and when that grant's links end (ms since 1970). Nothing else does:
    an officer, player or member is logged in, and anyone else gets no page (404), or
    the closed-day page (410), which tells the worker to drop what it kept. A view that
    read the table's day already leaves it as ``request.table_day`` (no second read)."""

    @wraps(view)
    def wrapper(request, table_pk, *args, **kwargs):
        response = view(request, table_pk, *args, **kwargs)
        if response.status_code == 200 and request.session.get(LAST_TABLE_KEY) != table_pk:
            request.session[LAST_TABLE_KEY] = table_pk  # where the installed app opens
        if response.status_code != 200 or request.user.is_authenticated:
            return response
        grant = request.session.get(GRANT_KEY)
        if not isinstance(grant, dict) or grant.get("table") != table_pk:
            return response
        day = getattr(request, "table_day", None)  # the day the view read, if it says
        if day is None or day.pk != grant.get("day"):
            day = ClubDay.objects.filter(pk=grant.get("day")).only("date", "links_until").first()
        if day is None:
            return response
        until = int(links_end(day).timestamp() * 1000)
        response[KEEP_OFFLINE] = f"table={table_pk}; day={day.pk}; until={until}"
        return response

    return wrapper


def forget_offline_copies(response):
    """Tell the browser that gets ``response`` to drop every page kept for offline use."""
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


def clears_offline_copies(view=None, *, action: str | None = None):
    """A view whose answer to a POST (with that ``action`` field, when given) drops every
    page this browser kept for offline use: logging out, closing a day."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            response = view(request, *args, **kwargs)
            if (
                request.method == "POST"
                and response.status_code < 400
                and (action is None or request.POST.get("action") == action)
            ):
                forget_offline_copies(response)
            return response

        return wrapper

    return decorate(view) if view is not None else decorate
