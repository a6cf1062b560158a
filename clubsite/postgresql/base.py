"""Django's PostgreSQL backend with a health check that mostly costs no round trip.

Each worker thread keeps its connection between requests (``CONN_MAX_AGE``), and with
``CONN_HEALTH_CHECKS`` Django checks it at the start of every request before its first
query, so a connection the server dropped (a restart, an idle timeout, an officer's
``pg_terminate_backend``) is opened again instead of failing that request. Django's
check is ``SELECT 1``: one more round trip on every page, which issue #14's profile of
PostgreSQL's pages counted at about a tenth of the home page.

A server that drops a connection says so first: it sends its error ("terminating
connection …") and closes the socket, so the socket of an idle connection becomes
readable. For a connection found good in the last :data:`TRUSTED_SECONDS` (a busy
thread's), this check asks the operating system, without waiting, whether anything has
arrived since its last answer; nothing has: it is used. Django's own ``SELECT 1``
decides in every other case: anything arrived, the connection is not idle, its socket
cannot be polled, or it has been idle longer, so that a connection lost without a word
(a fail-over, a firewall forgetting it) is found out before a page needs it. Lost that
way within those seconds of its last use, it fails one request of that thread, and is
opened again for the next.
"""

import select
import time

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus

#: How recently a connection must have been found good for the poll alone to pass it.
TRUSTED_SECONDS = 10


class DatabaseWrapper(base.DatabaseWrapper):
    _good_at = float("-inf")  # when the connection was last opened or found good

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        self._good_at = time.monotonic()
        return connection

    def is_usable(self):
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        now = time.monotonic()
        if (
            now - self._good_at < TRUSTED_SECONDS
            and conn.info.transaction_status == TransactionStatus.IDLE
            and _nothing_waiting(conn)
        ):
            usable = True
        else:
            usable = super().is_usable()
        if usable:
            self._good_at = now
        return usable


def _nothing_waiting(conn) -> bool:
    """Whether nothing has arrived on ``conn``'s socket (polled, never waited for)."""
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):  # a closed socket, or a descriptor select cannot take
        return False
    return not readable
