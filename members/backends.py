"""The club's authentication backend: Django's own, reading with the user whether they
are an officer, so a page asks the database once for both (issue #14: the menu of every
page needs the answer, and it cost a query of its own)."""

import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db import connection

from members.models import OFFICERS_GROUP


@functools.cache
def _user_sql() -> str:
    """The user's row and whether they are in the officers' group, in plain SQL: the
    page asks this on every request, and building it through the ORM each time cost
    more than the query itself."""
    q = connection.ops.quote_name
    user = get_user_model()._meta
    link = user.get_field("groups").remote_field.through._meta
    group = Group._meta
    return (
        f"SELECT u.*, EXISTS (SELECT 1 FROM {q(link.db_table)} ug"
        f" JOIN {q(group.db_table)} g ON g.{q('id')} = ug.{q('group_id')}"
        f" WHERE ug.{q('user_id')} = u.{q(user.pk.column)} AND g.{q('name')} = %s)"
        f" AS {q('_is_officer')}"
        f" FROM {q(user.db_table)} u WHERE u.{q(user.pk.column)} = %s"
    )


class ClubBackend(ModelBackend):
    """:class:`~django.contrib.auth.backends.ModelBackend` whose :meth:`get_user` reads
    the officer flag in the same query (kept on the user as ``_is_officer``, where
    :func:`members.permissions.is_officer` looks first).

    ``ModelBackend`` stays listed after it in ``AUTHENTICATION_BACKENDS`` only so the
    sessions of people who logged in before this backend existed (their session names
    ``ModelBackend``) stay logged in. So that a wrong password is not checked twice, once
    by each, a login this backend refuses stops here (``PermissionDenied`` ends Django's
    loop over the backends and is reported as a failed login, as before)."""

    def get_user(self, user_id):
        found = list(get_user_model()._default_manager.raw(_user_sql(), [OFFICERS_GROUP, user_id]))
        if not found:
            return None
        user = found[0]
        user._is_officer = bool(user._is_officer)
        return user if self.user_can_authenticate(user) else None

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user
