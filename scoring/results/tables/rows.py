"""Drawing a results table in one pass of Python instead of one template lookup per cell.

django-tables2 draws each cell through the template (``{% for column, cell in
row.items %}``), and each cell inspects the signature of its ``render`` method again and
rebuilds the column's attributes: on a standings page of a thousand cells that was three
quarters of the time. :class:`Table` keeps everything django-tables2 does well — the
columns, headers, sorting, pagination and the CSV values — and draws the rows of the page
itself: each column's plan (its ``<td>``, which arguments its ``render`` takes, its
link, whether its text needs escaping) is worked out once per table, then each row is
one string. :func:`draw_table` draws the whole table (headers, rows, pagination) as
``{% render_table %}`` with ``results/table.html`` does, without the template machinery.

A cell is exactly what django-tables2 would draw (a test compares the two): the value
read through the column's accessor, the column's default for an empty value, ``render``
(or the table's ``render_FOO``) with the arguments it asks for, the column's link, and
non-text values localized as ``{{ cell }}`` would. A column asking for ``bound_row``
(none of the site's do) is drawn by django-tables2's own cell.
"""

from __future__ import annotations

import functools
import inspect

import django_tables2 as tables
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django_tables2.rows import BoundRow
from django_tables2.templatetags.django_tables2 import table_page_range
from django_tables2.utils import AttributeDict

from scoring.results.tables.base import text_html

ARGUMENTS = ("value", "record", "column", "bound_column", "table")
_MISSING = object()


@functools.lru_cache(maxsize=512)
def _arguments(render) -> tuple[tuple[str, ...], bool]:
    """Which of :data:`ARGUMENTS` a ``render`` function takes, and whether it needs
    django-tables2's own cell (``bound_row`` or ``**kwargs``): read once per function."""
    params = inspect.signature(render).parameters
    any_kwargs = any(p.kind is p.VAR_KEYWORD for p in params.values())
    wants = tuple(a for a in ARGUMENTS if any_kwargs or a in params)
    return wants, any_kwargs or "bound_row" in params


class _Plan:
    """How one column draws its cells, worked out once per table."""

    def __init__(self, table, bound_column, attrs=None):
        self.table = table
        self.bound = bound_column
        self.column = column = bound_column.column
        self.name = bound_column.name
        self.accessor = bound_column.accessor
        self.key = str(self.accessor)
        td = (attrs or bound_column.attrs)["td"]
        td["data-label"] = str(bound_column.header)  # a phone shows it beside the value
        self.td = td.as_html()
        self.open = f"<td {self.td}>"
        self.link = bound_column.link
        self.empty_values = column.empty_values
        self.empty = conditional_escape(localize(bound_column.default))
        render = bound_column.render
        self.wants, self.slow = _arguments(getattr(render, "__func__", render))
        # The column's own render, marked as giving text with nothing to escape
        # (numbers, signs): called as it is, its text written as it is.
        self.plain = (
            getattr(render, "plain_text", False)
            and getattr(render, "__self__", None) is column
            and not self.link
        )
        self.fixed = {"column": column, "bound_column": bound_column, "table": table}
        self.fixed = {a: v for a, v in self.fixed.items() if a in self.wants}
        self.want_value = "value" in self.wants
        self.want_record = "record" in self.wants
        self.render = render

    def value(self, record):
        if isinstance(record, dict):
            value = record.get(self.key, _MISSING)
            if value is not _MISSING:
                return value
        return self.accessor.resolve(record, quiet=True)

    def _render(self, value, record):
        kwargs = dict(self.fixed)
        if self.want_value:
            kwargs["value"] = value
        if self.want_record:
            kwargs["record"] = record
        content = self.render(**kwargs)
        if self.link:
            content = self.link(
                content,
                bound_row=None,
                value=value,
                record=record,
                column=self.column,
                bound_column=self.bound,
                table=self.table,
            )
        return content

    def cell(self, record) -> str:
        """The inside of the ``<td>``, escaped."""
        if self.slow:
            content = BoundRow(record, self.table).get_cell(self.name)
            return text_html(content if isinstance(content, str) else localize(content))
        value = self.value(record)
        if value in self.empty_values:
            return self.empty
        content = self._render(value, record)
        if self.plain:
            return content
        return text_html(content if isinstance(content, str) else localize(content))

    def drawer(self):
        """A function drawing the whole ``<td>`` of a record: :meth:`cell`, or for the
        commonest cell (a number read from a dict row, its text written as it is) the
        same steps without the method calls, as a page has hundreds of them."""
        if self.slow or not self.plain or self.wants != ("value",):
            return lambda record: f"{self.open}{self.cell(record)}</td>"
        key, render, resolve = self.key, self.render, self.accessor.resolve
        empty_values, empty_cell = self.empty_values, f"{self.open}{self.empty}</td>"
        head = self.open

        def draw(record) -> str:
            value = record.get(key, _MISSING) if isinstance(record, dict) else _MISSING
            if value is _MISSING:
                value = resolve(record, quiet=True)
            if value in empty_values:
                return empty_cell
            return f"{head}{render(value=value)}</td>"

        return draw


class Table(tables.Table):
    """A django-tables2 table whose page of rows is drawn by :meth:`body_rows`
    (``results/table.html`` and :func:`draw_table` use it). ``row_id(record)`` may give
    a row its anchor; with ``cards`` (the default) a phone shows each row as a card of
    labelled values (results.css) instead of a table wider than the screen."""

    fast_rows = True
    cards = True  # on a phone each row is drawn as a card of labelled values

    def row_id(self, record) -> str | None:
        return None

    def page_records(self):
        """The records of the page shown (every record when not paginated)."""
        rows = self.page.object_list if getattr(self, "page", None) else self.rows
        return rows.data

    def plans(self) -> list[_Plan]:
        """Each column's plan, with the attributes :func:`draw_table` read for the
        header (django-tables2 builds them anew on every read), if it did."""
        attrs = getattr(self, "column_attrs", None) or {}
        return [_Plan(self, column, attrs.get(column.name)) for column in self.columns]

    def body_rows(self) -> list[SafeString]:
        drawers = [plan.drawer() for plan in self.plans()]
        out = []
        for record in self.page_records():
            cells = "".join([draw(record) for draw in drawers])
            anchor = self.row_id(record)
            if anchor:
                out.append(SafeString(f'<tr id="{text_html(anchor)}">{cells}</tr>'))
            else:
                out.append(SafeString(f"<tr>{cells}</tr>"))
        return out


# ---------------------------------------------------------------------------------------
# The whole table, as results/table.html draws it through {% render_table %}


def _attrs(attrs) -> str:
    """A part's attributes (``table.attrs.thead`` and the like), as the template's
    ``{{ ....as_html }}`` gives them: nothing unless they can draw themselves."""
    as_html = getattr(attrs, "as_html", None)
    return as_html() if as_html else ""


class _Query:
    """``{% querystring_replace key=value %}`` of django-tables2: the request's query
    with one key replaced, escaped."""

    def __init__(self, request):
        self.params = dict(request.GET) if request is not None else {}

    def replace(self, key, value) -> str:
        params = dict(self.params)
        if key not in ("", None):
            params[key] = value
        return escape("?" + urlencode(params, doseq=True))


def _head(table, query: _Query, attrs: dict) -> str:
    out = [f"<thead {_attrs(table.attrs.get('thead'))}>\n<tr>"]
    for column in table.columns:
        header = conditional_escape(column.header)
        ordered = column.is_ordered
        descending = ordered and column.order_by_alias.is_descending
        sort = ""
        if ordered:
            sort = f' aria-sort="{"descending" if descending else "ascending"}"'
        out.append(f'<th {attrs[column.name]["th"].as_html()} scope="col"{sort}>')
        if column.orderable:
            href = query.replace(table.prefixed_order_by_field, column.order_by_alias.next)
            arrow = ""
            if ordered:
                arrow = f'<span aria-hidden="true">{" ▼" if descending else " ▲"}</span>'
            out.append(f'<a href="{href}" title="Sort by {header}">{header}{arrow}</a>')
        else:
            out.append(str(header))
        out.append("</th>")
    out.append("</tr>\n</thead>")
    return "".join(out)


def _body(table) -> str:
    rows = table.body_rows()
    if not rows and table.empty_text:
        text = conditional_escape(table.empty_text)
        rows = [f'<tr><td colspan="{len(table.columns)}">{text}</td></tr>']
    body = "\n".join(rows)
    return f"<tbody {_attrs(table.attrs.get('tbody'))}>\n{body}\n</tbody>"


def _foot(table) -> str:
    if not table.has_footer():
        return ""
    cells = "".join(
        f"<td {column.attrs['tf'].as_html()}>{conditional_escape(column.footer)}</td>"
        for column in table.columns
    )
    return f"<tfoot {_attrs(table.attrs.get('tfoot'))}><tr>{cells}</tr></tfoot>"


def _pagination(table, query: _Query) -> str:
    page = getattr(table, "page", None)
    if not page or table.paginator.num_pages <= 1:
        return ""
    field = table.prefixed_page_field
    out = ['<nav aria-label="Table navigation">\n<ul class="pagination justify-content-center">']
    if page.has_previous():
        href = query.replace(field, page.previous_page_number())
        out.append(
            f'<li class="previous page-item"><a href="{href}" class="page-link">'
            f'<span aria-hidden="true">&laquo;</span> {escape(_("previous"))}</a></li>'
        )
    if page.has_previous() or page.has_next():
        for p in table_page_range(page, table.paginator):
            active = " active" if page.number == p else ""
            href = f' href="{query.replace(field, p)}"' if p != "..." else ""
            out.append(f'<li class="page-item{active}"><a class="page-link" {href}>{p}</a></li>')
    if page.has_next():
        href = query.replace(field, page.next_page_number())
        out.append(
            f'<li class="next page-item"><a href="{href}" class="page-link">'
            f'{escape(_("next"))} <span aria-hidden="true">&raquo;</span></a></li>'
        )
    out.append("</ul>\n</nav>")
    return "\n".join(out)


def draw_table(table: Table, request) -> SafeString:
    """The whole table as ``{% render_table table %}`` draws it with
    ``results/table.html`` (the same tags, attributes, links and text; a test compares
    the two), in plain Python: the headers with their sort links, the page of rows,
    the footer and the pagination."""
    table.before_render(request)
    query = _Query(request)
    # Each column's attributes, which django-tables2 builds anew on every read: once
    # for the header and the cells (Table.plans).
    columns = {column.name: column.attrs for column in table.columns}
    table.column_attrs = columns
    cards = " cards" if table.cards else ""
    attrs = AttributeDict({"class": "table"})
    attrs.update(table.attrs)
    parts = (
        f'<div class="table-container{cards}">\n<table {attrs.as_html()}>',
        _head(table, query, columns) if table.show_header else "",
        _body(table),
        _foot(table),
        "</table>",
        _pagination(table, query),
        "</div>",
    )
    table.column_attrs = None  # read for this drawing only
    return mark_safe("\n".join(parts))
