"""Merging two records of one person: the day is charged once, the ledger moves, and
two sets of money settings do not stop the merge."""

import datetime
from decimal import Decimal

from members.models import MergeRecord
from members.money.models import Entry, MoneyProfile
from members.money.services.ledger import account_totals, record_payment
from members.services import door
from members.services.merge import merge_people
from members.tests.factories import MemberFactory


def test_a_merge_of_two_same_day_sign_ins_charges_the_day_once(rates, day, ann, officer_user):
    twin = MemberFactory(first_name="Ann", last_name="Adams")
    door.sign_in(day, ann)
    door.sign_in(day, twin)
    merge_people(ann, twin, by=officer_user)
    assert account_totals(ann).balance == Decimal("-5.00")
    assert Entry.objects.filter(kind="reversal").get().recorded_by == officer_user


def test_both_with_money_settings_merge_and_the_kept_ones_stay(rates, day, ann, officer_user):
    twin = MemberFactory(first_name="Ann", last_name="Adams")
    until = datetime.date(2027, 12, 31)
    MoneyProfile.objects.create(person=ann, paid_until=until)
    MoneyProfile.objects.create(person=twin, rate="reduced")
    record_payment(twin, Decimal("12.50"), "cash")
    record = merge_people(ann, twin, by=officer_user)
    assert MoneyProfile.objects.get().person == ann
    assert MoneyProfile.objects.get().paid_until == until
    assert account_totals(ann).balance == Decimal("12.50")
    assert any(
        "kept record's were kept" in label for label in MergeRecord.objects.get(pk=record.pk).moved
    )
