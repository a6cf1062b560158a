"""The ledger: exact sums, reversals once with a reason, the database's invariants."""

import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from members.money.models import Entry
from members.money.services.errors import MoneyRefused
from members.money.services.ledger import (
    account_totals,
    add_charge,
    all_totals,
    record_payment,
    reverse_entry,
)

D = datetime.date(2026, 11, 1)
cents = st.integers(min_value=1, max_value=10_000_00).map(lambda c: Decimal(c) / 100)
operation = st.tuples(st.sampled_from(["charge", "payment"]), cents, st.booleans())


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(operation, max_size=12))
def test_balance_is_payments_minus_charges_with_reversals_exact_to_the_cent(ann, ops):
    charges = payments = Decimal("0.00")
    with transaction.atomic():
        for kind, amount, reversed_ in ops:
            if kind == "charge":
                entry = add_charge(ann, amount, "other", date=D)
            else:
                entry, _ = record_payment(ann, amount, "cash", date=D)
            if reversed_:
                reverse_entry(entry, "typed wrong")
            elif kind == "charge":
                charges += amount
            else:
                payments += amount
        totals = account_totals(ann)
        assert (totals.charges, totals.payments) == (charges, payments)
        assert totals.balance == payments - charges
        assert all_totals().get(ann.pk, totals) == totals
        transaction.set_rollback(True)


def test_a_reversal_needs_a_reason_and_happens_once(ann):
    entry = add_charge(ann, Decimal("5.00"), "table", date=D)
    with pytest.raises(MoneyRefused, match="reason"):
        reverse_entry(entry, "   ")
    back = reverse_entry(entry, "Was a free day")
    assert back.reverses == entry and back.amount == entry.amount
    with pytest.raises(MoneyRefused, match="already"):
        reverse_entry(Entry.objects.get(pk=entry.pk), "again")
    with pytest.raises(MoneyRefused):
        reverse_entry(back, "undo the undo")
    assert account_totals(ann).balance == Decimal("0.00")


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "charge", "source": "table", "amount": Decimal("0.00")},
        {"kind": "charge", "source": "table", "amount": Decimal("-1.00")},
        {"kind": "reversal", "source": "", "amount": Decimal("1.00")},  # points at nothing
        {"kind": "payment", "source": "table", "amount": Decimal("1.00")},
    ],
)
def test_the_database_refuses_broken_entries(ann, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(person=ann, date=D, reason="x", **fields)


def test_the_same_payment_key_writes_once(ann):
    first, new = record_payment(ann, Decimal("10.00"), "cash", key="k1")
    again, new_again = record_payment(ann, Decimal("10.00"), "cash", key="k1")
    assert new and not new_again and again.pk == first.pk
    assert Entry.objects.count() == 1


def test_a_payment_refuses_a_wrong_method_and_no_amount(ann):
    with pytest.raises(MoneyRefused):
        record_payment(ann, Decimal("10.00"), "card")
    with pytest.raises(MoneyRefused):
        record_payment(ann, Decimal("0.00"), "cash")
    assert not Entry.objects.exists()
