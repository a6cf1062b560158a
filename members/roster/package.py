"""Checks on an .xlsx package before openpyxl builds anything from it.

An .xlsx file is a zip of XML parts. openpyxl reads some parts whole (the shared
strings, the styles) and hands over a sheet one row at a time, but each row is built
whole first: a 1 GiB cell or a row of a million cells is in memory before our code sees
it. So, before openpyxl opens the file:

1. `check_package`: the zip's directory alone (no part unpacked) gives each part's
   unpacked size. Every part, the shared strings and the total are held to limits, and
   a large part that shrank more than any spreadsheet does is refused (a zip bomb).
   Python's zipfile never unpacks a part beyond the size its directory declares, so a
   file that lies about a size is refused as damaged when it is read.
2. `scan_parts`: each XML part is streamed through expat in small pieces, counting rows,
   the cells of each row and the characters of each cell without keeping them, and
   stopping at the first one over its limit. A part with a DTD is refused: spreadsheet
   parts never have one, and entity tricks need one.
"""

from __future__ import annotations

import zipfile
from xml.parsers import expat

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from members.roster.limits import (
    HEADER_SEARCH_ROWS,
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    MAX_ROWS,
    MB,
    SAVE_ONLY_THE_ROSTER,
    RosterError,
    cell_too_long,
    num,
    too_many_cells,
    too_many_rows,
)

MAX_UNPACKED_TOTAL = 50 * MB
MAX_UNPACKED_PART = 40 * MB  # the largest part of a roster: its sheet
MAX_SHARED_STRINGS = 10 * MB
# A spreadsheet part rarely shrinks more than 20 times; 100 is the usual zip-bomb line.
MAX_RATIO = 100
RATIO_FROM_SIZE = 1 * MB  # small parts may shrink as much as they like
READ_CHUNK = 64 * 1024

DAMAGED = gettext_lazy(
    "This file could not be read as an Excel workbook (.xlsx): it may be damaged, or "
    "another kind of file renamed. Save the roster again as .xlsx or .csv."
)
SHEET_NAMESPACES = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
)
# expat names elements "namespace local"; rows, cells and formulas of a sheet, by name.
_COUNTED = {f"{ns} {local}": local for ns in SHEET_NAMESPACES for local in ("row", "c", "f")}


def _unpacks_to(size: int, limit: int) -> RosterError:
    return RosterError(
        _("This file unpacks to %(size)s MB; a roster is at most %(limit)s MB unpacked. %(save)s")
        % {"size": num(round(size / MB)), "limit": num(limit // MB), "save": SAVE_ONLY_THE_ROSTER}
    )


def check_package(archive: zipfile.ZipFile) -> None:
    """Refuse a package whose parts unpack too large, from its directory alone."""
    infos = archive.infolist()
    total = sum(info.file_size for info in infos)
    if total > MAX_UNPACKED_TOTAL:
        raise _unpacks_to(total, MAX_UNPACKED_TOTAL)
    for info in infos:
        limit = MAX_UNPACKED_PART
        if "sharedstrings" in info.filename.lower():
            limit = MAX_SHARED_STRINGS
        if info.file_size > limit:
            raise _unpacks_to(info.file_size, limit)
        shrunk = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FROM_SIZE and shrunk > MAX_RATIO:
            raise RosterError(
                _(
                    "This file unpacks to %(times)s times its size, which no spreadsheet "
                    "does: it may be damaged or built to harm. %(save)s"
                )
                % {"times": num(round(shrunk)), "save": SAVE_ONLY_THE_ROSTER}
            )


class _SheetScan:
    """expat handlers that count rows, cells and cell characters, and keep nothing."""

    def __init__(self) -> None:
        self.rows = 0  # rows seen in this part
        self.row = 0  # the current row's number, as openpyxl numbers it
        self.cells = 0  # cells in the current row
        self.cell = ""  # the current cell's reference, when inside a cell
        self.chars = 0  # characters of the current cell's value
        self.in_formula = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        local = _COUNTED.get(name)
        if local is None:
            return
        if local == "row":
            self.rows += 1
            self.row = int(attrs["r"]) if attrs.get("r", "").isdigit() else self.row + 1
            if max(self.rows, self.row) > MAX_ROWS + HEADER_SEARCH_ROWS:
                raise too_many_rows()
            self.cells = 0
        elif local == "c":
            self.cells += 1
            if self.cells > MAX_COLUMNS:
                raise too_many_cells(_("Row %(line)s") % {"line": self.row})
            self.cell = attrs.get("r") or _("A cell of row %(n)s") % {"n": self.row}
            self.chars = 0
        elif local == "f":
            self.in_formula = True

    def end(self, name: str) -> None:
        local = _COUNTED.get(name)
        if local == "c":
            self.cell = ""
        elif local == "f":
            self.in_formula = False

    def text(self, data: str) -> None:
        if self.cell and not self.in_formula:
            self.chars += len(data)
            if self.chars > MAX_CELL_CHARS:
                where = self.cell if " " in self.cell else _("Cell %(cell)s") % {"cell": self.cell}
                raise cell_too_long(where)


def _no_dtd(*_args) -> None:
    raise RosterError(DAMAGED)


def scan_parts(archive: zipfile.ZipFile) -> None:
    """Stream every XML part through the sheet scan; refuse at the first excess."""
    for info in archive.infolist():
        if not info.filename.lower().endswith((".xml", ".rels")):
            continue
        scan = _SheetScan()
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.StartElementHandler = scan.start
        parser.EndElementHandler = scan.end
        parser.CharacterDataHandler = scan.text
        parser.StartDoctypeDeclHandler = _no_dtd
        try:
            with archive.open(info) as stream:
                while chunk := stream.read(READ_CHUNK):
                    parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except (expat.ExpatError, zipfile.BadZipFile, EOFError, OSError, ValueError) as error:
            raise RosterError(DAMAGED) from error
        except NotImplementedError as error:  # a compression method zipfile cannot read
            raise RosterError(DAMAGED) from error


def open_package(stream) -> zipfile.ZipFile:
    """The zip of an .xlsx upload, checked (sizes, then every XML part) before use."""
    try:
        archive = zipfile.ZipFile(stream)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise RosterError(DAMAGED) from error
    try:
        check_package(archive)
        scan_parts(archive)
    except BaseException:
        archive.close()
        raise
    return archive
