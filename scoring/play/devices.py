"""This browser's device: a signed ``club_device`` cookie with a random id and the
time it was given; the network address a request comes from; and the shared counters
the room-code limits keep in the cache.

The room-code limits (:mod:`scoring.play.rooms`) and the login lockout
(``clubsite.middleware``) count a device's failures by this id, so the phones behind
one router (or one proxy) are told apart. Every browser that is shown the room-code box
or the login form gets a cookie, whatever others at its address did: nothing keyed on
an address decides whether a phone may have one. A cookie counts for a day after it was
given (older ones are treated as none, so nobody can pile up devices over weeks).

When the cache cannot be reached the counters count nothing: the failure is logged once
(:func:`cache_trouble`), tries with a valid device cookie go on being checked, and tries
without one are refused until the cache answers again (they could not be counted).
"""

from __future__ import annotations

import ipaddress
import logging
import secrets
import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from ipware import get_client_ip

log = logging.getLogger(__name__)

DEVICE_COOKIE = "club_device"
#: The name a table phone was given ("Whose phone is this?": "Betty"), kept on the phone
#: and written with each change it makes ("Betty (Table 2 link)").
PHONE_NAME_COOKIE = "club_phone_name"
PHONE_NAME_MAX = 30
#: The cookies' signing salt (its old module's name: the cookies given stay valid).
DEVICE_SALT = "scoring.play.access.device"
#: The browser keeps its device cookie this long (seconds).
DEVICE_COOKIE_AGE = 365 * 24 * 3600
#: A device id counts for room codes this long after it was issued: older cookies are
#: treated as none, so nobody can pile up devices over weeks.
DEVICE_TRUST = 24 * 3600
#: A drawn page gives a cookie older than this a new one (inside the trust window).
DEVICE_REFRESH = 12 * 3600
#: Tries without a device cookie from one network address per hour; more are refused
#: without checking the code. Only the cookie-less share this count.
ROOM_CODE_TRIES_PER_ADDRESS = 30
#: After the cache failed, how long (seconds) it is taken to be down: no new log line,
#: and cookie-less tries refused.
CACHE_DOWN_FOR = 30.0

_cache_down_until = 0.0


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


def hour_key(kind: str, request) -> str:
    """A fixed one-hour window per address: the hour's number is part of the key."""
    return f"scoring:room:{kind}:{client_address(request)}:{int(time.time() // 3600)}"


def cache_trouble(exc: Exception | None = None) -> None:
    """The cache failed: say so in the log once per outage, not once per request."""
    global _cache_down_until
    now = time.monotonic()
    if now >= _cache_down_until:
        log.error(
            "The cache cannot be reached (%s): room-code limits count nothing until it "
            "answers again; tries without a device cookie are refused meanwhile.",
            exc or "no answer",
        )
    _cache_down_until = now + CACHE_DOWN_FOR


def cache_down() -> bool:
    """Whether the cache failed in the last CACHE_DOWN_FOR seconds."""
    return time.monotonic() < _cache_down_until


def cache_get(key: str):
    """A value from the cache, or None (also when the cache cannot be reached)."""
    try:
        return cache.get(key)
    except Exception as exc:  # any backend's connection error
        cache_trouble(exc)
        return None


def cache_set(key: str, value, timeout: int) -> None:
    try:
        cache.set(key, value, timeout)
    except Exception as exc:
        cache_trouble(exc)


def bump(key: str, timeout: int) -> int | None:
    """Add one to a shared counter and return it; None when the cache cannot be reached.
    ``touch`` keeps the timeout, since the database cache's ``incr`` would reset it to
    the default."""
    try:
        cache.add(key, 0, timeout)
        try:
            value = cache.incr(key)
        except ValueError:  # it expired between add and incr (or was never stored)
            cache.set(key, 1, timeout)
            value = cache.get(key)
        cache.touch(key, timeout)
    except Exception as exc:
        cache_trouble(exc)
        return None
    if not isinstance(value, int):  # a cache that answers without storing anything
        cache_trouble()
        return None
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


def tidy_phone_name(raw) -> str:
    """A phone's name as typed: printable characters, single spaces, at most
    :data:`PHONE_NAME_MAX` characters ("" when nothing is left)."""
    if not isinstance(raw, str):
        return ""
    words = "".join(c for c in raw if c.isprintable()).split()
    return " ".join(words)[:PHONE_NAME_MAX].strip()


def phone_name(request) -> str:
    """The name this phone was given, or ""."""
    return tidy_phone_name(request.COOKIES.get(PHONE_NAME_COOKIE, ""))


def remember_phone_name(response, name: str) -> None:
    response.set_cookie(
        PHONE_NAME_COOKIE,
        name,
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
