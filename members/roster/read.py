"""Reading a roster file into rows of cells: .xlsx or .csv, any encoding, header anywhere.

Pure: no database. The file is told apart by its content, not its name; the header row
is found among the first rows, its column names recognised in any case and spelling;
blank rows and repeated headers are skipped. The cells are then cleaned
(:mod:`members.roster.clean`) into a `Roster`: valid rows, refused rows with their line
number and reason, exact duplicates. A file that is not a roster raises `RosterError`
with one clear message.

Line numbers are the file's own: the spreadsheet row number for .xlsx, the line number
for .csv (blank lines count, as in a text editor).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.roster.clean import (
    FIELD_LABELS,
    Duplicate,
    Refusal,
    Replaced,
    RosterRow,
    cell_text,
    clean_rows,
)
from members.roster.dates import AUTO, DATE_ORDERS, DateOrder, choose_date_order, usual_order
from members.roster.limits import (
    HEADER_SEARCH_ROWS,
    MAX_ROWS,
    MAX_UPLOAD_BYTES,
    RosterError,
    check_upload_size,
)
from members.roster.sheets import csv_sheets, xlsx_sheets

__all__ = [
    "MAX_ROWS",
    "MAX_UPLOAD_BYTES",
    "Roster",
    "RosterError",
    "check_upload_size",
    "read_roster",
]


def _norm(text: Any) -> str:
    """'  Member No. ' → 'memberno'; 'E-mail' → 'email'; 'Member #' → 'member#'."""
    return re.sub(r"[^a-z0-9#]", "", str(text).lower())


_ALIASES = {
    "membership_number": [
        "membership number",
        "membership no",
        "membership #",
        "membership num",
        "member number",
        "member no",
        "member #",
        "member num",
        "number",
        "no",
        "no.",
        "num",
        "#",
        "membership",
        "card",
        "card no",
        "card number",
        "card #",
        "member id",
        "membership id",
    ],
    "first_name": [
        "first name",
        "first",
        "firstname",
        "forename",
        "given name",
        "given",
        "fname",
        "christian name",
    ],
    "last_name": [
        "last name",
        "last",
        "lastname",
        "surname",
        "family name",
        "lname",
    ],
    "name": ["name", "full name", "member name", "names", "member's name"],
    "email": ["email", "e-mail", "email address", "e-mail address", "mail"],
    "phone": [
        "phone",
        "telephone",
        "tel",
        "tel.",
        "mobile",
        "cell",
        "phone number",
        "telephone number",
        "mobile number",
        "cell phone",
        "phone no",
    ],
    "status": ["status", "membership status", "member status", "active"],
    "joined": [
        "joined",
        "join date",
        "date joined",
        "joining date",
        "joined on",
        "member since",
        "since",
        "start date",
    ],
    "notes": ["notes", "note", "comments", "comment", "remarks"],
}
ALIASES = {_norm(alias): name for name, aliases in _ALIASES.items() for alias in aliases}


def club_language_code() -> str | None:
    """The language of the club whose roster is read (None outside a club)."""
    from django_scopes import ScopeError

    from members.clubs.scope import current_club

    try:
        return current_club().language_code
    except (ScopeError, LookupError):
        return None


@dataclass
class Roster:
    """What `read_roster` found in a file."""

    filename: str
    file_kind: str
    header_line: int
    columns: dict[str, str]  # field → the header as written in the file
    ignored_columns: list[str]
    rows: list[RosterRow] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sheet: str = ""
    replaced: list[Replaced] = field(default_factory=list)
    dates: DateOrder = field(default_factory=DateOrder)
    # The cells of every row, kept only when the file has dates like 03/04/2021, so
    # the preview can read them again the other way without another upload.
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def clean(self, records: list[tuple[int, dict[str, Any]]], date_order: str) -> None:
        """Clean ``records`` into rows, refusals, duplicates and replaced rows, reading
        their d/m/y dates in ``date_order`` (AUTO: as the file shows)."""
        if "joined" in self.columns:
            self.dates = choose_date_order(
                [(line, cells.get("joined")) for line, cells in records],
                date_order,
                usual_order(club_language_code()),
            )
        self.records = records if self.dates.asks else []
        cleaned = clean_rows(records, self.dates.order)
        self.rows, self.refused, self.duplicates, self.replaced = cleaned

    def reread(self, date_order: str) -> None:
        """Read the dates again in ``date_order`` (from the kept cells)."""
        if self.records:
            self.clean(self.records, date_order)

    def to_json(self) -> dict[str, Any]:
        return {
            "filename": self.filename,
            "file_kind": self.file_kind,
            "header_line": self.header_line,
            "columns": self.columns,
            "ignored_columns": self.ignored_columns,
            "rows": [row.to_json() for row in self.rows],
            "refused": [asdict(r) for r in self.refused],
            "duplicates": [asdict(d) for d in self.duplicates],
            "notes": self.notes,
            "sheet": self.sheet,
            "replaced": [asdict(r) for r in self.replaced],
            "dates": self.dates.to_json(),
            "records": [
                [line, {name: _cell_to_json(v) for name, v in cells.items()}]
                for line, cells in self.records
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roster:
        return cls(
            filename=data["filename"],
            file_kind=data["file_kind"],
            header_line=data["header_line"],
            columns=data["columns"],
            ignored_columns=data["ignored_columns"],
            rows=[RosterRow.from_json(row) for row in data["rows"]],
            refused=[Refusal(**r) for r in data["refused"]],
            duplicates=[Duplicate(**d) for d in data["duplicates"]],
            notes=data["notes"],
            sheet=data.get("sheet", ""),
            replaced=[Replaced(**r) for r in data.get("replaced", [])],
            dates=DateOrder.from_json(data.get("dates")),
            records=[
                (line, {name: _cell_from_json(v) for name, v in cells.items()})
                for line, cells in data.get("records", [])
            ],
        )


def _cell_to_json(value: Any) -> Any:
    """A cell as the session stores it: dates and times tagged, the rest as they are."""
    if isinstance(value, dt.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"date": value.isoformat()}
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def _cell_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "datetime" in value:
        return dt.datetime.fromisoformat(value["datetime"])
    if isinstance(value, dict) and "date" in value:
        return dt.date.fromisoformat(value["date"])
    return value


def read_roster(filename: str, data: bytes, *, date_order: str = AUTO) -> Roster:
    """Read a roster file (.xlsx or .csv, told apart by content, not by name)."""
    if date_order not in DATE_ORDERS:
        raise ValueError(f"date_order must be one of {DATE_ORDERS}")
    check_upload_size(len(data), MAX_UPLOAD_BYTES)  # read here, so tests can lower it
    if not data.strip():
        raise RosterError(
            _("The file is empty. Choose the roster file saved from your spreadsheet.")
        )
    if data.startswith(b"PK\x03\x04"):
        sheets = xlsx_sheets(data)
        kind = "xlsx"
    elif data.startswith(b"%PDF"):
        raise RosterError(
            _(
                "This is a PDF document, not a roster. Open the roster in your "
                "spreadsheet program and save it as .xlsx or .csv."
            )
        )
    elif data.startswith(b"\xd0\xcf\x11\xe0"):
        raise RosterError(
            _(
                "This is an old-style Excel file (.xls). Open it in your "
                "spreadsheet program and save it as .xlsx (Excel workbook) or "
                ".csv, then upload that."
            )
        )
    else:
        sheets = csv_sheets(data, find_header=_find_header)
        kind = "csv"
    found = None
    for sheet_name, rows in sheets:
        header = _find_header(rows)
        if header is not None:
            found = (sheet_name, rows, header)
            break
    if found is None:
        raise RosterError(_no_header_message(sheets, kind))
    sheet_name, rows, (header_index, mapping, ignored) = found
    roster = _read_rows(filename, kind, rows, header_index, mapping, ignored, date_order)
    roster.sheet = sheet_name if kind == "xlsx" and len(sheets) > 1 else ""
    return roster


def _find_header(rows):
    """(index in rows, {column index: field}, [ignored header texts]) or None."""
    for index, (_line, values) in enumerate(rows[:HEADER_SEARCH_ROWS]):
        mapping: dict[int, str] = {}
        ignored: list[str] = []
        for column, value in enumerate(values):
            if value is None or str(value).strip() == "":
                continue
            name = ALIASES.get(_norm(value))
            if name is None or name in mapping.values():
                ignored.append(str(value).strip())
            else:
                mapping[column] = name
        fields = set(mapping.values())
        if "membership_number" in fields and ({"first_name", "name"} & fields):
            return index, mapping, ignored
    return None


def _no_header_message(sheets, kind) -> str:
    expected = "“Membership number”, “First name”, “Last name” (or “Name”)"
    # Say what we did see, when some columns were recognised.
    for _sheet, rows in sheets:
        for line, values in rows[:HEADER_SEARCH_ROWS]:
            seen = {ALIASES.get(_norm(v)) for v in values if v is not None and str(v).strip()}
            seen.discard(None)
            if len(seen) >= 2:
                labels = ", ".join(FIELD_LABELS[f] for f in sorted(seen))
                missing = (
                    _("membership number column")
                    if "membership_number" not in seen
                    else _("first name or name column")
                )
                words = {"line": line, "labels": labels, "missing": missing, "expected": expected}
                if kind == "xlsx":
                    return (
                        _(
                            "This doesn't look like a complete roster: row %(line)s has "
                            "%(labels)s but no %(missing)s. Add it, or check the column names "
                            "(%(expected)s)."
                        )
                        % words
                    )
                return (
                    _(
                        "This doesn't look like a complete roster: line %(line)s has "
                        "%(labels)s but no %(missing)s. Add it, or check the column names "
                        "(%(expected)s)."
                    )
                    % words
                )
    return _(
        "This file is not a roster we can read: no header row with the columns "
        "%(expected)s was found in its first %(rows)s rows."
    ) % {"expected": expected, "rows": HEADER_SEARCH_ROWS}


def _read_rows(filename, kind, rows, header_index, mapping, ignored, date_order) -> Roster:
    header_line, header_values = rows[header_index]
    columns = {name: str(header_values[col]).strip() for col, name in mapping.items()}
    roster = Roster(
        filename=filename,
        file_kind=kind,
        header_line=header_line,
        columns=columns,
        ignored_columns=ignored,
    )
    records, repeated_headers = _records(rows, header_index, mapping)
    if repeated_headers:
        roster.notes.append(
            ngettext(
                "The header row was repeated %(n)s more time in the file; that row was skipped.",
                "The header row was repeated %(n)s more times in the file; those rows were "
                "skipped.",
                repeated_headers,
            )
            % {"n": repeated_headers}
        )
    if not records:
        raise RosterError(
            (
                _("The roster has a header row (row %(line)s) but no member rows under it.")
                if kind == "xlsx"
                else _("The roster has a header row (line %(line)s) but no member rows under it.")
            )
            % {"line": header_line}
        )
    roster.clean(records, date_order)
    return roster


def _records(rows, header_index, mapping) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The cells of each data row, by field, skipping blank rows and repeated headers;
    and how many repeated headers were skipped."""
    header_norm = [_norm(v) if v is not None else "" for v in rows[header_index][1]]
    records: list[tuple[int, dict[str, Any]]] = []
    repeated_headers = 0
    for line, values in rows[header_index + 1 :]:
        cells = {
            name: (values[col] if col < len(values) else None) for col, name in mapping.items()
        }
        if all(cell_text(v) == "" for v in cells.values()):
            continue
        if [_norm(v) if v is not None else "" for v in values[: len(header_norm)]] == header_norm:
            repeated_headers += 1
            continue
        records.append((line, cells))
    return records, repeated_headers
