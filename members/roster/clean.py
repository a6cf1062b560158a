"""Cleaning a roster's cells and rows: names, membership numbers, dates, statuses.

Pure: no database. What a messy spreadsheet holds ("#1234", 1234.0, "Adams, Ann",
"03/04/2021", an Excel day number, "yes") becomes the values a member is saved with, or
a refusal that says, in words for an officer, what is wrong on that line. Also here:
the rows of one file checked together (exact duplicates counted once, two rows with one
membership number read as one person, the later row winning). Names are tidied
(:func:`members.names.tidy_name`); dates are read by :mod:`members.roster.dates`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.csvcells import unescape_cell
from members.emails import email_problem
from members.names import NAME_PARTICLES, tidy_name
from members.roster.dates import parse_date

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
#: The fields as a page names them, in the reader's language (FIELD_LABELS are the
#: column names a file has, which stay English).
FIELD_WORDS = {
    "membership_number": gettext_lazy("Membership number"),
    "first_name": gettext_lazy("First name"),
    "last_name": gettext_lazy("Last name"),
    "name": gettext_lazy("Name"),
    "email": gettext_lazy("Email"),
    "phone": gettext_lazy("Phone"),
    "status": gettext_lazy("Status"),
    "joined": gettext_lazy("Joined"),
    "notes": gettext_lazy("Notes"),
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
class Replaced:
    """Row ``line`` and the later row ``by_line`` have one membership number: they are
    read as one person, the later row winning where they differ."""

    line: int
    by_line: int
    number: str
    name: str
    by_name: str

    @property
    def names_differ(self) -> bool:
        return self.name.casefold() != self.by_name.casefold()


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
    raise ValueError(
        _("status “%(cell_text)s” is not understood (use Active or Lapsed)")
        % {"cell_text": cell_text(value)}
    )


def clean_rows(
    records: list[tuple[int, dict[str, Any]]], order: str
) -> tuple[list[RosterRow], list[Refusal], list[Duplicate], list[Replaced]]:
    """The rows of one file, cleaned: (valid rows, refusals by line, exact duplicates,
    rows replaced by a later row with the same membership number).

    `records` are (line, {field: cell}); exact duplicates are counted once, and rows
    sharing a membership number become one person: the later row wins where they
    differ, as if the rows were imported one after the other (a blank cell of the later
    row keeps what the earlier one says)."""
    candidates, refused, duplicates = _clean_once_each(records, order)
    kept: dict[str, RosterRow] = {}
    replaced: list[Replaced] = []
    for row in candidates:
        key = row.membership_number.casefold()
        earlier = kept.get(key)
        if earlier is not None:
            replaced.append(
                Replaced(
                    earlier.line, row.line, row.membership_number, earlier.full_name, row.full_name
                )
            )
            row = _later_wins(earlier, row)
        kept[key] = row
    rows = sorted(kept.values(), key=lambda r: r.line)
    refused.sort(key=lambda r: r.line)
    return rows, refused, duplicates, replaced


def _later_wins(earlier: RosterRow, later: RosterRow) -> RosterRow:
    """One person from two rows with one number: the later row's values, and the
    earlier row's where the later one is blank."""
    blanks = {
        name: getattr(earlier, name)
        for name in ("email", "phone", "status", "joined", "notes")
        if getattr(later, name) is None
    }
    return replace(later, **blanks)


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
        problems.append(_("the membership number is missing"))
    if not first and not last:
        problems.append(_("the name is missing"))
    elif not first:
        problems.append(_("the first name is missing"))
    if len(problems) == 2:
        raise ValueError(
            _("%(first)s and %(second)s") % {"first": problems[0], "second": problems[1]}
        )
    if problems:
        raise ValueError(problems[0])
    values = {"membership_number": number, "first_name": tidy_name(first)}
    values["last_name"] = tidy_name(last)
    email = cell_text(cells.get("email")).strip("<>") or None
    if email:
        email = email.removeprefix("mailto:")
        problem = email_problem(email)
        if problem:
            raise ValueError(problem)
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
                _("%(field)s is too long (at most %(limit)s characters)")
                % {"field": str(FIELD_WORDS[name]).lower(), "limit": limit}
            )
    return RosterRow(line=line, **values)
