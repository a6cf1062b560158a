"""The sheet writer of the league workbook: typed columns, fitted widths, and one
write-only worksheet streamed row by row.

Every sheet has a bold header row, is frozen under it (``A2``), has an autofilter over
all its rows, and column widths that fit what is written. Every sheet is set up to
print (:class:`PrintHeading`): fitted to one page wide (as many pages tall as it needs),
landscape when its columns are wider than a portrait page, the header row repeated on
every page, and the club's name, the sheet and the period in the page header, on the
club's paper (A4 or Letter, ``members.clubs.languages.paper_size``). Dates are real date cells
(shown ``yyyy-mm-dd`` in English, ``d/m/yyyy`` in Spanish and Portuguese), numbers are
numbers (Excel shows their thousands as the reader's computer does), and a text that
starts with "=" stays text (a name, never a formula). Sheet names, headers and the
words in cells are in the language active when the workbook is written.

Rows go through openpyxl's public write-only API (``Workbook(write_only=True)``,
``WriteOnlyCell``, ``ws.append``), so memory stays flat however long the season, and
openpyxl serialises each cell through lxml when it is installed (far faster than
without). Nearly all the time of a big sheet is openpyxl's own work per cell (binding
the value, its coordinate, its XML element): appending the same rows as bare values,
with no styles and no text checks, is only about a tenth faster than this writer, so
a season's workbook costs what its number of cells costs. A column with a number format
reuses one styled cell for every row (``FAST_ROWS``) instead of making a styled cell
per value; tests switch it off to check that both ways give the same workbook, and
check that the reuse really happens.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from members.clubs import languages

WIDTH_SAMPLE = 500
MAX_WIDTH = 60
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
ONE_DECIMAL = "0.0"
THOUSANDS = "#,##0"

#: How dates show in the languages that write the day first (cells stay dates).
_DAY_FIRST = {DATE_FORMAT: "d/m/yyyy", DATETIME_FORMAT: "d/m/yyyy hh:mm"}


def shown_as(number_format: str | None) -> str | None:
    """A column's number format in the active language: dates day first in Spanish and
    Portuguese."""
    if get_language() in ("es", "pt-br"):
        return _DAY_FIRST.get(number_format, number_format)
    return number_format


#: Columns (in characters of width) that fit across a portrait A4 or Letter page at a
#: readable size; a wider sheet prints landscape (and is shrunk to one page wide).
PORTRAIT_WIDTH = 95

# One styled cell per formatted column, reused row after row (see the docstring).
FAST_ROWS = True


@dataclass(frozen=True)
class Column:
    header: str
    number_format: str | None = None  # e.g. "0.0"; dates get DATE_FORMAT by themselves
    kind: str = "text"  # text, int, number, date, datetime, bool
    width: float | None = None  # a fixed width (else fitted to the header and values)


def text(header, **kw):
    return Column(header, kind="text", **kw)


def integer(header, **kw):
    return Column(header, kind="int", **kw)


def decimal(header, **kw):
    return Column(header, kind="number", number_format=ONE_DECIMAL, **kw)


def day(header, **kw):
    return Column(header, kind="date", number_format=DATE_FORMAT, **kw)


def moment(header, **kw):
    return Column(header, kind="datetime", number_format=DATETIME_FORMAT, **kw)


def number_or_text(value):
    """A membership number as a number where it is one ("1234" → 1234), else as typed
    ("A-12", "0042": a leading zero would be lost)."""
    digits = isinstance(value, str) and value.isdigit() and value.isascii()
    if digits and (value == "0" or not value.startswith("0")):
        return int(value)
    return value or None


@dataclass(frozen=True)
class PrintHeading:
    """What every printed page of a sheet says at its top: the club and the period."""

    club: str
    period: str

    def apply(self, ws, title: str, widths: Sequence[float]) -> None:
        """Set ``ws`` (write-only, before its first row) up to print: one page wide,
        landscape if wide, row 1 repeated, the heading and page numbers."""
        ws.sheet_properties.pageSetUpPr.fitToPage = True  # written with the first row
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0  # as many pages tall as the rows need
        wide = sum(widths) > PORTRAIT_WIDTH
        ws.page_setup.orientation = "landscape" if wide else "portrait"
        ws.print_title_rows = "1:1"
        ws.print_options.gridLines = True
        ws.oddHeader.left.text = _header_text(self.club)
        ws.oddHeader.center.text = _header_text(f"{title}: {self.period}")
        ws.oddHeader.right.text = gettext("Page &P of &N")
        ws.oddFooter.right.text = gettext("Printed &D")
        letter = languages.paper_size() == languages.LETTER
        ws.page_setup.paperSize = Worksheet.PAPERSIZE_LETTER if letter else Worksheet.PAPERSIZE_A4


def _header_text(value: str) -> str:
    """A page header's text: "&" is the header's code sign, so a name's "&" is doubled."""
    return value.replace("&", "&&")


# ---------------------------------------------------------------------------------------
# Writing one sheet


def _display_length(value, column: Column) -> int:
    if value is None:
        return 0
    if column.kind == "date":
        return 10
    if column.kind == "datetime":
        return 16
    if isinstance(value, float):
        return len(f"{value:,.1f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return len(f"{value:,}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def fit_widths(columns: Sequence[Column], sample: Sequence[Sequence], minimum=None) -> list[float]:
    """Column widths (in characters) that fit the header and the sampled rows, bounded
    to MAX_WIDTH; ``minimum`` maps a column index to a width known in advance (the
    longest name of a big sheet, say)."""
    widths = []
    for i, column in enumerate(columns):
        if column.width:
            widths.append(column.width)
            continue
        longest = max((_display_length(row[i], column) for row in sample), default=0)
        longest = max(longest, (minimum or {}).get(i, 0))
        header = len(str(column.header))
        widths.append(float(min(MAX_WIDTH, max(header + 3, longest + 2, 6))))
    return widths


class SheetWriter:
    """One write-only worksheet: a bold, frozen header, fitted widths, an autofilter
    over every row written. ``write(rows)`` streams the rows."""

    def __init__(
        self,
        workbook: Workbook,
        title: str,
        columns: Sequence[Column],
        heading: PrintHeading | None = None,
    ):
        self.workbook = workbook
        # The sheet's name in the reader's language (Excel allows 31 characters).
        self.title = gettext(title)[:31]
        self.ws = workbook.create_sheet(self.title)
        self.heading = heading
        self.columns = list(columns)
        self.rows_written = 0
        self._letters = [get_column_letter(i + 1) for i in range(len(self.columns))]

    def write(
        self,
        rows: Iterable[Sequence],
        minimum_widths: dict[int, int] | None = None,
        totals: Sequence[Sequence] = (),
    ) -> int:
        """Stream ``rows`` under the header; ``totals`` (bold) go below them, outside
        the autofilter, so sorting or filtering never moves them. Returns the number
        of ``rows``."""
        rows = iter(rows)
        sample = list(islice(rows, WIDTH_SAMPLE))
        ws = self.ws
        widths = fit_widths(self.columns, [*sample, *totals], minimum_widths)
        for letter, width in zip(self._letters, widths, strict=True):
            ws.column_dimensions[letter].width = width
        if self.heading is not None:
            self.heading.apply(ws, self.title, widths)
        ws.freeze_panes = "A2"
        self._write_header()
        self._write_rows(chain(sample, rows))
        ws.auto_filter.ref = f"A1:{self._letters[-1]}{self.rows_written + 1}"
        for row in totals:
            ws.append([self._bold(value) for value in row])
        return self.rows_written

    def _bold(self, value) -> WriteOnlyCell | None:
        if value is None or value == "":
            return None
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell = WriteOnlyCell(self.ws, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # a label, never a formula
        cell.font = Font(bold=True)
        return cell

    def _write_header(self) -> None:
        header = []
        for column in self.columns:
            cell = WriteOnlyCell(self.ws, value=str(column.header))
            cell.font = Font(bold=True)
            header.append(cell)
        self.ws.append(header)

    def _formatted_cell(self, i: int) -> WriteOnlyCell:
        cell = WriteOnlyCell(self.ws)
        cell.number_format = shown_as(self.columns[i].number_format)
        return cell

    def _write_rows(self, rows: Iterator[Sequence]) -> None:
        ws = self.ws
        formatted = [i for i, c in enumerate(self.columns) if c.number_format]
        reused = {i: self._formatted_cell(i) for i in formatted}
        for row in rows:
            values = list(row)
            for i in formatted:
                value = values[i]
                if value is not None:
                    cell = reused[i] if FAST_ROWS else self._formatted_cell(i)
                    cell.value = value
                    values[i] = cell
            for i, value in enumerate(values):
                if isinstance(value, (str, Promise)):  # a word said in the reader's language
                    values[i] = self._text(str(value))
            ws.append(values)
            self.rows_written += 1

    def _text(self, value: str):
        """A text cell's value: None for an empty text (no cell), characters a
        spreadsheet cannot hold left out, and a text starting with "=" kept as text."""
        if not value:
            return None
        if ILLEGAL_CHARACTERS_RE.search(value):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        if value.startswith("="):
            cell = WriteOnlyCell(self.ws, value=value)
            cell.data_type = "s"  # a name, never a formula
            return cell
        return value
