"""Amounts typed by people or read from a bank's file, as exact Decimals. Pure."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


class AmountError(ValueError):
    """Not an amount: ``kind`` says which way (``empty``, ``number``, ``negative``,
    ``zero``, ``cents``, ``large``)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


MAX = Decimal("9999999999.99")
# Commas as thousands separators only when grouped as such: 1,000 or 12,345,678.
_THOUSANDS = re.compile(r"[+\-]?[1-9]\d{0,2}(?:,\d{3})+")


def parse_amount(text, *, allow_zero: bool = False) -> Decimal:
    """'12.50', '12,50', '$1,234.50', '1.234,50', ' 10 ' → exact Decimal to the cent."""
    if isinstance(text, Decimal):
        value = text
    else:
        raw = re.sub(r"[^\d.,\-+]", "", str(text or ""))
        if not raw:
            raise AmountError("empty" if not str(text or "").strip() else "number")
        if "," in raw and "." in raw:
            decimal_mark = "," if raw.rfind(",") > raw.rfind(".") else "."
            thousands = "." if decimal_mark == "," else ","
            raw = raw.replace(thousands, "").replace(decimal_mark, ".")
        elif "," in raw:
            head, _, tail = raw.rpartition(",")
            if len(tail) not in (1, 2) and _THOUSANDS.fullmatch(raw):
                raw = raw.replace(",", "")  # 1,000 or 12,345,678: thousands
            else:  # 12,50 (or 0,001, refused below for its decimals: no guessing)
                raw = f"{head.replace(',', '')}.{tail}"
        try:
            value = Decimal(raw)
        except InvalidOperation:
            raise AmountError("number") from None
    if not value.is_finite():
        raise AmountError("number")
    if value < 0:
        raise AmountError("negative")
    if value == 0 and not allow_zero:
        raise AmountError("zero")
    # Too large before rounding: a 29-digit amount cannot be rounded to the cent.
    if value > MAX:
        raise AmountError("large")
    try:
        if value != value.quantize(CENT, rounding=ROUND_HALF_UP):
            raise AmountError("cents")
        return value.quantize(CENT)
    except InvalidOperation:
        raise AmountError("number") from None


def amount_message(error: AmountError, text) -> str:
    """The refusal of an amount, saying what to fix."""
    from django.utils.translation import gettext as _

    messages = {
        "empty": _("Type an amount, like 12.50."),
        "number": _("“%(text)s” is not an amount; type one like 12.50."),
        "negative": _("“%(text)s” is negative; type the amount received, like 12.50."),
        "zero": _("The amount is zero; type the amount received, like 12.50."),
        "cents": _("“%(text)s” has more than two decimals; round it to the cent."),
        "large": _("“%(text)s” is too large for an amount."),
    }
    return messages[error.kind] % {"text": text}
