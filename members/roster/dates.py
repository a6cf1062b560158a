"""The dates of a roster: reading one cell, and the order (day or month first) to read
a file's dates like 03/04/2021 in, with the rows that decided it.

Pure: no database. A file's d/m/y dates are read one way for the whole file: the way
its own dates show (a first number above 12 can only be a day: 25/12/2019), or the way
the officer chose, else the club's usual way (day first in Spanish and Portuguese, month
first in English: :func:`usual_order`). :class:`DateOrder` keeps the rows that decided it
and the rows that read both ways, so the preview shows the order as a choice, with its
evidence, before anything is saved.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext

AUTO, DAY_FIRST, MONTH_FIRST = "auto", "dmy", "mdy"
DATE_ORDERS = (AUTO, DAY_FIRST, MONTH_FIRST)
#: Rows of each kind kept as evidence for the preview.
EXAMPLES = 5

_SLASHED = re.compile(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{2}|\d{4})")
_ISO = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?")
_WORD_FORMATS = ("%d %B %Y", "%d %b %Y", "%B %d %Y", "%b %d %Y", "%d-%b-%Y", "%d-%b-%y")


#: The way a club speaking each language writes its dates, when a file does not show it.
_USUAL_ORDER = {"es": DAY_FIRST, "pt-br": DAY_FIRST}


def usual_order(language: str | None) -> str:
    """Day first for a Spanish- or Portuguese-speaking club, month first otherwise."""
    return _USUAL_ORDER.get((language or "").lower(), MONTH_FIRST)


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        this_year = dt.date.today().year % 100
        year += 2000 if year <= this_year else 1900
    return year


class _OrderMismatch(ValueError):
    """A date that cannot be read in the file's order (month above 12)."""


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
        shown = int(value) if float(value).is_integer() else value
        raise ValueError(
            gettext("date “%(shown)s” is not understood (use YYYY-MM-DD)") % {"shown": shown}
        )
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
                used = (
                    gettext("day/month/year") if order == DAY_FIRST else gettext("month/day/year")
                )
                raise _OrderMismatch(
                    gettext(
                        "date “%(text)s” does not fit the %(used)s order used for this file's dates"
                    )
                    % {"text": text, "used": used}
                )
            return dt.date(year, month, day)
        if text.isdigit() and 20000 <= int(text) <= 60000:
            return dt.date(1899, 12, 30) + dt.timedelta(days=int(text))
    except _OrderMismatch:
        raise
    except ValueError as error:
        raise ValueError(gettext("date “%(text)s” does not exist") % {"text": text}) from error
    for fmt in _WORD_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(gettext("date “%(text)s” is not understood (use YYYY-MM-DD)") % {"text": text})


@dataclass
class DateOrder:
    """How a file's d/m/y dates were read, and why.

    ``how``: "file" (its dates show the order), "chosen" (the officer chose it), or
    "unclear" (nothing shows it: the club's usual order). The lists hold (line, date as typed):
    rows that can only be day first, only month first, and rows that read both ways."""

    order: str = MONTH_FIRST
    how: str = "unclear"
    day_first: list[tuple[int, str]] = field(default_factory=list)
    month_first: list[tuple[int, str]] = field(default_factory=list)
    both_ways: list[tuple[int, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def asks(self) -> bool:
        """Whether the file has dates whose order matters (shown as a choice)."""
        return bool(self.day_first or self.month_first or self.both_ways)

    @property
    def words(self) -> str:
        if self.order == DAY_FIRST:
            return gettext("day first (DD/MM/YYYY)")
        return gettext("month first (MM/DD/YYYY)")

    @property
    def both_ways_read(self) -> list[tuple[int, str, dt.date | None]]:
        """The rows that read both ways, with the date each was read as."""
        out = []
        for line, text in self.both_ways:
            try:
                out.append((line, text, parse_date(text, self.order)))
            except ValueError:
                out.append((line, text, None))
        return out

    def notes(self) -> list[str]:
        """The order in one sentence, for the import command."""
        if not self.asks:
            return []
        why = {
            "file": gettext("as the file's own dates show"),
            "chosen": gettext("as chosen"),
            "unclear": gettext("nothing in the file shows otherwise; choose day first if they are")
            if self.order == MONTH_FIRST
            else gettext("nothing in the file shows otherwise; choose month first if they are"),
        }[self.how]
        return [
            gettext("Dates such as 03/04/2021 were read %(order)s: %(why)s.")
            % {"order": self.words, "why": why}
        ]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> DateOrder:
        data = dict(data or {})
        for name in ("day_first", "month_first", "both_ways"):
            data[name] = [tuple(pair) for pair in data.get(name, [])]
        return cls(**data)


def _two_ways(value: Any) -> bool:
    """A text date like 03/04/2021 that reads as two different dates."""
    if not isinstance(value, str):
        return False
    match = _SLASHED.fullmatch(value.strip())
    if not match:
        return False
    first, second = int(match.group(1)), int(match.group(2))
    return first != second and first <= 12 and second <= 12


def choose_date_order(
    joined: list[tuple[int, Any]], date_order: str, usual: str = MONTH_FIRST
) -> DateOrder:
    """The order to read a file's d/m/y dates in, from its (line, joined cell) pairs:
    the officer's choice, else what the dates themselves show, else ``usual`` (the
    club's: :func:`usual_order`)."""
    found = DateOrder(order=usual)
    hinted = {DAY_FIRST: found.day_first, MONTH_FIRST: found.month_first}
    counts = {DAY_FIRST: 0, MONTH_FIRST: 0, "both": 0}
    for line, value in joined:
        hint = date_hint(value)
        if hint is not None:
            counts[hint] += 1
            if len(hinted[hint]) < EXAMPLES:
                hinted[hint].append((line, value.strip()))
        elif _two_ways(value):
            counts["both"] += 1
            if len(found.both_ways) < EXAMPLES:
                found.both_ways.append((line, value.strip()))
    found.counts = counts
    if date_order != AUTO:
        found.order, found.how = date_order, "chosen"
    elif counts[DAY_FIRST] != counts[MONTH_FIRST]:
        found.how = "file"
        found.order = DAY_FIRST if counts[DAY_FIRST] > counts[MONTH_FIRST] else MONTH_FIRST
    return found
