"""The shared counters the room-code limits keep in the cache (:mod:`scoring.play.rooms`),
by device (``clubsite.devices``: the browser's cookie, the client's address).

When the cache cannot be reached the counters count nothing: the failure is logged once
(:func:`cache_trouble`), tries with a valid device cookie go on being checked, and tries
without one are refused until the cache answers again (they could not be counted).
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

from clubsite.devices import client_address

log = logging.getLogger(__name__)

#: Tries without a device cookie from one network address per hour; more are refused
#: without checking the code. Only the cookie-less share this count.
ROOM_CODE_TRIES_PER_ADDRESS = 30
#: After the cache failed, how long (seconds) it is taken to be down: no new log line,
#: and cookie-less tries refused.
CACHE_DOWN_FOR = 30.0

_cache_down_until = 0.0


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
