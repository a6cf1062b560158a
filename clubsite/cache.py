"""The shared cache when it is Redis: Django's own backend, made to fail soft.

Everything the site keeps in the cache can be read again from the database (the
results pages' drawn bodies, the login sessions' copies) or may start again from zero
(the room-code attempt counters), so a Redis that stops answering must cost speed, not
pages. Django's ``RedisCache`` raises redis-py's ``ConnectionError`` from every call,
and its ``cached_db`` session engine catches that only when it saves a session (not
when it reads one, refills the copy, checks or deletes it), so with Redis gone almost
every page answered 500.

:class:`FailSoftRedisCache` is ``RedisCache`` with a client whose calls, when Redis
cannot be reached or does not answer in time, behave as on an empty cache: ``get``
answers the default, ``add`` and ``touch`` False, ``incr`` raises ``ValueError`` (no
such key, as Django's backends do for a missing key), writes are dropped. Other Redis
errors (a wrong command, a full Redis refusing writes) still raise: they are bugs or
a misconfiguration to see, not an outage.

Why a small subclass rather than django-redis (``IGNORE_EXCEPTIONS``): django-redis
replaces Django's backend, client and settings with its own, its ignored calls answer
None (so ``incr`` would give the room-code counters None where callers compare a
number), and it logs every failed call. Here the site keeps Django's backend and gains:

- one warning per process when Redis goes away and one when it is back, not one per
  call;
- after a failed call, this process leaves Redis alone for :data:`RETRY_AFTER`
  seconds (answering as an empty cache at once), so a Redis that does not answer
  costs a page at most one short timeout every few seconds, not one per call (a
  page makes several);
- when Redis is back, this process deletes all of the site's keys (its
  ``KEY_PREFIX``) before anything else is asked of it. A Redis that was only out of
  reach still holds the copies of sessions as they were before the outage, and any
  process may have changed them meanwhile (a logout, a new login, a table grant)
  without being able to write the copies: each process drops them, since it cannot
  know what the others changed (the results pages' bodies need it not: their keys
  carry the results version they were drawn for). A process that finds Redis back
  after another has, drops what that one stored since: pages are drawn and sessions
  read from the database again, once per process and outage. (A write a process
  skips in the few seconds it still counts Redis as away after another found it back
  is undone by its own deletion, at its next call.)

The timeouts are set in ``settings.CACHES`` (``socket_connect_timeout`` and
``socket_timeout``, passed to redis-py's connection pool).
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: After a failed call, the seconds this process answers as an empty cache without
#: asking Redis; then one call tries again.
RETRY_AFTER = 5.0

#: What "Redis cannot be reached or does not answer in time" is in redis-py.
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class Outage:
    """Whether one Redis is out of this process's reach, shared by the threads (Django
    gives each thread its own cache object, so this cannot live on it)."""

    def __init__(self, where: str, pattern: str):
        self.where = where
        self.pattern = pattern  # all of the site's keys, for SCAN MATCH
        self.lock = threading.Lock()
        self.since: float | None = None  # time.monotonic() of the first failure
        self.retry_at = 0.0

    def may_ask(self) -> bool:
        """Whether a call may go to Redis: always while it answers; while it does not,
        one call (of any thread) every RETRY_AFTER seconds."""
        if self.since is None:
            return True
        with self.lock:
            now = time.monotonic()
            if self.since is None or now >= self.retry_at:
                self.retry_at = now + RETRY_AFTER
                return True
            return False

    def failed(self, error: Exception) -> None:
        with self.lock:
            now = time.monotonic()
            self.retry_at = now + RETRY_AFTER
            if self.since is None:
                self.since = now
                logger.warning(
                    "The cache at %s cannot be reached (%s): pages are read from the "
                    "database until it is back; this process tries it again every %g s.",
                    self.where,
                    error,
                    RETRY_AFTER,
                )

    def back(self, client: RedisCacheClient) -> None:
        """Whether Redis answers again: delete all the site's keys from it (what any
        process may have changed meanwhile), then say so. Raises redis-py's error when
        it does not answer."""
        with self.lock:
            since = self.since
        redis = client.get_client(None, write=True)
        dropped, batch = 0, []
        for key in redis.scan_iter(match=self.pattern, count=1000):
            batch.append(key)
            if len(batch) == 1000:
                dropped += redis.delete(*batch)
                batch = []
        if batch:
            dropped += redis.delete(*batch)
        with self.lock:
            if self.since is None:
                return
            self.since = None
        logger.warning(
            "The cache at %s answers again after %.0f s; the site's %d keys were "
            "deleted from it (what any process changed meanwhile).",
            self.where,
            time.monotonic() - since,
            dropped,
        )


_outages: dict[tuple, Outage] = {}
_outages_lock = threading.Lock()


def outage_of(servers, pattern: str) -> Outage:
    """The one :class:`Outage` of these servers and keys in this process."""
    key = (tuple(servers), pattern)
    with _outages_lock:
        if key not in _outages:
            _outages[key] = Outage(", ".join(_redacted(s) for s in servers), pattern)
        return _outages[key]


def _redacted(url: str) -> str:
    """A Redis URL without its password, for the log."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        rest = rest.rsplit("@", 1)[1]
    return f"{scheme}{sep}{rest}"


class FailSoftClient(RedisCacheClient):
    """Django's Redis client whose calls behave as on an empty cache while Redis is out
    of reach (see the module's docstring)."""

    def __init__(self, servers, *, keys="*", **options):
        super().__init__(servers, **options)
        self.outage = outage_of(self._servers, keys)

    def _call(self, method, *args, missing=None):
        """``method(*args)``, or ``missing`` when Redis is out of reach."""
        outage = self.outage
        if outage.may_ask():
            try:
                if outage.since is not None:
                    outage.back(self)
                return method(*args)
            except UNREACHABLE as error:
                outage.failed(error)
        return missing

    def add(self, key, value, timeout):
        return self._call(super().add, key, value, timeout, missing=False)

    def get(self, key, default):
        return self._call(super().get, key, default, missing=default)

    def set(self, key, value, timeout):
        self._call(super().set, key, value, timeout)

    def touch(self, key, timeout):
        return self._call(super().touch, key, timeout, missing=False)

    def delete(self, key):
        return self._call(super().delete, key, missing=False)

    def get_many(self, keys):
        return self._call(super().get_many, list(keys), missing={})

    def has_key(self, key):
        return self._call(super().has_key, key, missing=False)

    def incr(self, key, delta):
        missing = object()
        value = self._call(super().incr, key, delta, missing=missing)
        if value is missing:  # as Django's backends answer for a key they do not have
            raise ValueError(f"Key '{key}' not found.")
        return value

    def set_many(self, data, timeout):
        self._call(super().set_many, data, timeout)

    def delete_many(self, keys):
        keys = list(keys)
        self._call(super().delete_many, keys)

    def clear(self):
        return self._call(super().clear, missing=False)  # else emptied when Redis is back


class FailSoftRedisCache(RedisCache):
    """Django's ``RedisCache`` with :class:`FailSoftClient`: with Redis out of reach the
    site reads through to the database instead of failing."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = FailSoftClient
        # The site's keys (make_key: "prefix:version:key"), what an emptying deletes.
        keys = f"{self.key_prefix}:*" if self.key_prefix else "*"
        self._options = {**self._options, "keys": keys}
