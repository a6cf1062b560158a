"""A results table drawn whole in Python: :func:`draw_table` writes what
``{% render_table table %}`` writes with results/table.html (a test compares them) —
the sortable headers, the rows (the table's own ``body_rows``) and the page links —
without a template lookup per header or page link (the member's page draws its three
tables this way)."""

from __future__ import annotations

from django.utils.html import conditional_escape, escape
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django_tables2.templatetags.django_tables2 import render_attrs, table_page_range


def _query(request, key: str, value) -> str:
    """``{% querystring_replace key=value %}``: the request's query with one key set."""
    params = dict(request.GET)
    params[key] = value
    return escape("?" + urlencode(params, doseq=True))


def _head(table, request) -> str:
    cells = []
    for column in table.columns:
        header = conditional_escape(column.header)
        sort = ""
        if column.is_ordered:
            down = column.order_by_alias.is_descending
            sort = f' aria-sort="{"descending" if down else "ascending"}"'
        if column.orderable:
            href = _query(request, table.prefixed_order_by_field, column.order_by_alias.next)
            arrow = ""
            if column.is_ordered:
                arrow = f'<span aria-hidden="true">{" ▼" if down else " ▲"}</span>'
            inside = f'<a href="{href}" title="Sort by {header}">{header}{arrow}</a>'
        else:
            inside = header
        cells.append(
            f'\n    <th {column.attrs["th"].as_html()} scope="col"{sort}>\n      \n'
            f"        {inside}\n      \n    </th>\n  "
        )
    return f"\n\n<thead {_attrs(table, 'thead')}>\n  <tr>\n  {''.join(cells)}\n  </tr>\n</thead>\n"


def _attrs(table, part: str) -> str:
    found = table.attrs.get(part)
    return found.as_html() if hasattr(found, "as_html") else ""


def _body_html(table) -> str:
    rows = table.body_rows()
    if rows:
        inside = "".join(f"{row}\n" for row in rows)
    elif table.empty_text:
        text = conditional_escape(table.empty_text)
        inside = f'<tr><td colspan="{len(table.columns)}">{text}</td></tr>\n'
    else:
        inside = ""
    return f"\n\n<tbody {_attrs(table, 'tbody')}>\n{inside}\n</tbody>\n"


def _page_item(request, key, page, number) -> str:
    active = " active" if page.number == number else ""
    href = "" if number == "..." else f'href="{_query(request, key, number)}"'
    return (
        f'\n                <li class="page-item{active}">\n'
        f'                    <a class="page-link" {href}>\n'
        f"                        {number}\n                    </a>\n"
        "                </li>\n            "
    )


def _pagination(table, request) -> str:
    page = getattr(table, "page", None)
    if not page or table.paginator.num_pages <= 1:
        return ""
    key = table.prefixed_page_field
    out = [
        '        <nav aria-label="Table navigation">\n'
        '            <ul class="pagination justify-content-center">\n            '
    ]
    if page.has_previous():
        href = _query(request, key, page.previous_page_number())
        out.append(
            f'\n                \n                <li class="previous page-item">\n'
            f'                    <a href="{href}" class="page-link">\n'
            f'                        <span aria-hidden="true">&laquo;</span>\n'
            f"                        {gettext('previous')}\n                    </a>\n"
            f"                </li>\n                \n            "
        )
    out.append("\n            ")
    if page.has_previous() or page.has_next():
        out.append("\n            \n            ")
        for number in table_page_range(page, table.paginator):
            out.append(_page_item(request, key, page, number))
        out.append("\n            \n            ")
    out.append("\n            ")
    if page.has_next():
        href = _query(request, key, page.next_page_number())
        out.append(
            f'\n                \n                <li class="next page-item">\n'
            f'                    <a href="{href}" class="page-link">\n'
            f"                        {gettext('next')}\n"
            f'                        <span aria-hidden="true">&raquo;</span>\n'
            f"                    </a>\n                </li>\n                \n            "
        )
    out.append("\n            </ul>\n        </nav>\n        \n")
    return "".join(out)


def draw_table(table, request) -> SafeString:
    """The HTML ``{% render_table table %}`` draws with results/table.html (a test
    compares them), in Python: the headers, the rows (:meth:`_FastRows.body_rows`) and
    the page links, without a template lookup per header or per page link."""
    cards = " cards" if table.cards else ""
    table_attrs = render_attrs(table.attrs, **{"class": "table"})
    return mark_safe(
        f'\n\n\n<div class="table-container{cards}">\n  \n        \n'
        f"        <table {table_attrs}>\n            "
        f"{_head(table, request) if table.show_header else ''}\n\n            "
        f"{_body_html(table)}\n\n            \n            \n            \n"
        f"        </table>\n    \n    \n  \n        \n        \n{_pagination(table, request)}"
        f"    \n    \n</div>\n\n"
    )
