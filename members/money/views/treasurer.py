"""The treasurer's pages: everyone's balance (and its export), one person's account
with its buttons: record a payment, change a charge, take a line back, the person's
money settings."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubsite.csvcells import csv_download
from members.money.access import treasurer_required
from members.money.forms import ChangeChargeForm, PaymentForm, ProfileForm, ReverseForm
from members.money.models import MoneyProfile, MoneySettings
from members.money.services.errors import MoneyRefused
from members.money.services.ledger import (
    account_lines,
    account_totals,
    record_payment,
    reverse_entry,
)
from members.money.services.table import change_charge
from members.money.views.common import (
    STATES,
    balance_rows,
    entry_or_404,
    first_error,
    person_or_404,
    sum_rows,
)


@treasurer_required
@require_GET
def balances(request):
    """Everyone's charges, payments and balance: owes, paid ahead or settled."""
    state = request.GET.get("state", "")
    rows = balance_rows(state=state)
    currency = MoneySettings.current().currency
    export = request.GET.get("format")
    if export == "csv":
        return _balances_csv(rows, currency)
    if export == "xlsx":
        return _balances_xlsx(rows, currency)
    return render(
        request,
        "money/balances.html",
        {
            "rows": rows,
            "total": sum_rows(rows),
            "currency": currency,
            "state": state if state in STATES else "",
        },
    )


def _header():
    return [_("Number"), _("Name"), _("Charges"), _("Payments"), _("Balance"), _("Currency")]


def _balances_csv(rows, currency):
    response, writer = csv_download(f"balances-{timezone.localdate().isoformat()}.csv")
    writer.writerow(_header())
    for row in rows:
        t = row.totals
        writer.writerow(
            [
                row.person.membership_number or "",
                row.person.full_name,
                t.charges,
                t.payments,
                t.balance,
                currency,
            ]
        )
    return response


def _balances_xlsx(rows, currency):
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet(_("Balances"))
    sheet.freeze_panes = "A2"

    def text(value):
        """A text cell, always text: a name starting with "=" is never a formula."""
        from openpyxl.cell import WriteOnlyCell
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

        cell = WriteOnlyCell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("", str(value or "")))
        cell.data_type = "s"
        return cell

    sheet.append([text(name) for name in _header()])
    for row in rows:
        t = row.totals
        sheet.append(
            [
                text(row.person.membership_number),
                text(row.person.full_name),
                t.charges,
                t.payments,
                t.balance,
                text(currency),
            ]
        )
    response = HttpResponse(
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    name = f"balances-{timezone.localdate().isoformat()}.xlsx"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    book.save(response)
    return response


@treasurer_required
@require_GET
def account(request, pk):
    person = person_or_404(pk)
    profile = MoneyProfile.objects.filter(person=person).first()
    return render(
        request,
        "money/account.html",
        {
            "person": person,
            "lines": account_lines(person),
            "totals": account_totals(person),
            "currency": MoneySettings.current().currency,
            "payment_form": PaymentForm(),
            "profile_form": ProfileForm(instance=profile, person=person),
            "paid_for": MoneyProfile.objects.filter(payer=person).select_related("person"),
        },
    )


@treasurer_required
@require_POST
def pay(request, pk):
    person = person_or_404(pk)
    form = PaymentForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("money:account", person.pk)
    data = form.cleaned_data
    try:
        entry, new = record_payment(
            person,
            data["amount"],
            data["source"],
            date=data["date"],
            note=data["note"],
            key=data["key"],
            by=request.user,
        )
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
        return redirect("money:account", person.pk)
    if new:
        messages.success(
            request,
            _("Payment of %(amount)s from %(name)s recorded.")
            % {"amount": entry.amount, "name": person.full_name},
        )
    else:
        messages.info(request, _("This payment was recorded already; nothing was added."))
    return redirect("money:account", person.pk)


@treasurer_required
@require_POST
def change(request, pk):
    entry = entry_or_404(pk)
    form = ChangeChargeForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("money:account", entry.person_id)
    data = form.cleaned_data
    try:
        change_charge(
            entry, data["amount"], data["reason"], account=data["account"], by=request.user
        )
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The charge was changed; the old one is kept, taken back."))
    return redirect("money:account", entry.person_id)


@treasurer_required
@require_POST
def take_back(request, pk):
    entry = entry_or_404(pk)
    form = ReverseForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("money:account", entry.person_id)
    try:
        reverse_entry(entry, form.cleaned_data["reason"], by=request.user)
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The line was taken back; both stay on the account."))
    return redirect("money:account", entry.person_id)


@treasurer_required
@require_POST
def profile(request, pk):
    person = person_or_404(pk)
    found = MoneyProfile.objects.filter(person=person).first() or MoneyProfile(person=person)
    form = ProfileForm(request.POST, instance=found, person=person)
    if form.is_valid():
        form.save()
        messages.success(request, _("Saved."))
    else:
        messages.error(request, first_error(form))
    return redirect("money:account", person.pk)
