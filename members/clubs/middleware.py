"""Which club a request is for: the club's scope, time zone and addresses for the whole
request (the rule is in :mod:`members.clubs.addresses`).

For a club's page the middleware sets ``request.club``, enters the club's django-scopes
scope (every query of club data sees that club's rows, :mod:`members.clubs`),
activates its time zone, and for a club under ``/<slug>/`` takes the slug off
``request.path_info`` and adds it to the script prefix, so the one set of URL patterns
resolves the page and ``reverse()`` and ``{% url %}`` give ``/<slug>/…``.
``request.path`` keeps the whole address. A club's old slug (it moved) redirects to
its slug now. For the site's own pages ``request.club`` is
None and no club's data can be read (the admin, the platform operator's, runs with
the scopes disabled). The club of an address is looked up once and kept in the shared
cache until any club changes (``find_club_cached``): one read of the cache per
request, made before anything else asks the database.
"""

from __future__ import annotations

from django.http import Http404, HttpResponsePermanentRedirect, HttpResponseRedirect
from django.shortcuts import render
from django.urls import Resolver404, get_script_prefix, resolve, set_script_prefix
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.http import escape_leading_slashes
from django_scopes import scopes_disabled

from members.clubs.addresses import SITE_PAGES, find_club_cached
from members.clubs.languages import language_for
from members.clubs.scope import in_club

#: Where the admin's addresses start (the platform operator's, every club's data).
ADMIN = "/admin/"


def _site_page(path_info: str) -> str | None:
    """The URL name of a site page at ``path_info`` ("admin" for the admin), or None."""
    try:
        match = resolve(path_info)
    except Resolver404:
        return None
    if match.namespace == "admin" or match.app_name == "admin":
        return "admin"
    return match.url_name if match.url_name in SITE_PAGES else None


#: Answered before any club is looked for: the health check must say "down" (503) when
#: the database is, not fail on the club's query.
BEFORE_CLUBS = ("/healthz",)


def clubs(get_response):
    def middleware(request):
        if request.path_info in BEFORE_CLUBS:
            request.club = None
            return get_response(request)
        found = find_club_cached(request)
        request.site_prefix = get_script_prefix()
        request.club = found.club
        if found.moved_to is not None:
            return _moved(request, found)
        if found.club is None:
            return _site_request(request, found, get_response)
        if request.path_info.startswith(ADMIN):
            if found.prefix:
                raise Http404("The admin is at the site's own address.")
            request.club = None  # the admin is the site's, at the root of any host
            with scopes_disabled():
                return get_response(request)
        if not found.club.is_active:
            return _suspended(request, found, get_response)
        if found.prefix:
            rest = request.path_info[len(found.prefix) + 1 :]
            if not rest:  # "/north" -> "/north/"
                query = request.META.get("QUERY_STRING")
                return HttpResponsePermanentRedirect(
                    f"{request.path}/" + (f"?{query}" if query else "")
                )
            request.path_info = rest
            set_script_prefix(f"{request.site_prefix}{found.prefix}/")
        timezone.activate(found.club.time_zone)
        try:
            with in_club(found.club):
                return get_response(request)
        finally:
            timezone.deactivate()
            set_script_prefix(request.site_prefix)

    return middleware


def _site_request(request, found, get_response):
    """A page of the site itself, or an old root link of the club that kept them."""
    page = _site_page(request.path_info)
    if page == "admin":
        with scopes_disabled():
            return get_response(request)
    if page is not None:
        return get_response(request)
    old = found.old_link_of
    if old is None:
        raise Http404("No club has this address.")
    # 302/307: the address may lead elsewhere later (a club moved); 307 keeps a POST.
    return _to_club(request, old.slug, request.path_info, permanent=False)


def _moved(request, found):
    """An address under a club's old slug: the same page at its slug now, for good (301;
    308 keeps a POST)."""
    rest = request.path_info[len(found.prefix) + 1 :] or "/"
    return _to_club(request, found.moved_to.slug, rest, permanent=True)


def _to_club(request, slug: str, rest: str, *, permanent: bool):
    """The same page (path ``rest`` and query) under the club ``slug``; a POST keeps its
    method (307 or 308)."""
    query = request.META.get("QUERY_STRING")
    target = escape_leading_slashes(
        f"{request.site_prefix}{slug}{rest}" + (f"?{query}" if query else "")
    )
    redirect = HttpResponsePermanentRedirect if permanent else HttpResponseRedirect
    response = redirect(target)
    if request.method not in ("GET", "HEAD"):
        response.status_code = 308 if permanent else 307
    return response


#: The site's pages a suspended club served at the root still lets through: the
#: platform operator logs in there on the way to the admin.
SUSPENDED_PASS = frozenset({"login", "logout"})


def _suspended(request, found, get_response):
    """A suspended club's address: a page saying so to everyone (its officers and the
    platform operator too; the admin shows the operator its data), and nothing of it."""
    if not found.prefix and _site_page(request.path_info) in SUSPENDED_PASS:
        request.club = None
        return get_response(request)
    # 403, not 503: a table phone's service worker answers a 5xx (a server restart)
    # with its kept copy of the table page; a 4xx drops the kept pages.
    return render(request, "clubs/suspended.html", {"club": found.club}, status=403)


def language(get_response):
    """Draw every page in its reader's language (:func:`.languages.language_for`:
    the member's choice, else the phone's, else the club's). Answers vary with the
    cookies that choose it, and say which language they are in."""

    def middleware(request):
        code = language_for(request)
        translation.activate(code)
        request.LANGUAGE_CODE = code
        response = get_response(request)
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", code)
        return response

    return middleware
