"""Backup and restore round trip (SQLite's online backup API)."""

import sqlite3

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite backups: this run uses PostgreSQL (README gives pg_dump)")


def test_backup_then_restore_round_trip(sqlite_only, tmp_path):
    Group.objects.create(name="Before the backup")
    call_command("backup", str(tmp_path / "club.sqlite3"))
    backup_file = tmp_path / "club.sqlite3"
    assert backup_file.is_file()
    with sqlite3.connect(backup_file) as copy:
        names = {row[0] for row in copy.execute("SELECT name FROM auth_group")}
    assert names == {"Before the backup"}

    Group.objects.create(name="After the backup")
    Group.objects.filter(name="Before the backup").delete()

    call_command("restore_backup", str(backup_file), "--yes")
    assert set(Group.objects.values_list("name", flat=True)) == {"Before the backup"}


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


def test_backup_on_postgresql_points_to_pg_dump():
    if connection.vendor == "sqlite":
        pytest.skip("this run uses SQLite")
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup")
