"""A member's own money: their balance and its lines (nobody else's), printable."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from members.money.models import MoneyProfile, MoneySettings
from members.money.services.ledger import account_lines, account_totals
from members.permissions import person_for


@login_required
@require_GET
def my_money(request):
    person = person_for(request.user)
    if person is not None and person.is_merged:
        person = person.merged_into
    if person is None:
        return render(request, "members/me_no_person.html", status=404)
    profile = MoneyProfile.objects.filter(person=person).select_related("payer").first()
    return render(
        request,
        "money/me.html",
        {
            "person": person,
            "lines": account_lines(person),
            "totals": account_totals(person),
            "currency": MoneySettings.current().currency,
            "profile": profile,
        },
    )
