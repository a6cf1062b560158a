"""Test fixtures shared by every app (pytest loads this root conftest for every test).

Every test that uses the database runs inside the club the migrations made (``club``):
its django-scopes scope is active, so the test's queries see that club's rows and the
rows it makes belong to it, as a request of that club would (pretix's tests enter
their organizer's scope the same way). A test of several clubs makes the others with
``other_club`` and enters their scope with ``members.clubs.scope.in_club``.

Personas, built once per test: an officer, a member (with a Person record), an
outsider (anonymous). A table's score keeper by link is built in `scoring`'s tests,
since the link belongs to a table.
"""

import os

import pytest

from testsupport import (
    MISSING_CHROMIUM,
    chromium_path,
    first_club,
    in_ci,
    restore_migration_data,
)


def pytest_configure(config):
    # Playwright's sync API runs an event loop in the test thread; Django's ORM
    # refuses that unless told it is safe (it is: the tests are not async).
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # Making the test databases reads every club's rows (django-scopes' advice).
    from django.test import utils
    from django_scopes import scopes_disabled

    utils.setup_databases = scopes_disabled()(utils.setup_databases)


def pytest_sessionstart(session):
    """The translation catalogs compiled (as `make test` does), once, before the workers
    start: a plain `pytest` after editing a catalog reads the edited words."""
    if hasattr(session.config, "workerinput"):
        return
    from django.core.management import call_command

    call_command("compile_catalogs", verbosity=0)


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Each test starts and ends in the site's default language: a page drawn in
    Spanish leaves its language active in the thread, which the next test's own
    messages must not inherit."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def _tasks_run_at_once():
    """Background tasks run inside the call that enqueues them (Django's immediate
    backend), so most tests see a task's effect at once. The tests of the worker itself
    use the ``db_tasks`` fixture: the database queue, run by ``db_worker``."""
    from django.test import override_settings

    with override_settings(TASKS=IMMEDIATE_TASKS):
        yield


@pytest.fixture(autouse=True, scope="session")
def _exports_in_a_temporary_folder(tmp_path_factory):
    """The league workbooks the tests ask for are kept in a folder of the test run, not
    the checkout's ``exports/``."""
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "exports": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path_factory.mktemp("exports"), "base_url": None},
        },
    }


@pytest.fixture
def db_tasks(_tasks_run_at_once):
    """Tasks wait in the database queue until the test runs the worker
    (``testsupport.run_worker``)."""
    from django.test import override_settings

    with override_settings(TASKS=DATABASE_TASKS):
        yield


def pytest_collection_modifyitems(config, items):
    """Browser tests need the system Chromium. Outside CI, where it is missing, they are
    skipped with a reason; in CI a missing Chromium is a failure, never a skip."""
    if chromium_path() or in_ci():
        return
    skip = pytest.mark.skip(reason=MISSING_CHROMIUM)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright launches the system Chromium; it never downloads a browser.
    In CI a missing Chromium fails the browser tests."""
    if not chromium_path():
        pytest.fail(MISSING_CHROMIUM)
    return {
        **browser_type_launch_args,
        "executable_path": chromium_path(),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
        ],
    }


@pytest.fixture(autouse=True, scope="session")
def _require_postgres(django_db_setup, django_db_blocker):
    """In CI's PostgreSQL run, make sure the suite really runs on PostgreSQL."""
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        from django.db import connection

        assert connection.vendor == "postgresql", (
            f"REQUIRE_POSTGRES=1 but the tests run on {connection.vendor}; set DATABASE_URL"
        )


#: Fixtures that give a test the database (where the default shared cache lives).
_DB_FIXTURES = {"db", "transactional_db", "live_server", "django_db_reset_sequences"}


@pytest.fixture(autouse=True)
def _fresh_shared_cache(request):
    """Every test that uses the database starts and ends with an empty shared cache
    (results bodies, room-code attempt counters): the cache is a
    database table, or Redis, that outlives one test's transaction. A transactional
    test starts with the rows the data migrations wrote."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    if marker is None and not names & _DB_FIXTURES:
        yield
        return
    transactional = (
        (marker is not None and marker.kwargs.get("transaction"))
        or "transactional_db" in names
        or "live_server" in names
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    if transactional or first_club() is None:
        # A transactional test starts from what the previous one flushed; so does any
        # test an xdist worker runs after one (pytest-django orders them last per
        # worker's share, not across the whole run).
        restore_migration_data()
    from django.core.cache import cache

    from members.clubs.scope import in_club
    from scoring.play import devices

    devices._cache_down_until = 0.0  # an outage a test made is not the next test's
    cache.clear()
    # The club of the test client's address is kept, as on a running site: a request's
    # query budget is its own work, not the first lookup after the clubs changed
    # (members.clubs.addresses; clubsite/tests/test_club_address_cache.py tests that).
    from django.test import RequestFactory

    from members.clubs.addresses import find_club_cached

    find_club_cached(RequestFactory().get("/"))
    with in_club(first_club()):
        yield
    cache.clear()
    devices._cache_down_until = 0.0


@pytest.fixture
def club(db):
    """The tests' club (the one the migrations made), the very object its active scope
    holds: a change saved to it is what the code under test sees."""
    from members.clubs.scope import current_club

    return current_club()


@pytest.fixture
def other_club(db):
    """A second club, "south", with its settings; nothing of it is in scope."""
    from members.clubs.services import create_club

    return create_club("south", "South Club")


@pytest.fixture
def officer_user(db, django_user_model):
    from members.permissions import make_officer

    user = django_user_model.objects.create_user(
        "officer", password="officer-pass-123", first_name="Olive", last_name="Officer"
    )
    make_officer(user)
    return user


@pytest.fixture
def member_person(db, django_user_model):
    from members.models import Person

    user = django_user_model.objects.create_user("member", password="member-pass-123")
    return Person.objects.create(
        kind=Person.Kind.MEMBER,
        membership_number="9001",
        first_name="Mary",
        last_name="Member",
        email="mary@example.org",
        phone="555-0101",
        user=user,
    )


@pytest.fixture
def member_user(member_person):
    return member_person.user


@pytest.fixture
def officer_client(client, officer_user):
    client.force_login(officer_user)
    return client


@pytest.fixture
def member_client(client, member_user):
    client.force_login(member_user)
    return client


@pytest.fixture
def outsider_client(db, client):
    """Anonymous. Every page reads the database (the club the address is for)."""
    return client


@pytest.fixture
def journey(page, live_server, request):
    """A phone-sized browser page on the live test server, with screenshots and axe;
    any Content-Security-Policy message in the browser's console fails the journey."""
    from testsupport.browser import PHONE, Journey

    page.set_viewport_size(PHONE)
    page.set_default_timeout(15_000)
    journey = Journey(page, live_server.url, request.node.name)
    yield journey
    journey.assert_no_csp_violations()
