"""The officers' bookings pages: the days to come, a day's list (booked, waiting,
cancelled) with add, remove and no-show, its printed sheet, and the club's settings."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from members.bookings import reads
from members.bookings.forms import CallForm, OfficerBookForm, SettingsForm
from members.bookings.models import Booking
from members.bookings.services import bookings
from members.bookings.services.errors import BookingRefused
from members.bookings.services.rules import booking_settings
from members.bookings.views.common import new_key, root
from members.models import ClubDay
from members.permissions import officer_required
from members.views.common import first_error


def _day(pk) -> ClubDay:
    return get_object_or_404(ClubDay, pk=pk)


def _booking(day, pk) -> Booking:
    return get_object_or_404(Booking.objects.select_related("day", "person"), day=day, pk=pk)


@officer_required
@require_GET
def hub(request):
    """The days to come with their bookings, and the way to the settings, the
    substitutes and the announcements."""
    return render(
        request,
        "bookings/hub.html",
        {"rows": reads.next_days(None, limit=12), "rules": booking_settings()},
    )


@officer_required
@require_GET
def day_list(request, pk):
    day = _day(pk)
    context = {
        "day": day,
        "form": OfficerBookForm(),
        "call_form": CallForm(initial={"key": new_key()}),
        **reads.day_list(day),
    }
    return render(request, "bookings/day_list.html", context)


@officer_required
@require_GET
def day_print(request, pk):
    """The day's list on one page of paper."""
    day = _day(pk)
    return render(request, "bookings/day_print.html", {"day": day, **reads.day_list(day)})


@officer_required
@require_POST
def add(request, pk):
    day = _day(pk)
    form = OfficerBookForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("bookings:day_list", pk=day.pk)
    data = form.cleaned_data
    try:
        outcome = bookings.book(
            day,
            data["person"],
            partner=data["partner"],
            guest_name=data["guest_name"],
            by=request.user,
            officer=True,
        )
    except BookingRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("bookings:day_list", pk=day.pk)
    name = data["person"].full_name
    if not outcome.changed:
        messages.info(request, _("%(name)s is on the list already.") % {"name": name})
    elif outcome.booking.status == Booking.Status.WAITING:
        messages.success(request, _("%(name)s is on the waiting list.") % {"name": name})
    else:
        messages.success(request, _("%(name)s is booked.") % {"name": name})
    return redirect("bookings:day_list", pk=day.pk)


@officer_required
@require_POST
def remove(request, pk, booking_pk):
    day = _day(pk)
    booking = _booking(day, booking_pk)
    outcome = bookings.cancel(booking, by=request.user, officer=True, root=root(request))
    if not outcome.changed:
        messages.info(request, _("That booking was cancelled already."))
    else:
        text = _("%(name)s taken off the list.") % {"name": booking.person.full_name}
        if outcome.promoted:
            names = ", ".join(b.person.full_name for b in outcome.promoted)
            text += " " + _("From the waiting list: %(names)s (told by e-mail).") % {"names": names}
        messages.success(request, text)
    return redirect("bookings:day_list", pk=day.pk)


@officer_required
@require_POST
def no_show(request, pk, booking_pk):
    day = _day(pk)
    booking = _booking(day, booking_pk)
    wanted = request.POST.get("no_show") == "on"
    try:
        bookings.set_no_show(booking, wanted, by=request.user)
    except BookingRefused as refusal:
        messages.warning(request, refusal.message)
    else:
        name = booking.person.full_name
        if wanted:
            messages.success(request, _("%(name)s marked as not come.") % {"name": name})
        else:
            messages.success(request, _("%(name)s no longer marked as not come.") % {"name": name})
    back = "members:signin" if request.POST.get("back") == "door" else "bookings:day_list"
    return redirect(back, pk=day.pk)


@officer_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    rules = booking_settings()
    form = SettingsForm(request.POST or None, instance=rules)
    if request.method == "POST":
        if form.is_valid():
            bookings.save_settings(form.save(commit=False), root=root(request))
            messages.success(request, _("Booking settings saved."))
            return redirect("bookings:hub")
        messages.error(request, _("Check the form: %(problem)s") % {"problem": first_error(form)})
    return render(request, "bookings/settings.html", {"form": form})
