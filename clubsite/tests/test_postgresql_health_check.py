"""The PostgreSQL backend's health check (clubsite/postgresql/base.py): a connection the
server dropped is opened again before the next request's first query, and a healthy idle
connection is passed without a round trip (PostgreSQL, real connections)."""

import contextlib
import select
import time
from unittest import mock

import psycopg
import pytest
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.db.backends.postgresql import base as postgresql

from clubsite.postgresql import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pg():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    assert connection.settings_dict["ENGINE"] == "clubsite.postgresql"
    connection.close()  # a new connection: just found good, whatever ran before
    connection.ensure_connection()
    return connection


def _server_drops(conn) -> None:
    """Another session ends ``conn``'s backend, as a restart or an officer would; returns
    once the server's goodbye has reached ``conn``'s socket."""
    pid = conn.connection.info.backend_pid
    other = psycopg.connect(**conn.get_connection_params(), autocommit=True)
    try:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if select.select([conn.connection.fileno()], [], [], 0.05)[0]:
            return
    raise AssertionError("the server's goodbye never arrived")


def _new_request() -> None:
    """What the start of a request does to the kept connection (Django's request_started
    handler), with its health check due again."""
    close_old_connections()


def test_a_connection_the_server_dropped_is_opened_again_before_the_next_page(pg):
    old_pid = pg.connection.info.backend_pid
    _server_drops(pg)
    _new_request()
    with pg.cursor() as cursor:  # the page's first query
        cursor.execute("SELECT pg_backend_pid()")
        new_pid = cursor.fetchone()[0]
    assert new_pid != old_pid


def test_without_the_health_check_the_dropped_connection_fails_the_page(pg):
    """The case the check exists for: the same drop, unchecked, fails the first query."""
    _server_drops(pg)
    pg.health_check_enabled = False
    try:
        _new_request()
        with pytest.raises((OperationalError, InterfaceError)), pg.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        pg.health_check_enabled = True
        pg.close()


def test_a_healthy_idle_connection_is_passed_without_a_round_trip(pg):
    kept = pg.connection
    with mock.patch.object(type(kept), "cursor", side_effect=AssertionError("a round trip")):
        assert pg.is_usable()
    assert pg.connection is kept


def test_a_connection_in_a_transaction_is_checked_by_a_query(pg):
    """Not idle (an error left it in a failed transaction, say): Django's own SELECT 1
    decides, so a connection that cannot answer is never passed."""
    pg.connection.execute("BEGIN")
    with contextlib.suppress(psycopg.errors.DivisionByZero):
        pg.connection.execute("SELECT 1/0")
    assert not pg.is_usable()  # SELECT 1 in a failed transaction fails
    pg.connection.execute("ROLLBACK")
    assert pg.is_usable()


def test_a_connection_idle_for_longer_is_checked_by_a_query(pg):
    """Lost without a word (a fail-over), a connection's socket stays quiet: one idle
    longer than the trusted seconds is checked by Django's SELECT 1 all the same."""
    pg._good_at -= base.TRUSTED_SECONDS + 1
    with mock.patch.object(postgresql.DatabaseWrapper, "is_usable", return_value=False) as asked:
        assert not pg.is_usable()
    asked.assert_called_once()


def test_a_healthy_connection_with_something_waiting_is_checked_and_kept(pg):
    """Anything that arrived unasked (here a notification) makes SELECT 1 decide: the
    connection answers it and is kept."""
    kept = pg.connection
    kept.execute("LISTEN club_health_check")
    other = psycopg.connect(**pg.get_connection_params(), autocommit=True)
    try:
        other.execute("NOTIFY club_health_check")
    finally:
        other.close()
    assert select.select([kept.fileno()], [], [], 10)[0]  # the notification arrived
    with mock.patch.object(postgresql.DatabaseWrapper, "is_usable", autospec=True) as asked:
        asked.side_effect = lambda self: True
        assert pg.is_usable()
    asked.assert_called_once()
    assert pg.is_usable() and pg.connection is kept
    kept.execute("UNLISTEN *")
