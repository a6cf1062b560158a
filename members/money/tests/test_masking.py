"""No bank, card or personal number is kept, however it is split."""

import re
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from members.money.bank import mask_numbers

SEPARATORS = re.compile(r"[ ./\-]")


def longest_digit_run(text: str) -> int:
    runs = re.findall(r"\d+", SEPARATORS.sub("", text))
    return max((len(run) for run in runs), default=0)


@pytest.mark.parametrize(
    "text",
    [
        "PIX 123.456.789-09 MARIA",
        "CNPJ 12.345.678/0001-90",
        "4111.1111.1111.1111",
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "ACC 12 34 56",
    ],
)
def test_split_numbers_are_masked(text):
    masked = mask_numbers(text)
    assert longest_digit_run(masked) < 6, masked
    assert "••••" in masked


def test_words_and_short_numbers_are_kept():
    assert mask_numbers("PIX 1001 MARIA") == "PIX 1001 MARIA"


pieces = st.one_of(
    st.text(alphabet="0123456789", min_size=1, max_size=5),
    st.sampled_from([" ", ".", "/", "-", "  ", " - ", "a", "PIX ", "x1", "١٢٣"]),
    st.text(max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(pieces, max_size=30).map("".join))
def test_no_run_of_six_digits_survives(text):
    assert longest_digit_run(mask_numbers(text)) < 6


def test_a_typed_payment_note_keeps_no_number(db):
    from members.money.services.ledger import record_payment
    from members.tests.factories import MemberFactory

    person = MemberFactory()
    entry, _ = record_payment(person, Decimal("5.00"), "transfer", note="PIX 123.456.789-09 MARIA")
    entry.refresh_from_db()
    assert longest_digit_run(entry.note) < 6 and "MARIA" in entry.note
