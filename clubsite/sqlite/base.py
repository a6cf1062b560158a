"""Django's SQLite backend with SQLite's query planner kept informed, as SQLite
recommends for long-lived databases (https://sqlite.org/lang_analyze.html#recommended_usage_pattern):

- each connection runs ``PRAGMA optimize=0x10002`` when it opens (SQLite 3.46 and later
  then look at every table and analyze those whose statistics are missing or stale) and
  ``PRAGMA optimize`` before it closes (every SQLite: the tables this connection read
  that would gain from statistics are analyzed); a worker's connection lives
  ``CONN_MAX_AGE`` seconds, so this runs about once a minute per thread and costs nearly
  nothing when the statistics are current;
- ``PRAGMA analysis_limit`` keeps each ANALYZE to a sample of every index, so a large
  table is analyzed in milliseconds;
- ``migrate`` runs ``ANALYZE`` (``clubsite.apps``), so an upgraded database plans well
  from its first request.

Without statistics the planner guesses, and it chose the club's ``club_id`` index for
every club-scoped read: it read the club's whole history (the room board's fingerprint
took 3 ms on a new league and 69 ms on one twenty times larger; 0.012 ms after ANALYZE).
"""

from django.db.backends.sqlite3 import base

#: Rows ANALYZE samples per index (https://sqlite.org/pragma.html#pragma_analysis_limit).
ANALYSIS_LIMIT = 1000


#: Milliseconds ``optimize`` waits for another writer: statistics can wait for the next
#: connection, a request cannot.
WAIT_MS = 50


def optimize(connection, at_open: bool = False, wait_ms: int = 20_000) -> None:
    """``PRAGMA optimize`` on a raw sqlite3 connection (``0x10002`` at open: every table),
    waiting at most :data:`WAIT_MS` for the write lock; ``wait_ms``: the connection's
    own busy timeout, put back after. Nothing happens when the database is busy."""
    try:
        connection.execute(f"PRAGMA busy_timeout={WAIT_MS}")
        connection.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
        connection.execute("PRAGMA optimize=0x10002" if at_open else "PRAGMA optimize")
    except base.Database.Error:  # busy or read-only: the next connection will
        pass
    finally:
        connection.execute(f"PRAGMA busy_timeout={wait_ms}")


def optimize_at_open(sender, connection, **kwargs) -> None:
    """``connection_created``: a new SQLite connection to a file runs ``PRAGMA optimize``
    (Django's own backend; the signal is connected in ``clubsite.apps``)."""
    if connection.vendor == "sqlite" and not connection.is_in_memory_db():
        optimize(connection.connection, at_open=True, wait_ms=20_000)
