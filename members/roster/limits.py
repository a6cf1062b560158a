"""The limits of a roster upload, and the checks that refuse a file before it can hurt.

A small upload can unpack to gigabytes: a 1 MB .xlsx can hold one 1 GiB cell, a 700 KB
one five million rows. Reading such a file whole would take the worker's memory, so
every limit here is checked while the file is read, as early as it can be: the byte size
first, then (for .xlsx) the unpacked size of each part (:mod:`members.roster.package`),
then each row as it streams past, stopping at the first row over a limit.

Pure: no database. Every refusal is a `RosterError` whose message says what to fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
HEADER_SEARCH_ROWS = 20
MAX_ROWS = 20_000
# No roster cell (a name, a number, an address, a short note) comes near this.
MAX_CELL_CHARS = 2_000  # a person's notes hold up to 2,000: a download imports back
# Excel's own widest sheet; a row wider than this was not made by a spreadsheet program.
MAX_COLUMNS = 16_384

MB = 1024 * 1024
SAVE_ONLY_THE_ROSTER = gettext_lazy("Save only the roster sheet (as .xlsx or .csv) and try again.")


def num(n, decimals: int | None = None) -> str:
    """A number as the officer's language writes it (20,000 or 20.000)."""
    return number_format(n, decimal_pos=decimals, force_grouping=True)


class RosterError(Exception):
    """The file is not a roster we can read. One clear message, nothing else."""


def check_upload_size(size: int, limit: int = MAX_UPLOAD_BYTES) -> None:
    """Refuse a file by its byte size, before anything reads its content."""
    if size > limit:
        raise RosterError(
            _(
                "The file is too large (%(size)s MB); a roster file may be at most "
                "%(limit)s MB. %(save)s"
            )
            % {"size": num(size / MB, 1), "limit": num(limit // MB), "save": SAVE_ONLY_THE_ROSTER}
        )


def too_many_rows() -> RosterError:
    """The refusal for a sheet or text with more rows than a roster can have."""
    return RosterError(
        _(
            "The roster has more than %(rows)s rows; a club roster is at most %(rows)s "
            "members. Delete the empty and old rows at the bottom, save only the roster "
            "sheet and try again."
        )
        % {"rows": num(MAX_ROWS)}
    )


def too_many_cells(where: str) -> RosterError:
    """The refusal for a row wider than any spreadsheet makes."""
    return RosterError(
        _(
            "%(where)s has more than %(cells)s cells; a roster needs only a few columns. "
            "Delete the columns to the right of the roster. %(save)s"
        )
        % {"where": where, "cells": num(MAX_COLUMNS), "save": SAVE_ONLY_THE_ROSTER}
    )


def cell_too_long(where: str, length: int | None = None) -> RosterError:
    """The refusal for one cell longer than any roster cell (where: 'Cell B7')."""
    if length:
        size = _("%(n)s characters") % {"n": num(length)}
    else:
        size = _("more than %(n)s characters") % {"n": num(MAX_CELL_CHARS)}
    return RosterError(
        _(
            "%(where)s holds %(size)s; a roster cell holds a name, a number or a short note "
            "(at most %(most)s characters). Shorten or empty that cell, save the file and "
            "try again."
        )
        % {"where": where, "size": size, "most": num(MAX_CELL_CHARS)}
    )


class RowLimits:
    """Checks each row as it streams past, so a file over a limit is refused at the first
    row over it, never after the whole file is in memory.

    `label(line, column)` names a cell the way the officer sees it: 'Cell B7' in a
    workbook, 'Line 7, column 2' in a .csv file.
    """

    def __init__(self, label) -> None:
        self.label = label
        self.count = 0

    def check(self, line: int, values: Sequence[Any]) -> None:
        self.count += 1
        if self.count > MAX_ROWS + HEADER_SEARCH_ROWS:
            raise too_many_rows()
        if len(values) > MAX_COLUMNS:
            raise too_many_cells(self.label(line, None))
        for column, value in enumerate(values, start=1):
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise cell_too_long(self.label(line, column), len(value))
