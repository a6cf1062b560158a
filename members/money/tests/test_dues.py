"""Dues: a renewal's notices, a payment moving paid-until forward, reminders to the
unpaid once, and the door's lapsed mark."""

import datetime
from decimal import Decimal

from django.core import mail
from django.urls import reverse

from members.money.models import DuesNotice, Entry, MembershipType, MoneyProfile
from members.money.services.dues import dues_owed, open_renewal, record_dues, send_reminders
from members.money.services.ledger import account_totals

UNTIL = datetime.date(2027, 12, 31)


def test_a_renewal_notifies_once_and_a_payment_moves_paid_until(ann, bob, rates):
    bob.email = ""
    bob.save()
    kind = MembershipType.objects.create(name="Full", rate=Decimal("60.00"))
    MoneyProfile.objects.create(person=ann, membership_type=kind)
    period, new = open_renewal("Dues 2027", UNTIL, key="open-1")
    assert open_renewal("Dues 2027", UNTIL, key="open-1") == (period, False)
    assert new and len(mail.outbox) == 1 and "60.00 USD" in mail.outbox[0].body
    assert period.notices.get(person=bob).status == DuesNotice.Status.PRINT

    record_dues(ann, period, Decimal("60.00"), "cash", key="pay-1")
    record_dues(ann, period, Decimal("60.00"), "cash", key="pay-1")  # a double tap
    assert MoneyProfile.objects.get(person=ann).paid_until == UNTIL
    assert Entry.objects.filter(person=ann).count() == 2
    assert account_totals(ann).balance == Decimal("0.00")

    assert send_reminders(period) == 1  # Bob only
    assert send_reminders(period) == 0  # once
    assert period.notices.filter(kind="reminder").count() == 1


def test_the_door_shows_a_lapsed_member(ann, day, rates, officer_client):
    MoneyProfile.objects.create(person=ann, paid_until=day.date - datetime.timedelta(days=40))
    page = officer_client.get(reverse("members:signin", args=[day.pk]), {"q": "1001"})
    assert "Dues lapsed" in page.content.decode()
    MoneyProfile.objects.filter(person=ann).update(paid_until=day.date)
    page = officer_client.get(reverse("members:signin", args=[day.pk]), {"q": "1001"})
    assert "Ann Adams" in page.content.decode()
    assert "Dues lapsed" not in page.content.decode()


def test_the_renewal_pages(ann, rates, login, treasurer_user):
    client = login(treasurer_user)
    data = {
        "action": "renewal",
        "renewal-name": "Dues 2027",
        "renewal-paid_until": "2027-12-31",
        "renewal-key": "k1",
    }
    response = client.post(reverse("money:dues"), data)
    assert response.status_code == 302
    from members.money.models import RenewalPeriod

    period = RenewalPeriod.objects.get()
    kind = MembershipType.objects.create(name="Full", rate=Decimal("60.00"))
    MoneyProfile.objects.create(person=ann, membership_type=kind)
    pay = {"person": ann.pk, "amount": "55", "source": "cash", "key": "p1"}
    page = client.post(reverse("money:renewal_pay", args=[period.pk]), pay, follow=True)
    assert "5.00 is still owed for Dues 2027" in page.content.decode()
    assert MoneyProfile.objects.get(person=ann).paid_until is None
    pay = {"person": ann.pk, "amount": "5", "source": "cash", "key": "p2"}
    assert client.post(reverse("money:renewal_pay", args=[period.pk]), pay).status_code == 302
    assert MoneyProfile.objects.get(person=ann).paid_until == UNTIL
    assert client.get(reverse("money:renewal", args=[period.pk])).status_code == 200


def test_the_reminders_command_sends_those_due_once(club, ann, rates, capsys):
    from django.core.management import call_command

    from members.money.models import RenewalPeriod

    RenewalPeriod.objects.create(
        name="2027", paid_until=UNTIL, remind_on=datetime.date(2027, 1, 15), key="k"
    )
    call_command("dues_reminders", club.slug, "--date", "2027-01-14")
    call_command("dues_reminders", club.slug, "--date", "2027-01-15")
    call_command("dues_reminders", club.slug, "--date", "2027-01-16")
    assert capsys.readouterr().out.split("\n")[:3] == [
        "0 reminders started.",
        "1 reminders started.",
        "0 reminders started.",
    ]
    assert len(mail.outbox) == 1


def test_dues_charge_the_types_rate_and_a_small_payment_does_not_mark_paid(ann, rates):
    kind = MembershipType.objects.create(name="Full", rate=Decimal("60.00"))
    MoneyProfile.objects.create(person=ann, membership_type=kind)
    period, _ = open_renewal("Dues 2027", UNTIL, key="open-1")
    record_dues(ann, period, Decimal("1.00"), "cash", key="pay-1")
    assert MoneyProfile.objects.get(person=ann).paid_until is None
    assert account_totals(ann).charges == Decimal("60.00")
    assert dues_owed(ann, period) == Decimal("59.00")
    record_dues(ann, period, Decimal("59.00"), "cash", key="pay-2")
    assert MoneyProfile.objects.get(person=ann).paid_until == UNTIL
    assert account_totals(ann).charges == Decimal("60.00")  # charged once
    assert account_totals(ann).balance == Decimal("0.00")


def test_dues_of_a_member_without_a_type_are_refused(ann, rates):
    import pytest

    from members.money.services.errors import MoneyRefused

    period, _ = open_renewal("Dues 2027", UNTIL, key="open-1")
    with pytest.raises(MoneyRefused, match="no membership type"):
        record_dues(ann, period, Decimal("60.00"), "cash", key="pay-1")
    assert not Entry.objects.exists()


def test_taking_back_a_dues_payment_restores_the_earlier_paid_until(ann, rates):
    from members.money.services.ledger import reverse_entry

    before = datetime.date(2026, 12, 31)
    kind = MembershipType.objects.create(name="Full", rate=Decimal("60.00"))
    MoneyProfile.objects.create(person=ann, membership_type=kind, paid_until=before)
    period, _ = open_renewal("Dues 2027", UNTIL, key="open-1")
    payment, _ = record_dues(ann, period, Decimal("60.00"), "cash", key="pay-1")
    assert MoneyProfile.objects.get(person=ann).paid_until == UNTIL
    reverse_entry(payment, "bounced cheque")
    assert MoneyProfile.objects.get(person=ann).paid_until == before
    assert dues_owed(ann, period) == Decimal("60.00")
