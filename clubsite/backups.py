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


#: The site's own apps (labels), those of one release: a backup holding migrations of
#: theirs newer than this version's, or missing their tables, is refused. An app not
#: installed here is left out (:func:`site_apps`), and a backup taken before an app was
#: added holds none of its migrations: restored, ``migrate`` makes its tables.
SITE_APPS = ("members", "scoring", "bookings", "money", "tourney")

#: The site's core: a backup must hold its migrations to count as this site's.
REQUIRED_APPS = ("members",)


def site_apps(labels=SITE_APPS) -> tuple[str, ...]:
    """``labels`` less those of apps not installed here."""
    from django.apps import apps

    installed = {config.label for config in apps.get_app_configs()}
    return tuple(label for label in labels if label in installed)


def _applied(src: sqlite3.Connection) -> set[tuple[str, str]]:
    try:
        rows = src.execute("SELECT app, name FROM django_migrations").fetchall()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"it has no readable list of migrations ({exc})") from exc
    return {(app, name) for app, name in rows}


def _expected_tables(loader, applied: set[tuple[str, str]]) -> set[str]:
    """The tables this site's own apps have at the migrations the backup has applied (the
    state after those migrations and everything they depend on)."""
    ours = site_apps()
    nodes = sorted(key for key in applied if key[0] in ours)
    state = loader.project_state(nodes=nodes, at_end=True)
    return {
        model.options.get("db_table") or f"{app}_{model.name_lower}"
        for (app, _), model in state.models.items()
        if app in ours and not model.options.get("proxy") and model.options.get("managed", True)
    }


def check_backup(src: sqlite3.Connection) -> list[str]:
    """What makes ``src`` unfit to restore into this site: [] when it is a backup of this
    site at these migrations or older ones (it is migrated after the restore)."""
    from django.db.migrations.loader import MigrationLoader

    tables = {row[0] for row in src.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "django_migrations" not in tables:
        return ["it has no django_migrations table, so it was not made by a Django site"]
    applied = _applied(src)
    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    problems = []
    missing_apps = [app for app in REQUIRED_APPS if not any(a == app for a, _ in applied)]
    if missing_apps:
        problems.append(
            "it holds none of this site's own migrations ("
            + ", ".join(missing_apps)
            + "): it is not a backup of this site"
        )
        return problems
    ours = site_apps()
    newer = sorted(f"{app}.{name}" for app, name in applied - known if app in ours)
    if newer:
        problems.append(
            "it was made by a newer version of the site (migrations this version does not "
            "have: " + ", ".join(newer) + "); restore it with that version"
        )
        return problems
    absent = sorted(_expected_tables(loader, applied) - tables)
    if absent:
        problems.append(
            "tables of this site are missing from it ("
            + ", ".join(absent[:8])
            + (", ..." if len(absent) > 8 else "")
            + ")"
        )
    return problems


def restore_sqlite(source: Path) -> None:
    """Replace the live database's contents with the backup `source`, in one step.

    Refuses, and changes nothing, when the file is not an SQLite database, fails the
    integrity check, is not a backup of this site (its own apps' migrations and tables)
    or comes from a newer version of the site. An older backup is restored as it is:
    run ``migrate`` afterwards (``manage.py restore_backup`` does)."""
    _require_sqlite()
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"No backup file at {source}.")
    refused = f"{source} was not restored, and nothing was changed: "
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        raise BackupError(refused + f"it cannot be opened as an SQLite database ({exc}).") from exc
    try:
        try:
            integrity = src.execute("PRAGMA integrity_check").fetchone()[0]
            if integrity != "ok":
                problems = [f"it failed SQLite's integrity check ({integrity})"]
            else:
                problems = check_backup(src)
        except sqlite3.DatabaseError as exc:
            raise BackupError(
                refused + f"it is not an SQLite backup of this site ({exc})."
            ) from exc
        if problems:
            raise BackupError(refused + "; ".join(problems) + ".")
        connection.ensure_connection()
        src.backup(connection.connection)
    finally:
        src.close()
