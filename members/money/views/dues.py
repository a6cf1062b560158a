"""Dues: membership types, renewals (opened by an officer: notices go out), a renewal's
page (who has not paid, record a dues payment, send reminders, print letters)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from members.money.access import treasurer_required
from members.money.forms import DuesPaymentForm, MembershipTypeForm, RenewalForm
from members.money.models import DuesNotice, MembershipType, MoneySettings, RenewalPeriod
from members.money.services.dues import (
    dues_owed,
    open_renewal,
    record_dues,
    send_reminders,
    unpaid_members,
)
from members.money.services.errors import MoneyRefused
from members.money.views.common import first_error


@treasurer_required
@require_http_methods(["GET", "POST"])
def dues(request):
    type_form = MembershipTypeForm(prefix="type")
    renewal_form = RenewalForm(prefix="renewal")
    if request.method == "POST" and request.POST.get("action") == "type":
        type_form = MembershipTypeForm(request.POST, prefix="type")
        if type_form.is_valid():
            type_form.save()
            messages.success(request, _("Membership type added."))
            return redirect("money:dues")
        messages.error(request, first_error(type_form))
    elif request.method == "POST":
        renewal_form = RenewalForm(request.POST, prefix="renewal")
        if renewal_form.is_valid():
            data = renewal_form.cleaned_data
            try:
                period, new = open_renewal(
                    data["name"],
                    data["paid_until"],
                    remind_on=data["remind_on"],
                    key=data["key"],
                    by=request.user,
                )
            except MoneyRefused as refusal:
                messages.error(request, refusal.message)
            else:
                if new:
                    messages.success(request, _("Renewal opened: the notices go out now."))
                else:
                    messages.info(request, _("This renewal was opened already."))
                return redirect("money:renewal", period.pk)
        else:
            messages.error(request, first_error(renewal_form))
    return render(
        request,
        "money/dues.html",
        {
            "types": MembershipType.objects.all(),
            "renewals": RenewalPeriod.objects.all()[:10],
            "type_form": type_form,
            "renewal_form": renewal_form,
            "currency": MoneySettings.current().currency,
        },
    )


@treasurer_required
@require_GET
def renewal(request, pk):
    period = get_object_or_404(RenewalPeriod, pk=pk)
    return render(
        request,
        "money/renewal.html",
        {
            "period": period,
            "unpaid": unpaid_members(period).order_by("last_name", "first_name", "pk"),
            "form": DuesPaymentForm(),
            "to_print": period.notices.filter(status=DuesNotice.Status.PRINT).count(),
        },
    )


@treasurer_required
@require_POST
def renewal_pay(request, pk):
    period = get_object_or_404(RenewalPeriod, pk=pk)
    form = DuesPaymentForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("money:renewal", period.pk)
    data = form.cleaned_data
    try:
        entry, new = record_dues(
            data["person"], period, data["amount"], data["source"], key=data["key"], by=request.user
        )
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
        return redirect("money:renewal", period.pk)
    owed = dues_owed(data["person"], period) if new else None
    if new and owed:
        messages.warning(
            request,
            _(
                "Payment of %(name)s recorded; %(owed)s is still owed for %(period)s. "
                "Paid-until moves when the dues are paid in full."
            )
            % {"name": data["person"].full_name, "owed": owed, "period": period.name},
        )
    elif new:
        messages.success(
            request,
            _("Dues of %(name)s recorded: paid until %(date)s.")
            % {"name": data["person"].full_name, "date": period.paid_until},
        )
    else:
        messages.info(request, _("This payment was recorded already; nothing was added."))
    return redirect("money:renewal", period.pk)


@treasurer_required
@require_POST
def renewal_remind(request, pk):
    period = get_object_or_404(RenewalPeriod, pk=pk)
    count = send_reminders(period)
    messages.success(
        request,
        ngettext("%(count)s reminder started.", "%(count)s reminders started.", count)
        % {"count": count},
    )
    return redirect("money:renewal", period.pk)


@treasurer_required
@require_GET
def renewal_letters(request, pk):
    period = get_object_or_404(RenewalPeriod, pk=pk)
    notices = period.notices.filter(status=DuesNotice.Status.PRINT).select_related(
        "person__money_profile__membership_type"
    )
    return render(
        request,
        "money/renewal_letters.html",
        {"period": period, "notices": notices, "currency": MoneySettings.current().currency},
    )
