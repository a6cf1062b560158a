"""The session engine: Django's database sessions, read with their user in one query.

Every page a logged-in person opens reads their session, then their user. The session
row (:class:`clubsite.models.ClubSession`) keeps the user's id in a column of its own,
written whenever the session is saved, so one plain SQL statement reads the session and
its user (with the officer flag) together and hands the user to the authentication
backend (:mod:`members.backends`), which would otherwise ask again (issue #14: a round
trip on every page, a quarter of a cached page's queries on PostgreSQL). A session
saved before the column existed has no user id there: its user is read the usual way.
Building these queries through the ORM each time cost more than running them.
Writing, expiry and ``clearsessions`` are Django's own."""

import functools

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from members.backends import (
    officer_flag_sql,
    remember_loaded_user,
    user_columns_sql,
    user_from_row,
)
from members.models import OFFICERS_GROUP


@functools.cache
def _load_sql(alias: str, table: str) -> str:
    q = connections[alias].ops.quote_name
    user = get_user_model()._meta
    return (
        f"SELECT s.{q('session_data')}, s.{q('user_id')}, {user_columns_sql('u')},"
        f" {officer_flag_sql('u')}"
        f" FROM {q(table)} s LEFT JOIN {q(user.db_table)} u"
        f" ON u.{q(user.pk.column)} = s.{q('user_id')}"
        f" WHERE s.{q('session_key')} = %s AND s.{q('expire_date')} > %s"
    )


def _user_id(data: dict) -> int | None:
    """The logged-in user's id in the session's data, for its own column."""
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


class SessionStore(db.SessionStore):
    @classmethod
    def get_model_class(cls):
        from clubsite.models import ClubSession

        return ClubSession

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = _user_id(data)
        return session

    def load(self):
        remember_loaded_user(None)
        if not self.session_key:  # no cookie, or one that is not a valid key
            self._session_key = None
            return {}
        alias = router.db_for_read(self.model)
        connection = connections[alias]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        sql = _load_sql(alias, self.model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(sql, [OFFICERS_GROUP, self.session_key, now])
            row = cursor.fetchone()
        if row is None:  # unknown or expired: a new session, as Django's engine does
            self._session_key = None
            return {}
        data, user_id, *user, is_officer = row
        session = self.decode(data)
        # user[0]: the user's id (the first column), None when the join found nobody
        if user_id is not None and user[0] is not None and _user_id(session) == user_id:
            remember_loaded_user(user_from_row(user, is_officer, alias))
        return session

    async def aload(self):
        remember_loaded_user(None)  # (the site runs under WSGI; never a stale user here)
        return await super().aload()
