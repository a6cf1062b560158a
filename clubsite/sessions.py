"""The session engine: Django's database sessions, read with one prepared statement.

Every page a logged-in person opens reads their session first. Django's own engine builds
that query through the ORM each time, which cost more than the query (issue #14's profile
of the home page). This one reads the same row with the same conditions in plain SQL;
writing, expiry and ``clearsessions`` are Django's own."""

import functools

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


@functools.cache
def _load_sql(alias: str, table: str) -> str:
    q = connections[alias].ops.quote_name
    return (
        f"SELECT {q('session_data')} FROM {q(table)}"
        f" WHERE {q('session_key')} = %s AND {q('expire_date')} > %s"
    )


class SessionStore(db.SessionStore):
    def load(self):
        if not self.session_key:  # no cookie, or one that is not a valid key
            self._session_key = None
            return {}
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(_load_sql(alias, self.model._meta.db_table), [self.session_key, now])
            row = cursor.fetchone()
        if row is None:  # unknown or expired: a new session, as Django's engine does
            self._session_key = None
            return {}
        return self.decode(row[0])
