"""Drawing a table's rows in one pass of Python instead of one template lookup per cell.

django-tables2 draws each cell through the template (``{% for column, cell in
row.items %}``), and each cell inspects the signature of its ``render`` method again and
rebuilds the column's attributes: on a standings page of a thousand cells that was three
quarters of the time. :class:`Table` keeps everything django-tables2 does well — the
columns, headers, sorting, pagination and the CSV values — and draws the rows of the page
itself: each column's plan (its ``<td>`` attributes, which arguments its ``render``
takes, its link) is worked out once per table, then each row is one string.

A cell is exactly what django-tables2 would draw (a test compares the two): the value
read through the column's accessor, the column's default for an empty value, ``render``
(or the table's ``render_FOO``) with the arguments it asks for, the column's link, and
non-text values localized as ``{{ cell }}`` would. A column asking for ``bound_row``
(none of the site's do) is drawn by django-tables2's own cell.
"""

from __future__ import annotations

import inspect

import django_tables2 as tables
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.rows import BoundRow

ARGUMENTS = ("value", "record", "column", "bound_column", "table")


class _Plan:
    """How one column draws its cells, worked out once per table."""

    def __init__(self, table, bound_column):
        self.table = table
        self.bound = bound_column
        self.column = bound_column.column
        self.name = bound_column.name
        self.accessor = bound_column.accessor
        td = bound_column.attrs["td"]
        td["data-label"] = str(bound_column.header)  # a phone shows it beside the value
        self.td = td.as_html()
        self.link = bound_column.link
        self.default = bound_column.default
        params = inspect.signature(bound_column.render).parameters
        any_kwargs = any(p.kind is p.VAR_KEYWORD for p in params.values())
        self.wants = [a for a in ARGUMENTS if any_kwargs or a in params]
        self.slow = any_kwargs or "bound_row" in params

    def value(self, record):
        if isinstance(record, dict) and self.accessor in record:
            return record[self.accessor]
        return self.accessor.resolve(record, quiet=True)

    def cell(self, record) -> str:
        """The inside of the ``<td>``, escaped."""
        if self.slow:
            content = BoundRow(record, self.table).get_cell(self.name)
        else:
            value = self.value(record)
            if value in self.column.empty_values:
                return conditional_escape(localize(self.default))
            given = {
                "value": value,
                "record": record,
                "column": self.column,
                "bound_column": self.bound,
                "table": self.table,
            }
            content = self.bound.render(**{a: given[a] for a in self.wants})
            if self.link:
                content = self.link(content, bound_row=None, **given)
        return conditional_escape(content if isinstance(content, str) else localize(content))


class Table(tables.Table):
    """A django-tables2 table whose page of rows is drawn by :meth:`body_rows`
    (``results/table.html`` uses it). ``row_id(record)`` may give a row its anchor;
    with ``cards`` (the default) a phone shows each row as a card of labelled values
    (results.css) instead of a table wider than the screen."""

    fast_rows = True
    cards = True  # on a phone each row is drawn as a card of labelled values

    def row_id(self, record) -> str | None:
        return None

    def page_records(self):
        """The records of the page shown (every record when not paginated)."""
        rows = self.page.object_list if getattr(self, "page", None) else self.rows
        return rows.data

    def plans(self) -> list[_Plan]:
        return [_Plan(self, column) for column in self.columns]

    def body_rows(self) -> list[SafeString]:
        plans = self.plans()
        out = []
        for record in self.page_records():
            cells = "".join(f"<td {plan.td}>{plan.cell(record)}</td>" for plan in plans)
            anchor = self.row_id(record)
            if anchor:
                out.append(format_html('<tr id="{}">{}</tr>', anchor, mark_safe(cells)))
            else:
                out.append(mark_safe(f"<tr>{cells}</tr>"))
        return out
