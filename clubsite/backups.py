"""Backups of the SQLite database with SQLite's online backup API.

The backup API copies a consistent snapshot page by page while the site keeps running
(readers and writers are not blocked for the whole copy), unlike copying the file, which
can catch a half-written page or miss the WAL. For PostgreSQL use `pg_dump` (README).
"""

import sqlite3
from datetime import datetime
from pathlib import Path

from django.db import connection


class BackupError(Exception):
    pass


def _require_sqlite():
    if connection.vendor != "sqlite":
        raise BackupError(
            f"This site runs on {connection.vendor}, not SQLite. Back it up with "
            "pg_dump (see 'Backups' in README.md), e.g. "
            'pg_dump --format=custom --file club.dump "$DATABASE_URL"'
        )


def _check(db: sqlite3.Connection, label: str) -> None:
    result = db.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{label} failed SQLite's integrity check: {result}")


def backup_sqlite(target: Path, now: datetime) -> Path:
    """Write a consistent copy of the live database to `target` (a file, or a folder
    that gets a time-stamped file). Returns the file written."""
    _require_sqlite()
    target = Path(target)
    if target.suffix == "" or target.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        target = target / f"club-{now:%Y%m%d-%H%M%S}.sqlite3"
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise BackupError(f"{target} already exists; choose another name.")
    connection.ensure_connection()
    partial = target.with_name(target.name + ".partial")
    dest = sqlite3.connect(partial)
    try:
        connection.connection.backup(dest, pages=1024)
        _check(dest, "The backup")
    finally:
        dest.close()
    partial.rename(target)
    return target


def restore_sqlite(source: Path) -> None:
    """Replace the live database's contents with the backup `source`, in one step."""
    _require_sqlite()
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"No backup file at {source}.")
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        _check(src, "The backup file")
        tables = {row[0] for row in src.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source} is not an SQLite backup of this site: {exc}") from exc
    if "django_migrations" not in tables:
        src.close()
        raise BackupError(f"{source} is not a backup of this site (no django_migrations table).")
    connection.ensure_connection()
    try:
        src.backup(connection.connection)
    finally:
        src.close()
