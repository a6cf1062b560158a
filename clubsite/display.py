"""How this phone draws the pages: "Larger" (every control at least 48 × 48 px, the
running totals and the meld requirement at least 32 px) and "High contrast" (text at
7:1, borders at 4.5:1), each switched on or off by a tap and remembered per device in
a cookie, the way the language switch is (no JavaScript needed).

The server reads the cookie and puts the switches' classes on ``<html>`` (base.html),
so a page is drawn the right way from its first paint. The CSS is in site.css and
scoring.css (``html.larger``, ``html.contrast``).
"""

from __future__ import annotations

from django.conf import settings

#: The cookie that keeps this phone's switches: the names of those that are on.
COOKIE_NAME = "club_display"
COOKIE_AGE = 365 * 24 * 3600

LARGER = "larger"
CONTRAST = "contrast"
SWITCHES = (LARGER, CONTRAST)


def chosen(request) -> list[str]:
    """The switches this phone has on (an unknown word in the cookie is ignored)."""
    words = set(request.COOKIES.get(COOKIE_NAME, "").split())
    return [name for name in SWITCHES if name in words]


def remember(request, response) -> None:
    """Set the switches a tap posted (``larger`` / ``contrast`` = "1" on, "0" off) and
    keep the others as they are. A tap says the state it wants, so two taps of the same
    button count once."""
    on = set(chosen(request))
    for name in SWITCHES:
        value = request.POST.get(name)
        if value == "1":
            on.add(name)
        elif value == "0":
            on.discard(name)
    response.set_cookie(
        COOKIE_NAME,
        " ".join(name for name in SWITCHES if name in on),
        max_age=COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
