"""Installing the table page on a phone's home screen: the web app manifest and the
service worker (kept at the site's root, so its scope is the whole site).

django-pwa was weighed and not used: its template tag registers the worker with an
inline ``<script>``, which the site's Content-Security-Policy forbids, and its worker
caches a fixed list of URLs set in settings; what is left (a JSON file and a JS file
served with the right type) is these two views. The worker (``static/js/sw.js``,
served from here so the static files it keeps carry their hashed names) keeps the
page shell and static files and never touches a form's POST.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: Static files every table page needs, kept by the service worker.
SHELL_FILES = (
    "css/site.css",
    "css/scoring.css",
    "js/htmx.min.js",
    "js/table.js",
    "favicon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)


def _start_url(request) -> str:
    """The page the installed icon opens: the table page it was installed from."""
    start = request.GET.get("start", "")
    try:
        match = resolve(start)
    except Resolver404:
        return "/"
    return start if match.view_name == "scoring:table" else "/"


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    data = {
        "name": f"{settings.CLUB_NAME} scores",
        "short_name": "Scores",
        "description": "Enter the hands of your table.",
        "start_url": _start_url(request),
        "scope": "/",
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
@cache_control(no_cache=True)
def service_worker(request):
    with open(finders.find("js/sw.js"), encoding="utf-8") as handle:
        body = handle.read()
    shell = json.dumps([static(name) for name in SHELL_FILES])
    body = body.replace("[/* SHELL */]", shell, 1)
    response = HttpResponse(body, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response
