"""Reads of a fixed shape that run on every table request, compiled by the ORM once.

Building and compiling a queryset costs far more than running its SQL (about half a
millisecond against a tenth). A :class:`FixedRead` asks the ORM for its SQL once per
process and thread (the queryset built with stand-in parameters), then runs that SQL
with each call's parameters (passed separately, never written into it) and turns the
rows into what the queryset itself would give: model instances with their
select_related objects and annotations, built by the ORM's own converters and populators, or one
value per row for a flat ``values_list``. Its tests compare each read with the
queryset's.
"""

from __future__ import annotations

import threading

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.query import FlatValuesListIterable, ModelIterable, get_related_populators
from django.db.transaction import TransactionManagementError

# Stand-ins for the parameters while the SQL is made: numbers no row has.
_STAND_INS = (-918_273_645, -918_273_646, -918_273_647, -918_273_648)


class _Compiled:
    """One compiled read: its SQL, where each parameter goes, and how rows become
    objects."""

    def __init__(self, queryset, count: int):
        compiler = queryset.query.get_compiler(using=queryset.db)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.slots = [(i, _STAND_INS.index(p)) for i, p in enumerate(params) if p in _STAND_INS]
        if sorted(k for _, k in self.slots) != list(range(count)):
            raise ValueError("Each parameter of a fixed read must appear once in its SQL.")
        self.compiler = compiler
        self.db = queryset.db
        self.flat = queryset._iterable_class is FlatValuesListIterable
        if not self.flat and queryset._iterable_class is not ModelIterable:
            raise ValueError("A fixed read gives model instances or one flat value.")
        if compiler.has_extra_select:
            raise ValueError("A fixed read has no extra columns.")
        self.annotations = list((compiler.annotation_col_map or {}).items())
        self.locks = queryset.query.select_for_update
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        self.converters = compiler.get_converters(fields)
        if self.flat:
            return
        info = compiler.klass_info
        self.model = info["model"]
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        self.span = slice(start, end)
        self.init_list = [f[0].target.attname for f in compiler.select[start:end]]
        self.populators = get_related_populators(info, compiler.select, self.db)

    def run(self, values) -> list:
        if self.locks and not self.compiler.connection.in_atomic_block:
            # What the ORM says when it compiles such a read (here: once only).
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(self.params)
        for i, k in self.slots:
            params[i] = values[k]
        with self.compiler.connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        if self.converters:
            rows = list(self.compiler.apply_converters(rows, self.converters))
        if self.flat:
            return [row[0] for row in rows]
        objects = []
        for row in rows:
            obj = self.model.from_db(self.db, self.init_list, row[self.span])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects


class FixedRead:
    """``build(*params)`` -> a queryset whose shape never changes; calling the read
    with parameters gives the list that queryset would, without building it again."""

    def __init__(self, build, count: int = 1):
        self.build = build
        self.count = count
        self._local = threading.local()  # a connection (and so a compiler) per thread

    def __call__(self, *values) -> list:
        if len(values) != self.count:
            raise TypeError(f"This read takes {self.count} parameter(s).")
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = getattr(self._local, "compiled", None)
        if compiled is None or compiled.compiler.connection is not connection:
            compiled = _Compiled(self.build(*_STAND_INS[: self.count]), self.count)
            self._local.compiled = compiled
        return compiled.run(values)
