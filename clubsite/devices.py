"""This browser's device: a signed ``club_device`` cookie with a random id and the
time it was given, and the network address a request comes from; and the session key of
a device's table grant. Frame-level (it imports nothing of the project): the login
lockout (``clubsite.middleware.login_device``), the room codes (``scoring.play.rooms``)
and the club's pages all use it.

The room-code limits and the login lockout count a device's failures by this id, so the
phones behind one router (or one proxy) are told apart. Every browser that is shown the
room-code box or the login form gets a cookie, whatever others at its address did:
nothing keyed on an address decides whether a phone may have one. A cookie counts for a
day after it was given (older ones are treated as none, so nobody can pile up devices
over weeks).
"""

from __future__ import annotations

import ipaddress
import secrets
import time

from django.conf import settings
from django.core import signing
from ipware import get_client_ip

DEVICE_COOKIE = "club_device"
#: The cookies' signing salt (its old module's name: the cookies given stay valid).
DEVICE_SALT = "scoring.play.access.device"
#: The browser keeps its device cookie this long (seconds).
DEVICE_COOKIE_AGE = 365 * 24 * 3600
#: A device id counts for room codes this long after it was issued: older cookies are
#: treated as none, so nobody can pile up devices over weeks.
DEVICE_TRUST = 24 * 3600
#: A drawn page gives a cookie older than this a new one (inside the trust window).
DEVICE_REFRESH = 12 * 3600
#: The session key of this device's grant to one table on one day (a table link or a
#: room code; ``scoring.play.access`` gives and reads it, the club's offline app reads it).
#: Its value is unchanged since it lived in ``scoring.play.access``: grants given stay valid.
GRANT_KEY = "scoring_table_grant"


def client_ip(request) -> str | None:
    """The client's IP address: django-ipware with the settings of django-axes
    (``AXES_IPWARE_*``, set from ``TRUSTED_PROXY_COUNT``): behind the trusted proxies,
    the address the nearest of them was reached from; without proxies, REMOTE_ADDR. A
    request without the proxy's header falls back to REMOTE_ADDR. None when neither is
    an IP address. django-axes reads it too (``AXES_CLIENT_IP_CALLABLE``)."""
    found = getattr(request, "_club_client_ip", False)
    if found is not False:
        return found
    address, _ = get_client_ip(
        request,
        proxy_order=getattr(settings, "AXES_IPWARE_PROXY_ORDER", "left-most"),
        proxy_count=getattr(settings, "AXES_IPWARE_PROXY_COUNT", None),
        request_header_order=getattr(settings, "AXES_IPWARE_META_PRECEDENCE_ORDER", None)
        or ("REMOTE_ADDR",),
        strict=False,
    )
    if address is None:
        try:
            address = str(ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")))
        except ValueError:
            address = None
    request._club_client_ip = address
    return address


def client_address(request) -> str:
    """The client's address for a counter's key (see :func:`client_ip`)."""
    return client_ip(request) or "unknown"


def _read_device(request) -> tuple[str, float] | None:
    """The device id and issue time of this browser's cookie, if valid and trusted."""
    try:
        data = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_SALT, max_age=DEVICE_COOKIE_AGE
        )
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    device, issued = data.get("id"), data.get("t")
    if not isinstance(device, str) or not isinstance(issued, (int, float)):
        return None
    if not 0 <= time.time() - issued < DEVICE_TRUST:
        return None
    return device, issued


def device_id(request) -> str | None:
    """This browser's trusted device id, or None (no cookie, forged, or too old)."""
    found = _read_device(request)
    return found[0] if found else None


def remember_device(request, response) -> None:
    """Give this browser a device cookie when a page with the room-code box (or the
    login form) is drawn, unless it has a recent one. Never refused: a script that drops
    its cookies gets new ones, but each new cookie has only its own few tries."""
    found = _read_device(request)
    if found and time.time() - found[1] < DEVICE_REFRESH:
        return
    value = signing.dumps({"id": secrets.token_urlsafe(16), "t": time.time()}, salt=DEVICE_SALT)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
