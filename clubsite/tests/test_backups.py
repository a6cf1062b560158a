"""Backup and restore round trip (SQLite's online backup API)."""

import sqlite3

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_scopes import scopes_disabled

from members.models import OFFICERS_GROUP

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite backups: this run uses PostgreSQL (README gives pg_dump)")


def test_backup_then_restore_round_trip(sqlite_only, tmp_path):
    # The groups the migrations made (Officers), when this test finds them.
    made = set(Group.objects.values_list("name", flat=True))
    Group.objects.create(name="Before the backup")
    call_command("backup", str(tmp_path / "club.sqlite3"))
    backup_file = tmp_path / "club.sqlite3"
    assert backup_file.is_file()
    with sqlite3.connect(backup_file) as copy:
        names = {row[0] for row in copy.execute("SELECT name FROM auth_group")}
    assert names == {"Before the backup", *made}

    Group.objects.create(name="After the backup")
    Group.objects.filter(name="Before the backup").delete()

    call_command("restore_backup", str(backup_file), "--yes")
    assert set(Group.objects.values_list("name", flat=True)) == {"Before the backup", *made}


def test_backup_into_a_folder_gets_a_time_stamped_name(sqlite_only, tmp_path, capsys):
    call_command("backup", str(tmp_path / "nightly"))
    files = list((tmp_path / "nightly").glob("club-*.sqlite3"))
    assert len(files) == 1
    assert str(files[0]) in capsys.readouterr().out


def test_backup_refuses_to_overwrite(sqlite_only, tmp_path):
    target = tmp_path / "club.sqlite3"
    call_command("backup", str(target))
    with pytest.raises(CommandError, match="already exists"):
        call_command("backup", str(target))


def test_restore_needs_confirmation(sqlite_only, tmp_path):
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore_backup", str(tmp_path / "x.sqlite3"))


def test_restore_refuses_a_file_that_is_not_a_backup(sqlite_only, tmp_path):
    bogus = tmp_path / "notes.sqlite3"
    bogus.write_text("these are not the scores you are looking for")
    Group.objects.create(name="Kept")
    with pytest.raises(CommandError, match="not"):
        call_command("restore_backup", str(bogus), "--yes")
    assert Group.objects.filter(name="Kept").exists()


def _backup(tmp_path, name="club.sqlite3"):
    call_command("backup", str(tmp_path / name))
    return tmp_path / name


def _refused(path, match):
    """The restore is refused with a message matching ``match``, and nothing changes."""
    Group.objects.create(name="Kept")
    with pytest.raises(CommandError, match=match) as error:
        call_command("restore_backup", str(path), "--yes")
    assert f"{path} was not restored, and nothing was changed: " in str(error.value)
    assert list(Group.objects.exclude(name=OFFICERS_GROUP).values_list("name", flat=True)) == [
        "Kept"
    ]
    return str(error.value)


def test_restore_refuses_another_programs_database(sqlite_only, tmp_path):
    shop = tmp_path / "shop.sqlite3"
    with sqlite3.connect(shop) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT, price REAL)")
        db.execute("INSERT INTO orders (item, price) VALUES ('tea', 2.5)")
    _refused(shop, "no django_migrations table")


def test_restore_refuses_a_django_database_of_another_site(sqlite_only, tmp_path):
    """Only a django_migrations table (and a shop's orders): not this site's."""
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute(
            "CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app TEXT, name TEXT, "
            "applied TEXT)"
        )
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('shop', '0001_initial', '2026-01-01')"
        )
        db.execute("CREATE TABLE shop_order (id INTEGER PRIMARY KEY, item TEXT)")
    message = _refused(other, "none of this site's own migrations")
    assert "(members)" in message


def test_restore_refuses_a_backup_from_a_newer_version(sqlite_only, tmp_path):
    newer = _backup(tmp_path)
    with sqlite3.connect(newer) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) "
            "VALUES ('scoring', '0999_from_the_future', '2030-01-01')"
        )
    message = _refused(newer, "newer version")
    assert "scoring.0999_from_the_future" in message


def test_restore_refuses_a_backup_with_a_table_missing(sqlite_only, tmp_path):
    broken = _backup(tmp_path)
    with sqlite3.connect(broken) as db:
        db.execute("DROP TABLE scoring_teamhand")
    assert "scoring_teamhand" in _refused(broken, "tables of this site are missing")


def test_restore_refuses_a_corrupted_backup(sqlite_only, tmp_path):
    corrupt = _backup(tmp_path)
    data = bytearray(corrupt.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = b"\xff" * 4096
    data[:16] = b"not sqlite at all"[:16]
    corrupt.write_bytes(bytes(data))
    _refused(corrupt, "it is not an SQLite backup of this site")


def _migrate(targets=None):
    """Migrate as ``manage.py migrate`` does: outside any club's scope."""
    with scopes_disabled():
        executor = MigrationExecutor(connection)
        executor.migrate(targets or executor.loader.graph.leaf_nodes())


def test_an_older_backup_is_restored_and_migrated(sqlite_only, tmp_path):
    """A backup made before the scoring migrations from 0005 on: restored, then
    migrated."""
    from django.db.migrations.recorder import MigrationRecorder

    Group.objects.create(name="In the old backup")
    _migrate([("scoring", "0004_results_version")])
    try:
        older = _backup(tmp_path)
    finally:
        _migrate()
    Group.objects.create(name="After the backup")
    with scopes_disabled():
        call_command("restore_backup", str(older), "--yes")
    assert list(Group.objects.exclude(name=OFFICERS_GROUP).values_list("name", flat=True)) == [
        "In the old backup"
    ]
    applied = MigrationRecorder(connection).applied_migrations()
    assert ("scoring", "0005_game_failed_melds") in applied
    assert ("scoring", "0020_club_required") in applied
    with connection.cursor() as cursor:
        columns = [
            c.name for c in connection.introspection.get_table_description(cursor, "scoring_game")
        ]
    assert "failed_melds" in columns and "club_id" in columns


def test_a_backup_from_before_the_bookings_app_is_restored_and_migrated(sqlite_only, tmp_path):
    """A backup taken before the deploy that added the bookings app (none of its
    migrations, none of its tables): restored, then migrated, the bookings' tables made."""
    from django.db.migrations.recorder import MigrationRecorder

    Group.objects.create(name="In the old backup")
    older = _backup(tmp_path)
    with sqlite3.connect(older) as db:
        bookings_tables = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'bookings_%'"
            )
        ]
        assert bookings_tables
        db.execute("PRAGMA foreign_keys = OFF")
        for table in bookings_tables:
            db.execute(f'DROP TABLE "{table}"')
        db.execute("DELETE FROM django_migrations WHERE app = 'bookings'")
    Group.objects.create(name="After the backup")
    with scopes_disabled():
        call_command("restore_backup", str(older), "--yes")
    assert list(Group.objects.exclude(name=OFFICERS_GROUP).values_list("name", flat=True)) == [
        "In the old backup"
    ]
    assert ("bookings", "0001_initial") in MigrationRecorder(connection).applied_migrations()
    assert "bookings_booking" in connection.introspection.table_names()


def test_the_site_apps_checked_are_those_installed(settings):
    """Apps of the same release that this install lacks are left out of the checks;
    members, the site's core, is the one a backup must hold."""
    from clubsite.backups import REQUIRED_APPS, site_apps

    assert REQUIRED_APPS == ("members",)
    assert {"members", "scoring", "bookings"} <= set(site_apps())
    assert "not_an_app" not in site_apps(("members", "not_an_app"))


def test_backup_on_postgresql_points_to_pg_dump():
    if connection.vendor == "sqlite":
        pytest.skip("this run uses SQLite")
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup")
