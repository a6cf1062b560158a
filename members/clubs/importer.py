"""Reading a club's export back (``manage.py import_club``): a new club on this site,
its rows under new ids with every pointer between them remapped, all in one
transaction (a failure leaves nothing written). See :mod:`members.clubs.portable`.

- **Logins** are the site's: a login the file names is the same login here only when
  its user name and e-mail address both match and it is no staff or superuser login;
  otherwise a new one is made with no usable password (it cannot log in until the
  platform operator sets one in the admin). No login is ever made staff or superuser
  by an import.
- **Shared rows** (the shipped rule-set presets) are matched by slug.
- **Codes unique across the site** (room codes, table links, board codes, mailing keys)
  are kept when free here, so the club's printed QR codes keep working after a move;
  one already taken (a copy on the same site) gets a fresh code.
- **History rows** keep their story; the history of a row deleted before the export
  points at a negative id, which no live row ever has.
"""

from __future__ import annotations

import heapq
import json
import secrets
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.db.migrations.loader import MigrationLoader

from members.clubs.addresses import host_problem
from members.clubs.filecheck import check_document, describe
from members.clubs.portable import (
    CLUB_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    SCHEMA_APPS,
    PortableError,
    club_models,
    is_history,
    label,
    relations,
)
from members.clubs.scope import in_club, scopes_disabled
from members.models import Club
from members.signals import club_created

BATCH = 500
MB = 1024 * 1024
#: The largest file ``import_club`` reads unless told otherwise (``--max-size``).
MAX_FILE_BYTES = 256 * MB


@dataclass
class Imported:
    club: Club
    rows: dict[str, int] = field(default_factory=dict)
    users_matched: int = 0
    users_made: int = 0
    codes_renewed: int = 0
    notes: list[str] = field(default_factory=list)


def read_export(path: Path | str, max_bytes: int = MAX_FILE_BYTES) -> dict:
    """The document in ``path``, refused in plain words when it is larger than
    ``max_bytes`` (before it is read: its size, then a read that stops there), is not a
    club export, is nested too deep, or was made by a newer version of the site."""
    path = Path(path)
    not_export = f"{path} is not a club export (a file written by manage.py export_club)"
    if not path.is_file():
        raise PortableError(f"There is no file at {path}.")
    too_large = (
        f"{path} is larger than {max_bytes / MB:,.0f} MB, the most import_club reads "
        f"(reading a file takes about five times its size in memory). If it really is a "
        "club export, give a higher limit with --max-size MB."
    )
    if path.stat().st_size > max_bytes:
        raise PortableError(too_large)
    with path.open("rb") as f:
        data = f.read(max_bytes + 1)  # a file that grew since, or a device, stops here
    if len(data) > max_bytes:
        raise PortableError(too_large)
    try:
        document = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise PortableError(
            f"{path} is nested too deep to be a club export; it is damaged or not one."
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError):
        raise PortableError(not_export + ".") from None
    del data
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise PortableError(not_export + ".")
    version = document.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise PortableError(
            f"{path} was written by a newer version of the site (export format {version}; "
            f"this one reads up to {FORMAT_VERSION}). Upgrade this site first."
        )
    migrations = document.get("migrations", {})
    if not isinstance(migrations, dict) or not all(
        isinstance(names, list) and all(isinstance(m, str) for m in names)
        for names in migrations.values()
    ):
        raise PortableError(not_export + ": its “migrations” are not a list of names.")
    known = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
    for app in SCHEMA_APPS:
        newer = [m for m in migrations.get(app, []) if (app, m) not in known]
        if newer:
            raise PortableError(
                f"{path} was written by a newer version of the site (its data has the "
                f"{app} migration {newer[0]}, which this site does not). Upgrade this site "
                "first."
            )
    for key in ("club", "users", "shared", "rows"):
        if key not in document:
            raise PortableError(not_export + f": it has no “{key}”.")
    return document


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a club export holds")


def import_club(
    path: Path | str, slug: str | None = None, *, max_bytes: int = MAX_FILE_BYTES
) -> Imported:
    """Make a new club from the export in ``path`` (under ``slug``, else the file's).

    The whole file is checked before anything is written (its size, its shape, every
    row's every field: :mod:`members.clubs.filecheck`); a refusal is a
    :class:`PortableError` whose message names each row and field at fault, and nothing
    is written."""
    document = read_export(path, max_bytes=max_bytes)
    problems = check_document(document)
    if problems:
        raise PortableError(describe(problems))
    wanted = dict(document["club"])
    slug = slug or wanted.get("slug")
    with scopes_disabled():
        if Club.objects.filter(slug=slug).exists():
            raise PortableError(
                f"This site already has a club with the slug “{slug}”: import the copy under "
                "another with --slug NEW, or delete that club first (manage.py delete_club). "
                "Nothing was changed."
            )
        club = Club(**{k: wanted[k] for k in CLUB_FIELDS if k in wanted})
        club.slug = slug
        result = Imported(club=club)
        if club.host and (problem := host_problem(club.host)):
            result.notes.append(f"{problem} The copy has no host name.")
            club.host = None
        try:
            club.full_clean()
        except ValidationError as exc:
            problems = "; ".join(m for msgs in exc.message_dict.values() for m in msgs)
            raise PortableError(f"The club cannot be made: {problems}") from None
        try:
            with transaction.atomic(), _stamps_kept():
                club.save()
                _Loader(document, result).load()
        except DatabaseError as exc:
            raise PortableError(
                f"The database refused the file's rows ({_first_line(exc)}); the file is "
                "damaged. Nothing was changed."
            ) from None
    with in_club(club):
        # What the file did not bring (settings, results version), the apps make.
        club_created.send(sender=Club, club=club)
    return result


@contextmanager
def _stamps_kept():
    """``auto_now`` and ``auto_now_add`` fields keep the file's times while importing
    (otherwise every "updated at" would become now)."""
    changed = []
    for model in club_models():
        for f in model._meta.concrete_fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                changed.append((f, f.auto_now, f.auto_now_add))
                f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, now_add in changed:
            f.auto_now, f.auto_now_add = now, now_add


class _Loader:
    """Writes the document's rows model by model, remembering each old id's new one."""

    def __init__(self, document: dict, result: Imported):
        self.document = document
        self.result = result
        self.club = result.club
        self.new_ids: dict[type, dict] = defaultdict(dict)
        self.later: dict[tuple[type, str], list] = defaultdict(list)  # (model, attname)
        self.order = club_models()
        self.done: set = set()
        self.gone: dict = {}
        self.user_model = get_user_model()

    def load(self) -> None:
        self.users = self._users()
        self.shared = self._shared()
        for model in self.order:
            rows = self.document["rows"].get(label(model), [])
            try:
                self._model(model, rows)
            except DatabaseError as exc:
                # A rule the checks cannot see (between a row's fields, kept by the
                # database): the whole import is undone.
                raise PortableError(
                    f"The database refused the file's rows of {label(model)} "
                    f"({_first_line(exc)}); the file is damaged. Nothing was changed."
                ) from None
            self.done.add(model)
            self.result.rows[label(model)] = len(self.new_ids[model])
        self._pointers_left()

    def _users(self) -> dict:
        """The file's logins, here: the same login only when both its user name and its
        e-mail address match and it is no staff or superuser login (a name alone could
        hand the club's people, and a password reset, to an unrelated login here);
        otherwise a new login, with a free user name and no usable password."""
        found = {}
        manager = self.user_model._base_manager
        for item in self.document["users"]:
            email = (item.get("email") or "").strip()
            user = manager.filter(username=item["username"]).first()
            same = (
                user is not None
                and email
                and user.email.strip().lower() == email.lower()
                and not (user.is_staff or user.is_superuser)
            )
            if not same:
                user = self.user_model(
                    username=self._free_username(manager, item["username"]),
                    first_name=item.get("first_name", ""),
                    last_name=item.get("last_name", ""),
                    email=item.get("email", ""),
                )
                user.set_unusable_password()
                user.save()
                self.result.users_made += 1
            else:
                self.result.users_matched += 1
            found[item["pk"]] = user.pk
        return found

    @staticmethod
    def _free_username(manager, wanted: str) -> str:
        name, n = wanted, 1
        while manager.filter(username=name).exists():
            n += 1
            name = f"{wanted[:140]}-{n}"
        return name

    def _shared(self) -> dict[str, dict]:
        """The shared rows (presets) the club's rows point at, found here by slug."""
        found: dict[str, dict] = {}
        for name, keys in self.document["shared"].items():
            model = next((m for m in self.order if label(m) == name), None)
            if model is None:
                raise PortableError(f"The file points at {name} rows, which this site has not.")
            here = dict(
                model._base_manager.filter(club__isnull=True, slug__in=keys.values()).values_list(
                    "slug", "pk"
                )
            )
            for slug in keys.values():
                if slug not in here:
                    raise PortableError(
                        f"The club uses the shared {model._meta.verbose_name} “{slug}”, which "
                        "this site does not have. Nothing was changed."
                    )
            found[name] = {int(old): here[slug] for old, slug in keys.items()}
        return found

    def _model(self, model, rows: list[dict]) -> None:
        objects = [
            d.object for d in serializers.deserialize("python", rows, ignorenonexistent=True)
        ]
        if label(model) == "members.clubslugredirect":
            objects = self._free_old_addresses(objects)
        olds = [obj.pk for obj in objects]
        self_links = [f for f in relations(model) if f.related_model is model]
        order = _parents_first(objects, self_links) if self_links else range(len(objects))
        codes = _unique_fields(model)
        taken = {f.name: self._taken(model, f, objects) for f in codes}
        batch, batch_olds = [], set()
        for i in order:
            obj, old = objects[i], olds[i]
            if any(getattr(obj, f.attname) in batch_olds for f in self_links):
                self._write(model, batch)
                batch, batch_olds = [], set()
            self._remap(model, obj, old)
            for f in codes:
                self._renew(model, obj, f, taken[f.name])
            _fix(model, obj)
            batch.append((old, obj))
            batch_olds.add(old)
            if len(batch) >= BATCH:
                self._write(model, batch)
                batch, batch_olds = [], set()
        self._write(model, batch)

    def _free_old_addresses(self, objects: list) -> list:
        """A club's old slugs (which redirect to it) come along only where this site
        has them free: a slug that is a club's here, or another club's old one, stays
        theirs, and the copy does without that redirect."""
        from members.models import ClubSlugRedirect, validate_club_slug

        def valid(slug) -> bool:
            try:
                Club._meta.get_field("slug").run_validators(slug)
                validate_club_slug(slug)
            except ValidationError:
                return False
            return bool(slug)

        bad = [obj.old_slug for obj in objects if not valid(obj.old_slug)]
        if bad:
            objects = [obj for obj in objects if valid(obj.old_slug)]
            self.result.notes.append(
                f"Old addresses not carried over (not a club's short name): {len(bad)}."
            )
        slugs = [obj.old_slug for obj in objects]
        taken = set(Club.objects.filter(slug__in=slugs).values_list("slug", flat=True))
        taken |= set(
            ClubSlugRedirect.objects.filter(old_slug__in=slugs).values_list("old_slug", flat=True)
        )
        taken.add(self.club.slug)
        kept = [obj for obj in objects if obj.old_slug not in taken]
        if len(kept) < len(objects):
            dropped = ", ".join(sorted(obj.old_slug for obj in objects if obj.old_slug in taken))
            self.result.notes.append(
                f"Old addresses not carried over (taken on this site): {dropped}."
            )
        return kept

    def _write(self, model, batch: list) -> None:
        if not batch:
            return
        made = model._base_manager.bulk_create([obj for _, obj in batch], batch_size=BATCH)
        for (old, _), obj in zip(batch, made, strict=True):
            if obj.pk is None:  # pragma: no cover - every supported database returns ids
                raise PortableError("The database did not give the new rows their ids.")
            self.new_ids[model][old] = obj.pk

    def _remap(self, model, obj, old) -> None:
        obj.pk = None
        obj.club_id = self.club.pk
        history = is_history(model)
        for f in relations(model):
            value = getattr(obj, f.attname)
            if value is None:
                continue
            setattr(obj, f.attname, self._target(model, f, value, old, history))
        if history:
            obj.id = self._history_id(model.instance_type, obj.id)

    def _target(self, model, f, value, old, history: bool):
        target = f.related_model
        if target is self.user_model:
            return self.users.get(value)
        if target is Club:
            return self.club.pk
        if value in self.new_ids[target]:
            return self.new_ids[target][value]
        shared = self.shared.get(label(target), {})
        if value in shared:
            return shared[value]
        if history:
            return None  # history of a row deleted before the export
        if target is model or target not in self.done:
            if not f.null:  # pragma: no cover - club_models() orders required pointers
                raise PortableError(f"{label(model)}.{f.name} points ahead of its rows.")
            self.later[(model, f.attname)].append((old, value, target))
            return None
        raise PortableError(
            f"The file's {model._meta.verbose_name} {old} points at a "
            f"{target._meta.verbose_name} that is not in the file; it is damaged. "
            "Nothing was changed."
        )

    def _history_id(self, live_model, old_id):
        """A history row's object: its new id, or for a row deleted before the export a
        new negative one (below any this site's history has), the same for all its rows."""
        if old_id in self.new_ids[live_model]:
            return self.new_ids[live_model][old_id]
        gone = self.gone.get(live_model)
        if gone is None:
            lowest = live_model.history.model._base_manager.aggregate(m=models.Min("id"))["m"]
            gone = self.gone[live_model] = {"next": min(lowest or 0, 0) - 1}
        if old_id not in gone:
            gone[old_id] = gone["next"]
            gone["next"] -= 1
        return gone[old_id]

    def _taken(self, model, f, objects) -> set:
        values = [getattr(obj, f.attname) for obj in objects]
        taken = set()
        for start in range(0, len(values), BATCH):
            chunk = values[start : start + BATCH]
            taken.update(
                model._base_manager.filter(**{f"{f.name}__in": chunk}).values_list(
                    f.name, flat=True
                )
            )
        return taken

    def _renew(self, model, obj, f, taken: set) -> None:
        value = getattr(obj, f.attname)
        if value is None:
            return
        if value in taken:
            while value in taken:
                value = f.get_default() if f.has_default() else secrets.token_hex(16)
            setattr(obj, f.attname, value)
            self.result.codes_renewed += 1
        taken.add(value)

    def _pointers_left(self) -> None:
        """The nullable pointers written empty because their rows came later."""
        for (model, attname), items in self.later.items():
            changed = []
            for old, value, target in items:
                new_value = self.new_ids[target].get(value)
                if new_value is None:
                    raise PortableError(
                        f"The file's {model._meta.verbose_name} {old} points at a "
                        f"{target._meta.verbose_name} that is not in the file; it is damaged. "
                        "Nothing was changed."
                    )
                row = model(pk=self.new_ids[model][old])
                setattr(row, attname, new_value)
                changed.append(row)
            field_name = model._meta.get_field(attname.removesuffix("_id")).name
            model._base_manager.bulk_update(changed, [field_name], batch_size=BATCH)


def _unique_fields(model) -> list:
    """Fields unique across the site (room codes, links), other than the id."""
    return [
        f
        for f in model._meta.concrete_fields
        if f.unique and not f.primary_key and not f.is_relation
    ]


def _parents_first(objects: list, links: list) -> list[int]:
    """Indexes of ``objects`` in id order, except that a row pointed at by another of
    the same model (a guest's host, a merged record's keeper) comes before it."""
    index = {obj.pk: i for i, obj in enumerate(objects)}
    waiting = defaultdict(list)
    pending = [0] * len(objects)
    for i, obj in enumerate(objects):
        for f in links:
            parent = index.get(getattr(obj, f.attname))
            if parent is not None and parent != i:
                waiting[parent].append(i)
                pending[i] += 1
    ready = [(objects[i].pk, i) for i in range(len(objects)) if not pending[i]]
    heapq.heapify(ready)
    order = []
    while ready:
        _, i = heapq.heappop(ready)
        order.append(i)
        for child in waiting[i]:
            pending[child] -= 1
            if not pending[child]:
                heapq.heappush(ready, (objects[child].pk, child))
    order.extend(i for i in range(len(objects)) if pending[i])  # a circle: written last
    return order


def _fix(model, obj) -> None:
    """A partnership's total keeps the lower id first (its check constraint)."""
    if label(model) == "scoring.partnershiptotal" and obj.person_id > obj.partner_id:
        obj.person_id, obj.partner_id = obj.partner_id, obj.person_id
