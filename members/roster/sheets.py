"""A roster file's bytes to numbered rows of cell values: .xlsx sheets, .csv text.

Pure: no database. Each row is checked as it streams past (`RowLimits`), so a file with
too many rows or an overlong cell is refused at that row, not after it is all in memory;
an .xlsx package is checked before openpyxl opens it (:mod:`members.roster.package`).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from members.roster.limits import HEADER_SEARCH_ROWS, RosterError, RowLimits, cell_too_long
from members.roster.package import DAMAGED, open_package

Sheets = list[tuple[str, list[tuple[int, list[Any]]]]]


def _cell_name(line: int, column: int | None) -> str:
    from openpyxl.utils import get_column_letter

    if column is None:
        return _("Row %(line)s") % {"line": line}
    return _("Cell %(cell)s") % {"cell": f"{get_column_letter(column)}{line}"}


def xlsx_sheets(data: bytes) -> Sheets:
    """Every sheet (the active one first) as numbered rows of cell values."""
    from openpyxl import load_workbook  # imported here: only .xlsx needs it

    open_package(io.BytesIO(data)).close()
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds on corrupt files
        raise RosterError(DAMAGED) from error
    try:
        worksheets = list(workbook.worksheets)
        active = workbook.active
        if active in worksheets:
            worksheets.remove(active)
            worksheets.insert(0, active)
        return [
            (worksheet.title, _sheet_rows(worksheet))
            for worksheet in worksheets
            if hasattr(worksheet, "iter_rows")  # not chart sheets
        ]
    except RosterError:
        raise
    except Exception as error:
        raise RosterError(DAMAGED) from error
    finally:
        workbook.close()


def _sheet_rows(worksheet) -> list[tuple[int, list[Any]]]:
    """The rows of one read-only sheet, each checked before the next is read."""
    if hasattr(worksheet, "reset_dimensions"):
        worksheet.reset_dimensions()  # some writers store wrong dimensions, some none
    limits = RowLimits(_cell_name)
    rows = []
    for number, values in enumerate(worksheet.iter_rows(values_only=True), start=1):
        limits.check(number, values)
        rows.append((number, list(values)))
    return rows


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise RosterError(_("This file's text could not be read (broken UTF-16).")) from error
    if b"\x00" in data[:4096]:
        raise RosterError(
            _("This is not a roster: it is not a text (.csv) file nor an Excel workbook (.xlsx).")
        )
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _line_name(line: int, column: int | None) -> str:
    if column is None:
        return _("Line %(n)s") % {"n": line}
    return _("Line %(n)s, column %(column)s") % {"n": line, "column": column}


def csv_sheets(data: bytes, find_header=None) -> Sheets:
    """The text read with each likely delimiter; the sniffed one first.

    With ``find_header`` (a function of rows, None when they hold no header) only the
    first delimiter whose first rows hold a header is read in full, with the row and cell
    limits: a valid file is never refused for what another delimiter would make of it (a
    long line read as one cell). When none has a header, each comes back with its first
    rows only, for the message that says what was seen."""
    text = _decode(data)
    sample = "\n".join(text.splitlines()[: HEADER_SEARCH_ROWS + 5])
    delimiters = [",", ";", "\t", "|"]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
        delimiters.remove(sniffed)
        delimiters.insert(0, sniffed)
    except csv.Error:
        pass
    if find_header is not None:
        samples = [(delimiter, _sample_rows(text, delimiter)) for delimiter in delimiters]
        for delimiter, sample in samples:
            if find_header(sample) is not None:
                return [(delimiter, _csv_rows(text, delimiter))]
        return samples
    return [(delimiter, _csv_rows(text, delimiter)) for delimiter in delimiters]


def _sample_rows(text: str, delimiter: str) -> list[tuple[int, list[Any]]]:
    """The first rows read with one delimiter, where a header may stand (no limits: they
    are checked when the chosen delimiter is read in full)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows = []
    last_line = 0
    try:
        for values in reader:
            rows.append((last_line + 1, values))
            last_line = reader.line_num
            if len(rows) >= HEADER_SEARCH_ROWS:
                break
    except csv.Error:
        pass
    return rows


def _csv_rows(text: str, delimiter: str) -> list[tuple[int, list[Any]]]:
    """The rows read with one delimiter, each checked before the next is read."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    limits = RowLimits(_line_name)
    rows = []
    last_line = 0
    try:
        for values in reader:
            limits.check(last_line + 1, values)
            rows.append((last_line + 1, values))
            last_line = reader.line_num
    except csv.Error as error:
        if "field larger than field limit" in str(error):
            raise cell_too_long(_("A cell on line %(n)s") % {"n": reader.line_num}) from error
        raise RosterError(
            _("This .csv file could not be read: %(error)s.") % {"error": error}
        ) from error
    return rows
