"""Cleaning a roster's cells and rows: names, membership numbers, dates, statuses.

Pure: no database. What a messy spreadsheet holds ("#1234", 1234.0, "Adams, Ann",
"03/04/2021", an Excel day number, "yes") becomes the values a member is saved with, or
a refusal that says, in words for an officer, what is wrong on that line. Also here:
the rows of one file checked together (exact duplicates counted once, a membership
number used twice refused) and the order of its d/m/y dates.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from clubsite.csvcells import unescape_cell

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


def cell_text(value: Any) -> str:
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
    text = cell_text(value).lstrip("#").strip()
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
    text = cell_text(value).lower().rstrip(".")
    if not text:
        return None
    if text in ACTIVE_WORDS:
        return "active"
    if text in LAPSED_WORDS:
        return "lapsed"
    raise ValueError(f"status “{cell_text(value)}” is not understood (use Active or Lapsed)")


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
        raise ValueError(f"date “{cell_text(value)}” is not understood (use YYYY-MM-DD)")
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


def choose_date_order(joined: list[Any], date_order: str) -> tuple[str, list[str]]:
    """The order to read a file's d/m/y dates in, from its `joined` cells, and the notes
    to show about it: what the dates themselves show wins; month first when nothing does."""
    notes = []
    order = date_order
    hints = Counter(date_hint(value) for value in joined)
    if order == AUTO:
        if hints[DAY_FIRST] > hints[MONTH_FIRST]:
            order = DAY_FIRST
        elif hints[MONTH_FIRST] > hints[DAY_FIRST]:
            order = MONTH_FIRST
        else:
            order = MONTH_FIRST
            ambiguous = any(
                isinstance(value, str) and _SLASHED.fullmatch(value.strip()) for value in joined
            )
            if ambiguous:
                notes.append(
                    "Dates such as 03/04/2021 were read month first (March 4, 2021): "
                    "nothing in the file shows otherwise. If they are day first, read the "
                    "file again choosing day first."
                )
    if order == DAY_FIRST and hints[DAY_FIRST]:
        notes.append("Dates were read day first (DD/MM/YYYY), as in this file.")
    return order, notes


def clean_rows(
    records: list[tuple[int, dict[str, Any]]], order: str
) -> tuple[list[RosterRow], list[Refusal], list[Duplicate]]:
    """The rows of one file, cleaned: (valid rows, refusals by line, exact duplicates).

    `records` are (line, {field: cell}); exact duplicates are counted once, and a
    membership number on two different rows refuses them all (we can't guess)."""
    candidates, refused, duplicates = _clean_once_each(records, order)
    by_number: dict[str, list[RosterRow]] = defaultdict(list)
    for row in candidates:
        by_number[row.membership_number.casefold()].append(row)
    rows = []
    for row in candidates:
        reason = _shared_number_reason(row, by_number[row.membership_number.casefold()])
        if reason is None:
            rows.append(row)
        else:
            refused.append(Refusal(line=row.line, reason=reason))
    refused.sort(key=lambda r: r.line)
    return rows, refused, duplicates


def _clean_once_each(records, order) -> tuple[list[RosterRow], list[Refusal], list[Duplicate]]:
    """Exact duplicates (the same cells again) counted once; the others cleaned."""
    seen: dict[tuple, int] = {}
    candidates: list[RosterRow] = []
    refused: list[Refusal] = []
    duplicates: list[Duplicate] = []
    for line, cells in records:
        key = tuple(sorted((name, cell_text(value).casefold()) for name, value in cells.items()))
        if key in seen:
            duplicates.append(Duplicate(line=line, of_line=seen[key]))
            continue
        seen[key] = line
        try:
            candidates.append(_clean_row(line, cells, order))
        except ValueError as error:
            refused.append(Refusal(line=line, reason=_sentence(str(error))))
    return candidates, refused, duplicates


def _shared_number_reason(row: RosterRow, group: list[RosterRow]) -> str | None:
    """Why `row` is refused when its membership number is on other rows too (`group`:
    every row with that number, `row` among them), else None."""
    if len(group) == 1:
        return None
    others = [r for r in group if r is not row]
    lines = ", ".join(str(r.line) for r in others)
    where = "rows" if len(others) > 1 else "row"
    names = {r.full_name.casefold() for r in group}
    if len(names) > 1:
        return (
            f"Membership number {row.membership_number} is used by two different people "
            f"in this file ({row.full_name} here, {others[0].full_name} on {where} "
            f"{lines}). Fix the number of one of them."
        )
    return (
        f"Membership number {row.membership_number} appears again on {where} {lines} "
        "with different details. Keep one row."
    )


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _clean_row(line: int, cells: dict[str, Any], order: str) -> RosterRow:
    number = clean_number(cells.get("membership_number"))
    first = cell_text(cells.get("first_name"))
    last = cell_text(cells.get("last_name"))
    if not first and not last and cell_text(cells.get("name")):
        first, last = split_name(cell_text(cells.get("name")))
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
    email = cell_text(cells.get("email")).strip("<>") or None
    if email:
        email = email.removeprefix("mailto:")
        try:
            validate_email(email)
        except ValidationError:
            raise ValueError(f"email “{email}” is not a valid address") from None
    values["email"] = email
    phone = cell_text(cells.get("phone")) or None
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
