"""A club export checked whole before ``import_club`` writes a row of it: its size, its
shape and every value of every row, by the models' own fields (their types, lengths,
choices and validators), so a spoiled or hostile file is refused in plain words naming
the row and the field, and never ends in a traceback or half-written.

What each field accepts:

- **Text** (``CharField``, ``TextField`` and their kinds: slugs, e-mail addresses): a
  JSON string, no longer than the field's ``max_length``, without a NUL character
  (PostgreSQL refuses it, SQLite would keep it), one of the field's choices if it has
  any, and passing the field's validators. A JSON object where text belongs is refused,
  never stored as its text.
- **Numbers**: a JSON number (a whole one for whole-number fields), within the
  database's range (the field's validators); never true or false, never NaN.
- **Dates, times, decimals**: a string the field reads (Django's ``to_python``).
- **True or false**: ``true`` or ``false``.
- **Pointers** to other rows: a whole number (the importer then finds the row).
- **JSON values** (a game's rules, a hand's inputs): nested at most
  :data:`MAX_JSON_DEPTH` deep, no NUL character in any text.
- An empty value (``null``) only where the field may be empty.

:func:`check_document` returns the problems as sentences; the importer refuses the file
if there is any.
"""

from __future__ import annotations

import decimal
import functools
import math

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models

from members.clubs.portable import CLUB_FIELDS, club_models, label
from members.models import Club

#: A JSON value in a row (a game's rules, a hand's inputs) nested deeper is refused.
MAX_JSON_DEPTH = 32
#: At most this many problems are listed; the rest are counted.
MAX_LISTED = 20
#: Fields whose validators the importer applies itself, leaving out a row that fails
#: them with a note instead of refusing the file (an old address that is no slug).
DROPPED_NOT_REFUSED = {("members.clubslugredirect", "old_slug")}
#: The fields of a login the file carries.
USER_FIELDS = ("username", "first_name", "last_name", "email")

_WHOLE = (models.IntegerField, models.AutoField)
_FLOAT = (models.FloatField,)
_READ_FROM_TEXT = (
    models.DateField,  # DateTimeField too
    models.TimeField,
    models.DecimalField,
    models.DurationField,
    models.UUIDField,
    models.GenericIPAddressField,
)


def _json_kind(value) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if isinstance(value, int | float):
        return "a number"
    return type(value).__name__


def _messages(exc: ValidationError) -> str:
    return " ".join(str(m) for m in exc.messages)


def field_problem(field: models.Field, value, *, validators: bool = True) -> str | None:
    """What is wrong with ``value`` (as read from JSON) for ``field``, as the end of a
    sentence ("is longer than 80 characters"); ``None`` when it is fine."""
    return _checker(field, validators)(value)


@functools.cache
def _checker(field: models.Field, validators: bool):
    """The check of one field's values, made once per field: its kind, choices and
    validators worked out here, so a file of a million rows costs a few calls per
    value."""
    null = field.null
    choices = frozenset(key for key, _ in field.flatchoices) if field.choices else None
    allowed = ", ".join(str(key) for key, _ in field.flatchoices) if field.choices else ""
    # The length is checked first, in words; the others run as the field runs them.
    extra = (
        [v for v in field.validators if not isinstance(v, MaxLengthValidator)] if validators else []
    )
    text = isinstance(field, models.CharField | models.TextField)
    read = isinstance(field, _READ_FROM_TEXT)
    max_length = field.max_length

    def later(value, python) -> str | None:
        if python in field.empty_values:
            return None
        if choices is not None and python not in choices:
            return f"“{str(value)[:40]}” is not one of: {allowed}"
        for validator in extra:
            try:
                validator(python)
            except ValidationError as exc:
                return f"is not accepted ({_messages(exc).rstrip('.')})"
        return None

    def check(value) -> str | None:
        if value is None:
            return None if null else "is empty, and must not be"
        if isinstance(value, bool):
            return None if kind == "bool" else f"must be {words}, not true or false"
        if kind == "relation":
            if isinstance(value, int):
                return None
            return f"must be the number of a row, not {_json_kind(value)}"
        if kind == "bool":
            return f"must be true or false, not {_json_kind(value)}"
        if kind == "whole":
            if not isinstance(value, int):
                return f"must be a whole number, not {_json_kind(value)}"
            return later(value, value)
        if kind == "number":
            if not isinstance(value, int | float):
                return f"must be a number, not {_json_kind(value)}"
            return later(value, value) if math.isfinite(value) else "must be a number"
        if text or read:
            if not isinstance(value, str):
                return f"must be text, not {_json_kind(value)}"
            if "\x00" in value:
                return "holds a NUL character, which no text may hold"
            if max_length is not None and len(value) > max_length:
                return f"is longer than {max_length} characters"
            if text:
                return later(value, value)
        try:
            python = field.to_python(value)
        except ValidationError as exc:
            return f"cannot be read: {_messages(exc).rstrip('.')}"
        except (TypeError, ValueError, OverflowError, decimal.InvalidOperation):
            return f"“{str(value)[:40]}” cannot be read"
        return later(value, python)

    if field.is_relation:
        kind, words = "relation", "the number of a row"
    elif isinstance(field, models.JSONField):
        kind, words = "json", ""
    elif isinstance(field, models.BooleanField):
        kind, words = "bool", "true or false"
    elif isinstance(field, _WHOLE):
        kind, words = "whole", "a whole number"
    elif isinstance(field, _FLOAT):
        kind, words = "number", "a number"
    else:
        kind, words = "other", "text"
    if kind == "json":
        return functools.partial(_json_check, null=null)
    return check


def _json_check(value, null: bool) -> str | None:
    """A JSON value's problem: too deep, or a NUL in any text (keys included); one walk,
    no recursion."""
    if value is None:
        return None if null else "is empty, and must not be"
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "holds a NUL character, which no text may hold"
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                return f"is nested more than {MAX_JSON_DEPTH} deep"
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                item = item.values()
            stack.extend((child, depth + 1) for child in item)
    return None


@functools.cache
def _plan(model) -> list[tuple]:
    """``model``'s fields a file's row holds: (name, words, check)."""
    return [
        (
            field.name,
            field.verbose_name,
            _checker(field, (label(model), field.name) not in DROPPED_NOT_REFUSED),
        )
        for field in model._meta.concrete_fields
        if not field.primary_key
    ]


def _row_problems(model, row, where: str) -> list[str]:
    """The problems of one row (``{"model", "pk", "fields"}``) of ``model``."""
    if not isinstance(row, dict):
        return [f"{where}: a row must be an object, not {_json_kind(row)}."]
    pk = row.get("pk")
    if isinstance(pk, bool) or not isinstance(pk, int):
        return [f"{where}: a row's “pk” must be a whole number, not {_json_kind(pk)}."]
    name = f"{model._meta.verbose_name.capitalize()} {pk} ({label(model)})"
    if str(row.get("model", "")).lower() != label(model):
        return [f"{name}: the row is of “{row.get('model')}”, not of {label(model)}."]
    fields = row.get("fields")
    if not isinstance(fields, dict):
        return [f"{name}: its “fields” must be an object, not {_json_kind(fields)}."]
    problems = []
    for field_name, verbose, check in _plan(model):
        if field_name in fields:
            problem = check(fields[field_name])
            if problem:
                problems.append(f"{name}: the {verbose} {problem}.")
    return problems


def check_document(document: dict) -> list[str]:
    """Every problem of the export ``document`` (already known to be a club export of a
    version this site reads), as plain sentences naming the row and the field."""
    problems: list[str] = []
    club = document["club"]
    if not isinstance(club, dict):
        return [f"The club (club) must be an object, not {_json_kind(club)}."]
    for name in CLUB_FIELDS:
        if name in club:
            field = Club._meta.get_field(name)
            problem = field_problem(field, club[name])
            if problem:
                problems.append(f"The club (club): the {field.verbose_name} {problem}.")

    users = document["users"]
    user_model = get_user_model()
    if not isinstance(users, list):
        problems.append(f"The logins (users) must be a list, not {_json_kind(users)}.")
        users = []
    for item in users:
        if not isinstance(item, dict):
            problems.append(f"A login (users) must be an object, not {_json_kind(item)}.")
            continue
        pk = item.get("pk")
        if isinstance(pk, bool) or not isinstance(pk, int):
            kind = _json_kind(pk)
            problems.append(f"A login (users): its “pk” must be a whole number, not {kind}.")
            continue
        for name in USER_FIELDS:
            if name == "username" or name in item:
                field = user_model._meta.get_field(name)
                problem = field_problem(field, item.get(name))
                if problem:
                    problems.append(f"Login {pk} (users): the {field.verbose_name} {problem}.")

    shared = document["shared"]
    if not isinstance(shared, dict) or not all(
        isinstance(keys, dict)
        and all(isinstance(k, str) and k.isascii() and k.isdigit() for k in keys)
        and all(isinstance(v, str) and "\x00" not in v for v in keys.values())
        for keys in shared.values()
    ):
        problems.append(
            "The shared rows (shared) must be, for each kind, an object of row numbers and "
            "their slugs."
        )

    rows = document["rows"]
    if not isinstance(rows, dict):
        return [*problems, f"The rows (rows) must be an object, not {_json_kind(rows)}."]
    for model in club_models():
        items = rows.get(label(model), [])
        where = f"The rows of {label(model)}"
        if not isinstance(items, list):
            problems.append(f"{where} must be a list, not {_json_kind(items)}.")
            continue
        seen = set()
        for row in items:
            problems += _row_problems(model, row, where)
            pk = row.get("pk") if isinstance(row, dict) else None
            if pk in seen:
                name = model._meta.verbose_name.capitalize()
                problems.append(f"{name} {pk} ({label(model)}): the file has it twice.")
            seen.add(pk)
            if len(problems) > MAX_LISTED * 50:  # a file spoiled throughout: enough said
                return problems
    return problems


def describe(problems: list[str]) -> str:
    """The problems as one message: the first :data:`MAX_LISTED`, then how many more."""
    shown = problems[:MAX_LISTED]
    more = len(problems) - len(shown)
    lines = ["The file cannot be imported; nothing was changed:", *shown]
    if more:
        lines.append(f"… and {more} more problems.")
    return "\n".join(lines)
