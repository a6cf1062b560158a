"""A PostgreSQL connection the server dropped (a restart, an idle timeout, an officer's
``pg_terminate_backend``) is opened again before the next request's first query, so it
never fails a page: Django's ``CONN_HEALTH_CHECKS`` (settings.py), on a worker thread's
kept connection (``CONN_MAX_AGE``). PostgreSQL, real connections."""

import select
import time

import psycopg
import pytest
from django.db import InterfaceError, OperationalError, close_old_connections, connection

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pg():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    assert connection.settings_dict["ENGINE"] == "django.db.backends.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
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
