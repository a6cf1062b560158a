from decimal import Decimal

import pytest

from members.money.amounts import AmountError, parse_amount


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12.50", "12.50"),
        ("12,50", "12.50"),
        ("$1,234.50", "1234.50"),
        ("1.234,50", "1234.50"),
        (" 10 ", "10.00"),
        ("1,000", "1000.00"),
    ],
)
def test_amounts_are_read_exactly(text, expected):
    assert parse_amount(text) == Decimal(expected)


@pytest.mark.parametrize(
    "text, kind",
    [("", "empty"), ("abc", "number"), ("-5.00", "negative"), ("0", "zero"), ("1.005", "cents")],
)
def test_bad_amounts_say_what_is_wrong(text, kind):
    with pytest.raises(AmountError) as caught:
        parse_amount(text)
    assert caught.value.kind == kind


@pytest.mark.parametrize(
    "text", ["99999999999999999999999999999", "99999999999999999999999999999.5"]
)
def test_huge_amounts_are_refused_not_crashed(text):
    with pytest.raises(AmountError) as caught:
        parse_amount(text)
    assert caught.value.kind in ("large", "number")


@pytest.mark.parametrize("text", ["0,001", "12,3456", "0,125"])
def test_comma_with_more_than_two_decimals_is_refused_not_guessed(text):
    with pytest.raises(AmountError) as caught:
        parse_amount(text)
    assert caught.value.kind == "cents"


def test_huge_amount_in_a_bank_file_is_a_plain_refusal():
    from members.money.bank import BankFileError, Mapping, read_bank_csv

    data = b"Date,Amount,Reference\n2026-11-01,99999999999999999999999999999,ANNA\n"
    with pytest.raises(BankFileError, match="too large"):
        read_bank_csv(data, Mapping("Date", "Amount", "Reference", "%Y-%m-%d"))
