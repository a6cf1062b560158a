"""A club's data as one file, and a club's data removed: what ``export_club``,
``import_club``, ``delete_club`` and ``backup --club`` do.

The club-owned models are found, not listed: every model with a ``club`` foreign key
to ``members.Club`` (their history tables included), so a model added later is
exported, imported and deleted with the rest (``clubsite/tests/test_club_portable.py``
fails when a model points at a club another way). Rows are written with Django's
serializers and read back by :mod:`members.clubs.importer`.

The file is one JSON document::

    {"format": "canasta-club-export", "version": 1, "exported_at": ...,
     "migrations": {"members": [...], "scoring": [...]},   # the schema it was made at
     "club": {...},                                        # the club's own fields
     "users": [{"pk", "username", "first_name", "last_name", "email"}],
     "shared": {"scoring.ruleset": {"<pk>": "<slug>"}},   # presets it points at
     "rows": {"members.person": [{"model", "pk", "fields"}, ...], ...}}

Logins are the site's, not a club's: the file names the ones the club's rows point at
(no password), and the shipped presets by their slug.
"""

from __future__ import annotations

import datetime
import json
from contextlib import contextmanager
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from members.clubs.scope import scopes_disabled
from members.models import Club

FORMAT = "canasta-club-export"
#: Bump when the document's layout changes; an older program refuses a newer file.
FORMAT_VERSION = 1
#: The apps whose migrations say which schema a file's rows were written at.
SCHEMA_APPS = ("members", "scoring", "bookings", "money")
#: The club's own fields carried in the file (its address parts are checked on import).
CLUB_FIELDS = (
    "slug",
    "name",
    "time_zone",
    "language_code",
    "results_sender_name",
    "results_reply_to",
    "host",
    "is_active",
)


class PortableError(Exception):
    """A club's data cannot be exported, imported or deleted as asked; the message says
    why in plain words, and nothing was changed."""


def club_fk(model) -> models.ForeignKey | None:
    """``model``'s foreign key ``club`` to ``members.Club``, if it has one."""
    try:
        field = model._meta.get_field("club")
    except FieldDoesNotExist:
        return None
    if getattr(field, "related_model", None) is Club and field.concrete:
        return field
    return None


def is_history(model) -> bool:
    """A django-simple-history table (``HistoricalPerson`` ...): rows about rows."""
    return getattr(model, "instance_type", None) is not None and model._meta.pk.name == "history_id"


def relations(model) -> list[models.Field]:
    """``model``'s foreign keys and one-to-ones, other than its club."""
    return [
        f
        for f in model._meta.concrete_fields
        if f.is_relation and (f.many_to_one or f.one_to_one) and f.name != "club"
    ]


def club_models() -> list[type[models.Model]]:
    """Every club-owned model, each after the models its rows point at (a nullable
    pointer closing a circle, such as a game's winning team, comes last), then the
    history tables."""
    found = [m for m in apps.get_models() if m is not Club and club_fk(m)]
    live = sorted((m for m in found if not is_history(m)), key=lambda m: m._meta.label_lower)
    history = sorted((m for m in found if is_history(m)), key=lambda m: m._meta.label_lower)
    members = set(live)
    done: list = []

    def needs(model, nullable: bool) -> set:
        return {
            f.related_model
            for f in relations(model)
            if f.related_model in members
            and f.related_model is not model
            and (nullable or not f.null)
        }

    remaining = list(live)
    while remaining:
        ready = [m for m in remaining if needs(m, True) <= set(done)] or [
            m for m in remaining if needs(m, False) <= set(done)
        ]
        if not ready:  # pragma: no cover - a circle of required pointers
            raise PortableError("The club-owned models point at each other in a circle.")
        done.append(ready[0])
        remaining.remove(ready[0])
    return done + history


def label(model) -> str:
    return model._meta.label_lower


def schema() -> dict[str, list[str]]:
    """The site's applied migrations of :data:`SCHEMA_APPS`."""
    applied = MigrationRecorder(connection).applied_migrations()
    return {app: sorted(name for a, name in applied if a == app) for app in SCHEMA_APPS}


class _Encoder(DjangoJSONEncoder):
    """Django's JSON encoder, keeping times to the microsecond (it cuts them to
    milliseconds, and a copy must keep the order of rows made in the same millisecond)."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def build_export(club: Club) -> dict:
    """Everything of ``club`` as one document (see the module's docstring)."""
    user_model = get_user_model()
    rows: dict[str, list[dict]] = {}
    user_ids: set = set()
    outside: dict[type, set] = {}
    with scopes_disabled():
        exported = {}
        for model in club_models():
            own = model._base_manager.filter(club=club).order_by("pk")
            data = serializers.serialize("python", own)
            rows[label(model)] = data
            exported[model] = {row["pk"] for row in data}
        for model in club_models():
            for field in relations(model):
                values = {row["fields"][field.name] for row in rows[label(model)]} - {None}
                if field.related_model is user_model:
                    user_ids |= values
                elif field.related_model in exported and not is_history(model):
                    missing = values - exported[field.related_model]
                    if missing:
                        outside.setdefault(field.related_model, set()).update(missing)
        users = list(
            user_model._base_manager.filter(pk__in=user_ids)
            .order_by("pk")
            .values("pk", "username", "first_name", "last_name", "email")
        )
        shared = {label(model): _shared_keys(model, pks) for model, pks in outside.items()}
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now(),
        "migrations": schema(),
        "club": {name: getattr(club, name) for name in CLUB_FIELDS},
        "users": users,
        "shared": shared,
        "rows": rows,
    }


def _shared_keys(model, pks: set) -> dict[str, str]:
    """The shared rows (``club`` empty, e.g. the shipped presets) the club's rows point
    at, by slug: another site has the same presets under other ids."""
    shared = model._base_manager.filter(pk__in=pks, club__isnull=True)
    found = dict(shared.values_list("pk", "slug"))
    if set(found) != set(pks):
        raise PortableError(
            f"Some of the club's rows point at {model._meta.verbose_name_plural} of another "
            "club; the data is not consistent. Nothing was written."
        )
    return {str(pk): slug for pk, slug in found.items()}


def export_club(club: Club, path: Path | str) -> dict[str, int]:
    """Write ``club``'s export to ``path`` (a new file). Returns the rows of each model."""
    path = Path(path)
    if path.exists():
        raise PortableError(f"{path} already exists; choose another file name.")
    path.parent.mkdir(parents=True, exist_ok=True)
    with _snapshot():  # one consistent snapshot of the club
        document = build_export(club)
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as out:
        json.dump(document, out, cls=_Encoder, ensure_ascii=False)
    partial.rename(path)
    return {name: len(items) for name, items in document["rows"].items()}


@contextmanager
def _snapshot():
    """A transaction whose every query reads the same state of the database, without
    holding up the site's saves: REPEATABLE READ on PostgreSQL; on SQLite a deferred
    transaction (in WAL mode a reader's snapshot), not the site's ``IMMEDIATE`` one,
    which would take the write lock for the whole read (a large club's export reads
    for half a minute, and every table's save would wait, then fail, meanwhile)."""
    outer = connection.in_atomic_block
    connection.ensure_connection()  # the connection's mode is read when it opens
    mode = getattr(connection, "transaction_mode", None)
    if connection.vendor == "sqlite" and not outer:
        connection.transaction_mode = None  # Django's SQLite wrapper's: a plain BEGIN
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql" and not outer:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            yield
    finally:
        if connection.vendor == "sqlite" and not outer:
            connection.transaction_mode = mode


def looks_like_export(path: Path | str) -> bool:
    """Whether ``path`` starts like a club export (a JSON document), without reading it all."""
    try:
        with Path(path).open("rb") as f:
            return f.read(64).lstrip().startswith(b"{")
    except OSError:
        return False


def delete_club(club: Club) -> dict[str, int]:
    """Delete every row of ``club`` and then the club, in one transaction; other clubs,
    the shared presets and the site's logins are untouched. Returns the rows deleted of
    each model."""
    counts = {}
    with transaction.atomic(), scopes_disabled():
        # Children before parents; a pointer between the club's own rows that closes a
        # circle (a game's winning team, a merged record's keeper) is checked when the
        # transaction commits (Django's foreign keys are deferred), by when both are gone.
        for model in reversed(club_models()):
            rows = model._base_manager.filter(club=club)
            counts[label(model)] = rows._raw_delete(rows.db)
        Club._base_manager.filter(pk=club.pk).delete()
    return counts
