"""The club's money settings (currency, rates, the bank file's columns) and a club
day's own rates."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.models import ClubDay
from members.money.access import treasurer_required
from members.money.forms import DayRateForm, SettingsForm
from members.money.models import DayRate, MoneySettings


@treasurer_required
@require_http_methods(["GET", "POST"])
def money_settings(request):
    found = MoneySettings.current()
    form = SettingsForm(request.POST or None, instance=found)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Money settings saved."))
            return redirect("money:settings")
        messages.error(request, _("Please correct the marked fields."))
    days = ClubDay.objects.filter(status=ClubDay.Status.OPEN).order_by("date")[:20]
    return render(request, "money/settings.html", {"form": form, "days": days})


@treasurer_required
@require_http_methods(["GET", "POST"])
def day_rate(request, pk):
    day = get_object_or_404(ClubDay, pk=pk)
    found = DayRate.objects.filter(day=day).first()
    initial = {}
    if found is not None:
        initial = {
            "free": found.free,
            "member_rate": found.member_rate,
            "visitor_rate": found.visitor_rate,
            "reduced_rate": found.reduced_rate,
        }
    form = DayRateForm(request.POST or None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            DayRate.objects.update_or_create(day=day, defaults=form.cleaned_data)
            messages.success(
                request,
                _("Table money of %(day)s saved; it counts for sign-ins from now.") % {"day": day},
            )
            return redirect("money:settings")
        messages.error(request, _("Please correct the marked fields."))
    return render(
        request,
        "money/day_rate.html",
        {"form": form, "day": day, "club": MoneySettings.current()},
    )
