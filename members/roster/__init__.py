"""Roster import: read a messy .xlsx or .csv, check every row, plan, then save.

Three steps, kept apart so that the upload page and `manage.py import_members` share
them and nothing is saved before an officer confirms:

1. `read_roster(filename, data)` — pure: no database. Finds the header row anywhere in
   the first rows, recognises column names in any case and spelling, cleans the values
   (spaces, ``1234.0``, dates, status words) and returns a `Roster`: valid rows, refused
   rows with their line number and reason, exact duplicates. A file that is not a roster
   raises `RosterError` with one clear message.
2. `plan_import(rows)` — reads the database: which rows create a member, which update
   one (matched by membership number, and which fields change), which change nothing.
3. `apply_import(rows)` — plans again against the current database and saves, all in
   one transaction.

Line numbers are the file's own: the spreadsheet row number for .xlsx, the line number
for .csv (blank lines count, as in a text editor).

Blank cells never erase what we already have: a roster without phone numbers does not
wipe the phone numbers on file. Dates like 03/04/2021 are read the way the other dates
of the same file show (a day above 12 settles it); when nothing settles it they are read
month first (US style) unless told otherwise, and the preview says so.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from clubsite.csvcells import unescape_cell

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
HEADER_SEARCH_ROWS = 20
MAX_ROWS = 20_000

AUTO, DAY_FIRST, MONTH_FIRST = "auto", "dmy", "mdy"
DATE_ORDERS = (AUTO, DAY_FIRST, MONTH_FIRST)

FIELD_LABELS = {
    "membership_number": "Membership number",
    "first_name": "First name",
    "last_name": "Last name",
    "name": "Name",
    "email": "Email",
    "phone": "Phone",
    "status": "Status",
    "joined": "Joined",
    "notes": "Notes",
}
MAX_LENGTHS = {
    "membership_number": 20,
    "first_name": 80,
    "last_name": 80,
    "email": 254,
    "phone": 40,
}


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

ACTIVE_WORDS = {"active", "a", "current", "yes", "y", "true", "1", "paid", "ok", "valid", "x"}
LAPSED_WORDS = {
    "lapsed",
    "l",
    "expired",
    "inactive",
    "no",
    "n",
    "false",
    "0",
    "unpaid",
    "former",
    "resigned",
    "left",
}
NAME_PARTICLES = {"van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le"}


class RosterError(Exception):
    """The file is not a roster we can read. One clear message, nothing else."""


# --------------------------------------------------------------------------- results


@dataclass
class RosterRow:
    """One valid row, cleaned. `None` means the file says nothing (column absent or
    blank cell): that field is left as it is on an existing member."""

    line: int
    membership_number: str
    first_name: str
    last_name: str = ""
    email: str | None = None
    phone: str | None = None
    status: str | None = None
    joined: dt.date | None = None
    notes: str | None = None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    def values(self) -> dict[str, Any]:
        """The fields this row sets (first and last name always)."""
        values = {"first_name": self.first_name, "last_name": self.last_name}
        for name in ("email", "phone", "status", "joined", "notes"):
            value = getattr(self, name)
            if value is not None:
                values[name] = value
        return values

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["joined"] = self.joined.isoformat() if self.joined else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RosterRow:
        data = dict(data)
        if data.get("joined"):
            data["joined"] = dt.date.fromisoformat(data["joined"])
        return cls(**data)


@dataclass
class Refusal:
    line: int
    reason: str


@dataclass
class Duplicate:
    line: int
    of_line: int


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
        )


# --------------------------------------------------------------------------- reading


def read_roster(filename: str, data: bytes, *, date_order: str = AUTO) -> Roster:
    """Read a roster file (.xlsx or .csv, told apart by content, not by name)."""
    if date_order not in DATE_ORDERS:
        raise ValueError(f"date_order must be one of {DATE_ORDERS}")
    if len(data) > MAX_UPLOAD_BYTES:
        raise RosterError(
            f"The file is too large ({len(data) / 1024 / 1024:.1f} MB); a roster file may be "
            f"at most {MAX_UPLOAD_BYTES // 1024 // 1024} MB."
        )
    if not data.strip():
        raise RosterError("The file is empty. Choose the roster file saved from your spreadsheet.")
    if data.startswith(b"PK\x03\x04"):
        sheets = _xlsx_sheets(data)
        kind = "xlsx"
    elif data.startswith(b"%PDF"):
        raise RosterError(
            "This is a PDF document, not a roster. Open the roster in your spreadsheet "
            "program and save it as .xlsx or .csv."
        )
    elif data.startswith(b"\xd0\xcf\x11\xe0"):
        raise RosterError(
            "This is an old-style Excel file (.xls). Open it in your spreadsheet program and "
            "save it as .xlsx (Excel workbook) or .csv, then upload that."
        )
    else:
        sheets = _csv_sheets(data)
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


def _xlsx_sheets(data: bytes) -> list[tuple[str, list[tuple[int, list[Any]]]]]:
    """Every sheet (the active one first) as numbered rows of cell values."""
    from openpyxl import load_workbook  # imported here: only .xlsx needs it

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as error:
        raise RosterError(
            "This file could not be read as an Excel workbook (.xlsx): it may be damaged, or "
            "another kind of file renamed. Save the roster again as .xlsx or .csv."
        ) from error
    except Exception as error:  # openpyxl raises many kinds on corrupt files
        raise RosterError(
            "This file could not be read as an Excel workbook (.xlsx): it may be damaged. "
            "Save the roster again as .xlsx or .csv."
        ) from error
    try:
        worksheets = list(workbook.worksheets)
        active = workbook.active
        if active in worksheets:
            worksheets.remove(active)
            worksheets.insert(0, active)
        sheets = []
        for worksheet in worksheets:
            if not hasattr(worksheet, "iter_rows"):  # chart sheets
                continue
            if hasattr(worksheet, "reset_dimensions"):
                worksheet.reset_dimensions()  # some writers store wrong dimensions
            rows = []
            for number, values in enumerate(worksheet.iter_rows(values_only=True), start=1):
                if number > MAX_ROWS + HEADER_SEARCH_ROWS:
                    raise RosterError(f"The roster has more than {MAX_ROWS} rows.")
                rows.append((number, list(values)))
            sheets.append((worksheet.title, rows))
        return sheets
    except RosterError:
        raise
    except Exception as error:
        raise RosterError(
            "This file could not be read as an Excel workbook (.xlsx): it may be damaged. "
            "Save the roster again as .xlsx or .csv."
        ) from error
    finally:
        workbook.close()


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise RosterError("This file's text could not be read (broken UTF-16).") from error
    if b"\x00" in data[:4096]:
        raise RosterError(
            "This is not a roster: it is not a text (.csv) file nor an Excel workbook (.xlsx)."
        )
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _csv_sheets(data: bytes) -> list[tuple[str, list[tuple[int, list[Any]]]]]:
    """The text read with each likely delimiter; the sniffed one first."""
    text = _decode(data)
    sample = "\n".join(text.splitlines()[: HEADER_SEARCH_ROWS + 5])
    delimiters = [",", ";", "\t", "|"]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
        delimiters.remove(sniffed)
        delimiters.insert(0, sniffed)
    except csv.Error:
        pass
    sheets = []
    for delimiter in delimiters:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        rows = []
        last_line = 0
        try:
            for values in reader:
                rows.append((last_line + 1, values))
                last_line = reader.line_num
                if len(rows) > MAX_ROWS + HEADER_SEARCH_ROWS:
                    raise RosterError(f"The roster has more than {MAX_ROWS} rows.")
        except csv.Error as error:
            raise RosterError(f"This .csv file could not be read: {error}.") from error
        sheets.append((delimiter, rows))
    return sheets


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
                    "a membership number column"
                    if "membership_number" not in seen
                    else "a first name or name column"
                )
                where = "row" if kind == "xlsx" else "line"
                return (
                    f"This doesn't look like a complete roster: {where} {line} has {labels} "
                    f"but no {missing.removeprefix('a ')}. Add it, or check the column names "
                    f"({expected})."
                )
    return (
        "This file is not a roster we can read: no header row with the columns "
        f"{expected} was found in its first {HEADER_SEARCH_ROWS} rows."
    )


# --------------------------------------------------------------------------- cleaning


def _text(value: Any) -> str:
    """A cell as clean text: spaces trimmed and collapsed; 1234.0 → '1234'."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    # A cell escaped against formulas (our own CSV download) comes back as it was.
    return " ".join(unescape_cell(str(value).strip()).split())


def clean_number(value: Any) -> str:
    text = _text(value).lstrip("#").strip()
    match = re.fullmatch(r"(\d+)\.0+", text)
    if match:
        text = match.group(1)
    return text


def split_name(text: str) -> tuple[str, str]:
    """'Adams, Ann' → ('Ann', 'Adams'); 'Ann Marie Adams' → ('Ann Marie', 'Adams');
    'Jan van Dijk' → ('Jan', 'van Dijk'); 'Ann' → ('Ann', '')."""
    text = " ".join(text.split())
    if "," in text:
        last, _, first = text.partition(",")
        return first.strip(), last.strip()
    words = text.split(" ")
    if len(words) == 1:
        return words[0], ""
    for i in range(1, len(words) - 1):
        if words[i].lower() in NAME_PARTICLES:
            return " ".join(words[:i]), " ".join(words[i:])
    return " ".join(words[:-1]), words[-1]


def parse_status(value: Any) -> str | None:
    """'Active', 'yes', True → 'active'; 'Lapsed', 'no' → 'lapsed'; blank → None."""
    text = _text(value).lower().rstrip(".")
    if not text:
        return None
    if text in ACTIVE_WORDS:
        return "active"
    if text in LAPSED_WORDS:
        return "lapsed"
    raise ValueError(f"status “{_text(value)}” is not understood (use Active or Lapsed)")


_SLASHED = re.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})")
_ISO = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?")
_WORD_FORMATS = ("%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y", "%d-%b-%Y", "%d-%b-%y")


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        this_year = dt.date.today().year % 100
        year += 2000 if year <= this_year else 1900
    return year


def date_hint(value: Any) -> str | None:
    """For a d/m/y-or-m/d/y text date: 'dmy' if the first number is above 12,
    'mdy' if the second is, else None."""
    if not isinstance(value, str):
        return None
    match = _SLASHED.fullmatch(value.strip())
    if not match:
        return None
    first, second = int(match.group(1)), int(match.group(2))
    if first > 12 >= second:
        return DAY_FIRST
    if second > 12 >= first:
        return MONTH_FIRST
    return None


def parse_date(value: Any, order: str = MONTH_FIRST) -> dt.date | None:
    """A date from an xlsx cell or text; None when blank. Raises ValueError."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        if 20000 <= value <= 60000:  # an Excel day number left unformatted (1954–2064)
            return dt.date(1899, 12, 30) + dt.timedelta(days=int(value))
        raise ValueError(f"date “{_text(value)}” is not understood (use YYYY-MM-DD)")
    text = " ".join(str(value).replace(",", " ").split())
    match = _ISO.fullmatch(text)
    try:
        if match:
            return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        match = _SLASHED.fullmatch(text)
        if match:
            a, b, year = int(match.group(1)), int(match.group(2)), _year(match.group(3))
            day, month = (a, b) if order == DAY_FIRST else (b, a)
            if month > 12:
                used = "day/month/year" if order == DAY_FIRST else "month/day/year"
                raise ValueError(
                    f"date “{text}” does not fit the {used} order used for this file's dates"
                )
            return dt.date(year, month, day)
        if text.isdigit() and 20000 <= int(text) <= 60000:
            return dt.date(1899, 12, 30) + dt.timedelta(days=int(text))
    except ValueError as error:
        if "does not fit" in str(error):
            raise
        raise ValueError(f"date “{text}” does not exist") from error
    for fmt in _WORD_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"date “{text}” is not understood (use YYYY-MM-DD)")


# --------------------------------------------------------------------------- rows


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
    header_norm = [_norm(v) if v is not None else "" for v in header_values]

    # The cells of each data row, by field, skipping blank rows and repeated headers.
    records: list[tuple[int, dict[str, Any]]] = []
    repeated_headers = 0
    for line, values in rows[header_index + 1 :]:
        cells = {
            name: (values[col] if col < len(values) else None) for col, name in mapping.items()
        }
        if all(_text(v) == "" for v in cells.values()):
            continue
        if [_norm(v) if v is not None else "" for v in values[: len(header_norm)]] == header_norm:
            repeated_headers += 1
            continue
        records.append((line, cells))
    if repeated_headers:
        roster.notes.append(
            f"The header row was repeated {repeated_headers} more time(s) in the file; "
            "those rows were skipped."
        )
    if not records:
        raise RosterError(
            f"The roster has a header row ({'row' if kind == 'xlsx' else 'line'} "
            f"{header_line}) but no member rows under it."
        )

    order = date_order
    if "joined" in mapping.values():
        hints = Counter(date_hint(cells.get("joined")) for _line, cells in records)
        if order == AUTO:
            if hints[DAY_FIRST] > hints[MONTH_FIRST]:
                order = DAY_FIRST
            elif hints[MONTH_FIRST] > hints[DAY_FIRST]:
                order = MONTH_FIRST
            else:
                order = MONTH_FIRST
                ambiguous = any(
                    isinstance(c.get("joined"), str) and _SLASHED.fullmatch(c["joined"].strip())
                    for _l, c in records
                )
                if ambiguous:
                    roster.notes.append(
                        "Dates such as 03/04/2021 were read month first (March 4, 2021): "
                        "nothing in the file shows otherwise. If they are day first, read the "
                        "file again choosing day first."
                    )
        if order == DAY_FIRST and hints[DAY_FIRST]:
            roster.notes.append("Dates were read day first (DD/MM/YYYY), as in this file.")

    # Exact duplicates: the same cells again → counted once.
    seen: dict[tuple, int] = {}
    candidates: list[tuple[int, RosterRow]] = []
    for line, cells in records:
        key = tuple(sorted((name, _text(value).casefold()) for name, value in cells.items()))
        if key in seen:
            roster.duplicates.append(Duplicate(line=line, of_line=seen[key]))
            continue
        seen[key] = line
        try:
            candidates.append((line, _clean_row(line, cells, order)))
        except ValueError as error:
            roster.refused.append(Refusal(line=line, reason=_sentence(str(error))))

    # A membership number on two different rows: refuse them all (we can't guess).
    by_number: dict[str, list[RosterRow]] = defaultdict(list)
    for _line, row in candidates:
        by_number[row.membership_number.casefold()].append(row)
    for _line, row in candidates:
        group = by_number[row.membership_number.casefold()]
        if len(group) == 1:
            roster.rows.append(row)
            continue
        others = [r for r in group if r is not row]
        lines = ", ".join(str(r.line) for r in others)
        where = "rows" if len(others) > 1 else "row"
        names = {r.full_name.casefold() for r in group}
        if len(names) > 1:
            reason = (
                f"Membership number {row.membership_number} is used by two different people "
                f"in this file ({row.full_name} here, {others[0].full_name} on {where} "
                f"{lines}). Fix the number of one of them."
            )
        else:
            reason = (
                f"Membership number {row.membership_number} appears again on {where} {lines} "
                "with different details. Keep one row."
            )
        roster.refused.append(Refusal(line=row.line, reason=reason))
    roster.refused.sort(key=lambda r: r.line)
    return roster


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _clean_row(line: int, cells: dict[str, Any], order: str) -> RosterRow:
    number = clean_number(cells.get("membership_number"))
    first = _text(cells.get("first_name"))
    last = _text(cells.get("last_name"))
    if not first and not last and _text(cells.get("name")):
        first, last = split_name(_text(cells.get("name")))
    problems = []
    if not number:
        problems.append("the membership number is missing")
    if not first and not last:
        problems.append("the name is missing")
    elif not first:
        problems.append("the first name is missing")
    if problems:
        raise ValueError(" and ".join(problems))
    values = {"membership_number": number, "first_name": first, "last_name": last}
    email = _text(cells.get("email")).strip("<>") or None
    if email:
        email = email.removeprefix("mailto:")
        try:
            validate_email(email)
        except ValidationError:
            raise ValueError(f"email “{email}” is not a valid address") from None
    values["email"] = email
    phone = _text(cells.get("phone")) or None
    values["phone"] = phone
    values["status"] = parse_status(cells.get("status"))
    raw_joined = cells.get("joined")
    if isinstance(raw_joined, str):
        raw_joined = raw_joined.strip()
    values["joined"] = parse_date(raw_joined, order)
    notes = cells.get("notes")
    notes = unescape_cell(str(notes).strip()).strip() if notes is not None else ""
    values["notes"] = notes or None
    for name, limit in MAX_LENGTHS.items():
        value = values.get(name)
        if value and len(value) > limit:
            raise ValueError(
                f"{FIELD_LABELS[name].lower()} is too long (at most {limit} characters)"
            )
    return RosterRow(line=line, **values)


# --------------------------------------------------------------------------- planning


@dataclass
class Change:
    field: str
    old: Any
    new: Any

    @property
    def label(self) -> str:
        return FIELD_LABELS[self.field]


@dataclass
class PlannedRow:
    row: RosterRow
    person_id: int | None = None
    person_name: str = ""
    changes: list[Change] = field(default_factory=list)
    hint: str = ""


@dataclass
class ImportPlan:
    """What an import does (a preview) or did (after `apply_import`)."""

    create: list[PlannedRow] = field(default_factory=list)
    update: list[PlannedRow] = field(default_factory=list)
    unchanged: list[PlannedRow] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)

    def summary(self) -> str:
        text = f"{len(self.create)} created, {len(self.update)} updated, "
        text += f"{len(self.unchanged)} unchanged"
        if self.refused:
            text += f", {len(self.refused)} refused"
        if self.duplicates:
            text += f", {len(self.duplicates)} duplicate row(s) counted once"
        return text


def plan_import(rows: list[RosterRow], *, for_update: bool = False) -> ImportPlan:
    """Compare valid rows with the database (matched by membership number)."""
    from members.models import Person

    plan = ImportPlan()
    numbers = [row.membership_number for row in rows]
    people = Person.objects.filter(membership_number__in=numbers)
    if for_update:
        people = people.select_for_update()
    existing = {p.membership_number: p for p in people}
    # Possible duplicates: the same name on file under another number (or a guest).
    names = {(row.first_name.casefold(), row.last_name.casefold()) for row in rows}
    same_name = defaultdict(list)
    if names:
        for person in Person.objects.current().only(
            "kind", "first_name", "last_name", "membership_number"
        ):
            key = (person.first_name.casefold(), person.last_name.casefold())
            if key in names:
                same_name[key].append(person)
    for row in rows:
        person = existing.get(row.membership_number)
        if person is None:
            planned = PlannedRow(row=row)
            for other in same_name.get((row.first_name.casefold(), row.last_name.casefold()), []):
                if other.is_guest:
                    planned.hint = (
                        f"A guest named {other.full_name} is already on file: if it is the same "
                        "person, merge the two records after the import."
                    )
                else:
                    planned.hint = (
                        f"A member named {other.full_name} already has number "
                        f"{other.membership_number}."
                    )
            plan.create.append(planned)
            continue
        changes = [
            Change(name, getattr(person, name), value)
            for name, value in row.values().items()
            if getattr(person, name) != value
        ]
        planned = PlannedRow(
            row=row, person_id=person.pk, person_name=person.full_name, changes=changes
        )
        (plan.update if changes else plan.unchanged).append(planned)
    return plan


def apply_import(roster: Roster, *, dry_run: bool = False, by=None) -> ImportPlan:
    """Plan again against the current database and save, in one transaction."""
    from django.db import transaction

    from members.models import Person

    with transaction.atomic():
        plan = plan_import(roster.rows, for_update=not dry_run)
        plan.refused = list(roster.refused)
        plan.duplicates = list(roster.duplicates)
        if dry_run:
            return plan
        for planned in plan.create:
            row = planned.row
            values = {"status": Person.Status.ACTIVE, **row.values()}
            person = Person(
                kind=Person.Kind.MEMBER, membership_number=row.membership_number, **values
            )
            if by is not None:
                person._history_user = by
            person.save()
            planned.person_id = person.pk
        if plan.update:
            people = Person.objects.in_bulk([p.person_id for p in plan.update])
            for planned in plan.update:
                person = people[planned.person_id]
                for change in planned.changes:
                    setattr(person, change.field, change.new)
                if by is not None:
                    person._history_user = by
                person.save(update_fields=[c.field for c in planned.changes] + ["updated_at"])
    return plan
