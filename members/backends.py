"""The club's authentication backend: Django's own, reading with the user whether they
are an officer, so a page asks the database once for both (issue #14: the menu of every
page needs the answer, and it cost a query of its own).

The session engine (:mod:`clubsite.sessions`) reads the session's user in the same
query as the session, with the columns and flag built here, and leaves it with
:func:`remember_loaded_user`; :meth:`ClubBackend.get_user`, which Django's
authentication calls next with the id it found in that session, takes it instead of
asking again. Django still checks the user against the session (active, password not
changed since the login)."""

import functools
from contextvars import ContextVar

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models.sql import Query

from members.models import OFFICERS_GROUP

# The user the session engine read with this request's session: (their id, the user).
_loaded: ContextVar[tuple[str, object] | None] = ContextVar("club_loaded_user", default=None)


def officer_flag_sql(user_alias: str) -> str:
    """Whether the user ``user_alias`` is in the officers' group (one parameter: the
    group's name), as the column ``_is_officer``."""
    q = connection.ops.quote_name
    user = get_user_model()._meta
    link = user.get_field("groups").remote_field.through._meta
    group = Group._meta
    return (
        f"EXISTS (SELECT 1 FROM {q(link.db_table)} ug"
        f" JOIN {q(group.db_table)} g ON g.{q('id')} = ug.{q('group_id')}"
        f" WHERE ug.{q('user_id')} = {user_alias}.{q(user.pk.column)}"
        f" AND g.{q('name')} = %s) AS {q('_is_officer')}"
    )


@functools.cache
def user_columns_sql(user_alias: str) -> str:
    """Every column of the user ``user_alias``, in the order :func:`user_from_row`
    takes them."""
    q = connection.ops.quote_name
    return ", ".join(f"{user_alias}.{q(f.column)}" for f in get_user_model()._meta.concrete_fields)


@functools.cache
def _user_fields() -> tuple[list[str], list]:
    """The user's field names and their columns, in the order of
    :func:`user_columns_sql`."""
    model = get_user_model()
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], [f.get_col(model._meta.db_table) for f in fields]


def user_from_row(values, is_officer, alias: str = DEFAULT_DB_ALIAS) -> object:
    """A user from the values of :func:`user_columns_sql` and the officer flag, with the
    same field values the ORM would give (its converters: on SQLite, say, aware
    datetimes and booleans), converted with this thread's connection, which keeps
    them (found once per connection object, never shared between threads)."""
    model = get_user_model()
    names, columns = _user_fields()
    db = connections[alias]  # this thread's own connection, which keeps its converters
    reader = getattr(db, "_club_user_reader", None)
    if reader is None:
        compiler = db.ops.compiler("SQLCompiler")(Query(model), db, alias)
        reader = db._club_user_reader = (compiler, compiler.get_converters(columns))
    compiler, converters = reader
    if converters:
        values = next(compiler.apply_converters([values], converters))
    user = model.from_db(alias, names, list(values))
    user._is_officer = bool(is_officer)
    return user


def remember_loaded_user(user=None) -> None:
    """The user read with this request's session (None: no user came with it); the
    session engine calls it on every session read, and every request's end empties it
    (:func:`forget_loaded_user`), so nothing is left over for a later request."""
    _loaded.set(None if user is None else (str(user.pk), user))


def forget_loaded_user(**kwargs) -> None:
    """The end of a request (Django's ``request_finished``): the user read with its
    session is not kept for the thread's next request."""
    _loaded.set(None)


request_finished.connect(forget_loaded_user, dispatch_uid="members.backends.forget_loaded_user")


def _take_loaded_user(user_id):
    loaded = _loaded.get()
    if loaded is None:
        return None
    _loaded.set(None)  # used once
    return loaded[1] if loaded[0] == str(user_id) else None


@functools.cache
def _user_sql() -> str:
    """The user's row and whether they are in the officers' group, in plain SQL (the
    same columns the session engine reads, see :func:`user_from_row`): the page asks
    this on every request whose session did not bring its user, and building it
    through the ORM cost more than the query itself."""
    q = connection.ops.quote_name
    user = get_user_model()._meta
    return (
        f"SELECT {user_columns_sql('u')}, {officer_flag_sql('u')}"
        f" FROM {q(user.db_table)} u WHERE u.{q(user.pk.column)} = %s"
    )


class ClubBackend(ModelBackend):
    """:class:`~django.contrib.auth.backends.ModelBackend` whose :meth:`get_user` reads
    the officer flag in the same query (kept on the user as ``_is_officer``, where
    :func:`members.permissions.is_officer` looks first), or takes the user the session
    engine read with the session.

    ``ModelBackend`` stays listed after it in ``AUTHENTICATION_BACKENDS`` only so the
    sessions of people who logged in before this backend existed (their session names
    ``ModelBackend``) stay logged in. So that a wrong password is not checked twice, once
    by each, a login this backend refuses stops here (``PermissionDenied`` ends Django's
    loop over the backends and is reported as a failed login, as before)."""

    def get_user(self, user_id):
        user = _take_loaded_user(user_id)
        if user is None:
            with connection.cursor() as cursor:
                cursor.execute(_user_sql(), [OFFICERS_GROUP, user_id])
                row = cursor.fetchone()
            if row is None:
                return None
            *values, is_officer = row
            user = user_from_row(values, is_officer, connection.alias)
        return user if self.user_can_authenticate(user) else None

    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user
