"""The front page (what to do next, by role; a shared site's list of clubs) and the
one-tap language switch."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from clubsite import display
from clubsite.devices import remember_device
from members.clubs import languages
from members.clubs.views import club_list
from members.permissions import person_for
from members.services.people import set_language


def home(request):
    """The front page: what to do next, by role. It gives the browser its device cookie,
    so the room code typed next is judged by this phone's own tries. A shared site's
    own front page (no club) lists its clubs."""
    if getattr(request, "club", None) is None:
        return club_list(request)
    response = render(request, "home.html")
    remember_device(request, response)
    return response


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
