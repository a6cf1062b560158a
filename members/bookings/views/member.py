"""A member's bookings: the next days with one "Book" button each, booking with a
partner or a guest, cancelling, "looking for a partner", and the partner messages."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from members.bookings import reads
from members.bookings.forms import BookForm, PartnerMessageForm
from members.bookings.models import Booking, PartnerMessage
from members.bookings.services import bookings, choices, news
from members.bookings.services.errors import BookingRefused, NewsRefused
from members.bookings.services.rules import booking_settings
from members.bookings.views.common import member_required, new_key, root
from members.models import ClubDay, Person
from members.views.common import first_error


def _day(pk) -> ClubDay:
    return get_object_or_404(ClubDay, pk=pk)


@member_required
@require_GET
def days(request):
    """The next club days, each with what to do next."""
    rules = booking_settings()
    partners = (
        Person.objects.current().members().exclude(pk=request.person.pk).order_by("first_name")
    )
    return render(
        request,
        "bookings/days.html",
        {
            "rows": reads.next_days(request.person, rules=rules),
            "partners": list(partners.only("pk", "first_name", "last_name")),
            "rules": rules,
            "choice": choices.choices_of(request.person),
        },
    )


def booked_message(outcome) -> str:
    booking = outcome.booking
    if not outcome.changed:
        return _("You are on the list for %(day)s already.") % {"day": booking.day}
    if booking.status == Booking.Status.WAITING:
        return _(
            "%(day)s is full: you are on the waiting list. If a place comes free you "
            "get it and an e-mail."
        ) % {"day": booking.day}
    return _("Booked: %(day)s. See you there!") % {"day": booking.day}


@member_required
@require_POST
def book(request, pk):
    day = _day(pk)
    form = BookForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("bookings:days")
    try:
        outcome = bookings.book(
            day,
            request.person,
            partner=form.cleaned_data["partner"],
            guest_name=form.cleaned_data["guest_name"],
            by=request.user,
        )
    except BookingRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("bookings:days")
    level = messages.SUCCESS if outcome.changed else messages.INFO
    messages.add_message(request, level, booked_message(outcome))
    return redirect("bookings:days")


def _own_booking(day, person) -> Booking | None:
    return Booking.objects.active().filter(day=day, person=person).select_related("day").first()


@member_required
@require_POST
def cancel(request, pk):
    """Cancel the member's place: their own booking, or their place as someone's
    partner (the booking then stays, single, for the one who made it)."""
    day = _day(pk)
    booking = bookings.on_day(day, request.person)
    if booking is None:
        messages.info(request, _("You are not on the list for %(day)s.") % {"day": day})
        return redirect("bookings:days")
    own = booking.person_id == request.person.pk
    try:
        if own:
            bookings.cancel(booking, by=request.user, root=root(request))
        else:
            bookings.leave(booking, request.person, by=request.user, root=root(request))
    except BookingRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("bookings:days")
    text = _("Cancelled: %(day)s.") % {"day": day}
    if not own:
        text += " " + _("%(name)s stays booked, alone.") % {"name": booking.person.full_name}
    messages.success(request, text)
    return redirect("bookings:days")


@member_required
@require_POST
def looking(request, pk):
    day = _day(pk)
    booking = _own_booking(day, request.person)
    wanted = request.POST.get("looking") == "on"
    try:
        if booking is None:
            raise BookingRefused(_("Book the day first, then say you look for a partner."))
        bookings.set_looking(booking, wanted)
    except BookingRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("bookings:days")
    if wanted:
        messages.success(request, _("The other members can see you look for a partner."))
    else:
        messages.success(request, _("You no longer show as looking for a partner."))
    return redirect("bookings:days")


@member_required
@require_http_methods(["GET", "POST"])
def partners(request, pk):
    """Who looks for a partner on a day (members only), and a message to one of them,
    relayed by e-mail."""
    day = _day(pk)
    form = PartnerMessageForm(request.POST or None, initial={"key": new_key()})
    if request.method == "POST":
        if form.is_valid():
            recipient = Person.objects.filter(pk=form.cleaned_data["to"]).first()
            try:
                if recipient is None:
                    raise NewsRefused(_("That member was not found; reload the page."))
                _message, sent = news.send_partner_message(
                    day,
                    request.person,
                    recipient,
                    form.cleaned_data["text"],
                    key=form.cleaned_data["key"],
                    root=root(request),
                )
            except NewsRefused as refusal:
                messages.warning(request, refusal.message)
            else:
                if sent:
                    messages.success(
                        request,
                        _("Sent to %(name)s by e-mail; their answer comes to you the same way.")
                        % {"name": recipient.full_name},
                    )
                else:
                    messages.info(request, _("That message was sent already."))
                return redirect("bookings:partners", pk=day.pk)
        else:
            messages.error(request, first_error(form))
    received = PartnerMessage.objects.filter(day=day, recipient=request.person).select_related(
        "sender"
    )
    return render(
        request,
        "bookings/partners.html",
        {
            "day": day,
            "looking": news.looking(day).exclude(person=request.person),
            "received": received,
            "form": form,
            "key": new_key(),
        },
    )
