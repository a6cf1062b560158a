"""Reading a bank statement's CSV with the club's saved column mapping. Pure: no
database. Only the three mapped columns are read (date, amount, reference); every other
column (account numbers, balances) is dropped, and long runs of digits in a reference
(an account or card number) are masked before anything keeps it.

A file that cannot be read as asked raises :class:`BankFileError` with one message
saying what to fix; nothing is half-read."""

from __future__ import annotations

import datetime
import hashlib
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from members.money.amounts import AmountError, amount_message, parse_amount
from members.roster.limits import RosterError
from members.roster.sheets import csv_sheets

MAX_BANK_BYTES = 2 * 1024 * 1024
HEADER_ROWS = 20
# What a bank, card or personal number looks like: a run of six digits or more, however
# it is split by dots, slashes, spaces or dashes (4111.1111.1111.1111, a CPF written
# 123.456.789-09, a CNPJ 12.345.678/0001-90), or a word holding six digits or more (an
# IBAN). A membership number is shorter.
_DIGIT_RUN = re.compile(r"\d(?:[ ./\-]*\d)*")
_DIGITS_WORD = re.compile(r"\b\w*(?:\d\w*){6,}\b")
MASK = "••••"


class BankFileError(Exception):
    """The file cannot be imported; the message says what to fix."""


@dataclass(frozen=True)
class Mapping:
    date: str
    amount: str
    reference: str
    date_format: str


@dataclass
class BankLine:
    line: int
    date: datetime.date
    amount: object  # Decimal
    reference: str


def mask_numbers(text: str) -> str:
    """``text`` with every long run of digits replaced: no bank or card number is kept."""
    masked = _DIGITS_WORD.sub(MASK, text or "")
    masked = _DIGIT_RUN.sub(lambda m: MASK if _count_digits(m.group()) >= 6 else m.group(), masked)
    return masked.strip()[:200]


def _count_digits(text: str) -> int:
    return sum(char.isdecimal() for char in text)


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _norm(text) -> str:
    return " ".join(str(text or "").split()).casefold()


def _check_kind(data: bytes) -> None:
    if len(data) > MAX_BANK_BYTES:
        raise BankFileError(
            _(
                "The file is too large (%(size)s MB); a bank statement file may be at most "
                "%(limit)s MB. Export a shorter period from your bank and try again."
            )
            % {"size": f"{len(data) / 1024 / 1024:.1f}", "limit": MAX_BANK_BYTES // 1024 // 1024}
        )
    if not data.strip():
        raise BankFileError(_("The file is empty. Choose the CSV file your bank gave you."))
    if data.startswith((b"PK\x03\x04", b"%PDF", b"\xd0\xcf\x11\xe0")) or (
        b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff"))
    ):
        raise BankFileError(
            _(
                "This is not a CSV file. Ask your bank's site for the statement as CSV "
                "(comma-separated values) and upload that."
            )
        )


def read_bank_csv(data: bytes, mapping: Mapping) -> list[BankLine]:
    """The lines of money received in a bank's CSV, read with ``mapping``."""
    _check_kind(data)
    wanted = [_norm(mapping.date), _norm(mapping.amount), _norm(mapping.reference)]

    def find_header(rows):
        for index, (_line, values) in enumerate(rows[:HEADER_ROWS]):
            names = [_norm(v) for v in values]
            if all(name in names for name in wanted):
                return index
        return None

    try:
        sheets = csv_sheets(data, find_header=find_header)
    except RosterError as error:
        raise BankFileError(str(error)) from error
    rows = sheets[0][1] if len(sheets) == 1 else []
    header = find_header(rows) if rows else None
    if header is None:
        raise BankFileError(
            _(
                "No line of the file names the columns “%(date)s”, “%(amount)s” and "
                "“%(reference)s”. Check the column names on the money settings page "
                "against the first line of your bank's file."
            )
            % {"date": mapping.date, "amount": mapping.amount, "reference": mapping.reference}
        )
    names = [_norm(v) for v in rows[header][1]]
    at = [names.index(name) for name in wanted]
    lines = []
    for number, values in rows[header + 1 :]:
        if not any(str(v).strip() for v in values):
            continue
        cells = [str(values[i]).strip() if i < len(values) else "" for i in at]
        lines.append(_line(number, *cells, mapping.date_format))
    if not lines:
        raise BankFileError(_("The file has its column names but no lines of money under them."))
    return lines


def _line(number: int, date_text: str, amount_text: str, reference: str, fmt: str) -> BankLine:
    try:
        date = datetime.datetime.strptime(date_text, fmt).date()
    except ValueError:
        example = datetime.date(2026, 12, 31).strftime(fmt)
        raise BankFileError(
            _(
                "Line %(line)s: “%(text)s” is not a date written like %(example)s. Choose "
                "the date format your bank uses on the money settings page, then upload "
                "the file again. Nothing was imported."
            )
            % {"line": number, "text": date_text, "example": example}
        ) from None
    try:
        amount = parse_amount(amount_text)
    except AmountError as error:
        raise BankFileError(
            _(
                "Line %(line)s: %(problem)s Keep only money received in the file. "
                "Nothing was imported."
            )
            % {"line": number, "problem": amount_message(error, amount_text)}
        ) from None
    return BankLine(line=number, date=date, amount=amount, reference=mask_numbers(reference))
