"""Django's PostgreSQL backend with a health check that costs no round trip.

Each worker thread keeps its connection between requests (``CONN_MAX_AGE``), and with
``CONN_HEALTH_CHECKS`` Django checks it at the start of every request before its first
query, so a connection the server dropped (a restart, an idle timeout, an officer's
``pg_terminate_backend``) is opened again instead of failing that request. Django's
check is ``SELECT 1``: one more round trip on every page, which issue #14's profile of
PostgreSQL's pages counted at about a tenth of the home page.

A server that drops a connection says so first: it sends its error ("terminating
connection …") and closes the socket, so the socket of an idle connection becomes
readable. This check asks the operating system, without waiting, whether anything has
arrived on an idle connection since its last answer. Nothing arrived: the connection is
as good as a ``SELECT 1`` would have found it. Anything arrived, or the connection is
not idle, or its socket cannot be polled: Django's own ``SELECT 1`` decides.
"""

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        if conn.info.transaction_status == TransactionStatus.IDLE and _nothing_waiting(conn):
            return True
        return super().is_usable()


def _nothing_waiting(conn) -> bool:
    """Whether nothing has arrived on ``conn``'s socket (polled, never waited for)."""
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):  # a closed socket, or a descriptor select cannot take
        return False
    return not readable
