"""CSV downloads that spreadsheet programs read as the site meant them, and back.

Our CSV downloads put an apostrophe before text starting with ``= + - @``, a tab or a
carriage return (what spreadsheets read as a formula); the roster importer takes it off
again, so a downloaded list imports unchanged. Every text cell is quoted, so a name
holding a semicolon or a tab stays one cell in a spreadsheet whose list separator is
";" (much of Europe) and is never read as the start of a formula."""

import csv

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def escape_cell(value):
    """``value`` for a CSV cell: None becomes empty; formula-like text gets a leading
    apostrophe."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def unescape_cell(text: str) -> str:
    """The text :func:`escape_cell` was given (other text unchanged)."""
    if text[:1] == "'" and text[1:2] and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


class _EscapingWriter:
    """``csv.writer`` that escapes every cell and quotes every text cell."""

    def __init__(self, stream):
        self._writer = csv.writer(stream, quoting=csv.QUOTE_NONNUMERIC)

    def writerow(self, row) -> None:
        self._writer.writerow([escape_cell(value) for value in row])


def csv_download(filename: str) -> tuple[HttpResponse, _EscapingWriter]:
    """A CSV attachment named ``filename`` (UTF-8 with the mark spreadsheet programs look
    for) and the writer to fill it with: cells escaped, text quoted."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response, _EscapingWriter(response)
