"""Table money at the door: one charge per sign-in at the person's rate, on the account
of whoever pays for them; an officer's change is a reversal and a new charge."""

from decimal import Decimal

import pytest

from members.money.models import DayRate, Entry, MoneyProfile
from members.money.services.errors import MoneyRefused
from members.money.services.ledger import account_totals
from members.money.services.table import change_charge, charge_for_sign_in
from members.services import door
from members.tests.factories import GuestFactory


def test_each_sign_in_charges_the_persons_rate_once(rates, day, ann, bob):
    MoneyProfile.objects.create(person=bob, rate="reduced")
    guest = GuestFactory(brought_by=ann)
    a = door.sign_in(day, ann)
    door.sign_in(day, bob)
    door.sign_in(day, guest, brought_by=ann)
    amounts = {e.attendee_id or e.person_id: e.amount for e in Entry.objects.all()}
    assert amounts == {ann.pk: Decimal("5.00"), bob.pk: Decimal("3.00"), guest.pk: Decimal("8.00")}
    assert charge_for_sign_in(a).pk == Entry.objects.get(signin=a).pk  # again: the same
    assert Entry.objects.count() == 3


def test_a_free_day_and_a_days_own_rate(rates, day, ann, bob):
    DayRate.objects.create(day=day, member_rate=Decimal("2.50"))
    door.sign_in(day, ann)
    assert Entry.objects.get().amount == Decimal("2.50")
    DayRate.objects.filter(day=day).update(free=True)
    door.sign_in(day, bob)
    assert Entry.objects.count() == 1


def test_a_member_paid_for_by_her_partner_owes_nothing(rates, day, ann, bob):
    MoneyProfile.objects.create(person=ann, payer=bob)
    door.sign_in(day, ann)
    door.sign_in(day, bob)
    assert account_totals(ann).balance == Decimal("0.00")
    assert account_totals(bob).balance == Decimal("-10.00")
    assert Entry.objects.get(attendee=ann).person == bob


def test_an_officer_changes_one_charge_with_a_reason(rates, day, ann, bob, officer_user):
    door.sign_in(day, ann)
    charge = Entry.objects.get()
    with pytest.raises(MoneyRefused):
        change_charge(charge, Decimal("2.00"), "", by=officer_user)
    new = change_charge(charge, Decimal("2.00"), "Came late", account=bob, by=officer_user)
    assert new.person == bob and new.attendee == ann and new.amount == Decimal("2.00")
    assert account_totals(ann).balance == Decimal("0.00")
    assert account_totals(bob).balance == Decimal("-2.00")
    back = Entry.objects.get(kind="reversal")
    assert back.reason == "Came late" and back.recorded_by == officer_user
    with pytest.raises(MoneyRefused):
        change_charge(Entry.objects.get(pk=charge.pk), Decimal("1.00"), "again")


def test_undoing_a_sign_in_takes_its_charge_back(rates, day, ann):
    signin = door.sign_in(day, ann)
    door.undo_sign_in(signin)
    assert account_totals(ann).balance == Decimal("0.00")
    assert Entry.objects.filter(kind="reversal").count() == 1


def test_a_lapsed_member_pays_the_visitor_rate_when_the_club_says_so(rates, day, ann):
    import datetime

    rates.lapsed_pay_visitor_rate = True
    rates.grace_days = 10
    rates.save()
    MoneyProfile.objects.create(person=ann, paid_until=day.date - datetime.timedelta(days=11))
    door.sign_in(day, ann)
    assert Entry.objects.get().amount == Decimal("8.00")


def test_undoing_a_sign_in_takes_back_a_changed_charge_too(rates, day, ann, bob, officer_user):
    signin = door.sign_in(day, ann)
    first = change_charge(Entry.objects.get(), Decimal("2.00"), "Came late", account=bob)
    change_charge(first, Decimal("1.00"), "Left early", account=bob)
    door.undo_sign_in(signin)
    assert account_totals(ann).balance == Decimal("0.00")
    assert account_totals(bob).balance == Decimal("0.00")
    assert not Entry.objects.charges().filter(reversal__isnull=True).exists()


def test_a_guests_own_charge_can_be_changed(rates, day, ann):
    guest = GuestFactory(brought_by=ann)
    door.sign_in(day, guest, brought_by=ann)
    charge = Entry.objects.get()
    assert charge.person == guest  # a guest's table money is on their own account
    new = change_charge(charge, Decimal("4.00"), "Half day")
    assert new.person == guest and new.amount == Decimal("4.00")
    with pytest.raises(MoneyRefused):  # but not onto another guest's account
        change_charge(new, Decimal("4.00"), "x", account=GuestFactory(brought_by=ann))
