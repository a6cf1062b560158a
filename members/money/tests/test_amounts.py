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
