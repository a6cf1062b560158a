"""This browser's device: a signed ``club_device`` cookie with a random id and the
time it was given, and the network address it comes from.

The room-code throttle (:mod:`scoring.play.rooms`) and the login lockout
(``clubsite.middleware``) count a device's failures by this id, so a club's phones
behind one router are told apart. A cookie counts for a day after it was given (older
ones are treated as none, so nobody can pile up devices over weeks); one address is
given at most DEVICES_PER_ADDRESS_HOUR new ones an hour, and none in answer to a
room-code POST once it typed too many wrong codes this hour.
"""

from __future__ import annotations

import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache

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
#: New device cookies one address may be given per hour.
DEVICES_PER_ADDRESS_HOUR = 300
#: Wrong codes from one network address per hour before cookie-less tries are refused.
ROOM_CODE_TRIES_PER_ADDRESS = 30


def client_address(request) -> str:
    """The network address the request came from (as the server sees it)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def hour_key(kind: str, request) -> str:
    """A fixed one-hour window per address: the hour's number is part of the key."""
    return f"scoring:room:{kind}:{client_address(request)}:{int(time.time() // 3600)}"


def bump(key: str, timeout: int) -> int:
    """Add one to a shared counter and return it. ``touch`` keeps the timeout, since
    the database cache's ``incr`` would reset it to the default."""
    cache.add(key, 0, timeout)
    try:
        value = cache.incr(key)
    except ValueError:  # it expired between add and incr
        cache.set(key, 1, timeout)
        value = 1
    cache.touch(key, timeout)
    return value


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
    """Give this browser a device cookie when a page with the room-code box is drawn,
    unless it has a recent one; at most DEVICES_PER_ADDRESS_HOUR new ones per address.
    An answer to a room-code POST gives none once the address is over its limit, so a
    script that drops cookies cannot spend the address's new devices."""
    found = _read_device(request)
    if found and time.time() - found[1] < DEVICE_REFRESH:
        return
    if request.method == "POST" and address_over_limit(request):
        return
    if bump(hour_key("devices", request), 3600) > DEVICES_PER_ADDRESS_HOUR:
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


def address_over_limit(request) -> bool:
    """Whether this network address typed too many wrong room codes this hour."""
    return (cache.get(hour_key("fails", request)) or 0) >= ROOM_CODE_TRIES_PER_ADDRESS
