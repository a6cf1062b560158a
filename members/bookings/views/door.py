"""The door's booked guests: one tap makes the guest's record and signs them in with
the member who booked them (the rest of the door is members.views.door)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from members.bookings.door import sign_in_booked_guest
from members.bookings.models import Booking
from members.permissions import officer_required
from members.services.errors import SignInRefused
from members.views.common import club_day
from members.views.door import _door_reply, door_login_redirect


@door_login_redirect
@officer_required
@require_POST
def door_guest(request, pk, booking_pk):
    day = club_day(pk)
    booking = get_object_or_404(
        Booking.objects.select_related("person", "day"), day=day, pk=booking_pk
    )
    try:
        record = sign_in_booked_guest(booking, by=request.user)
    except SignInRefused as refusal:
        return _door_reply(request, day, refusal.message, messages.WARNING, refresh_list=True)
    text = _("%(name)s signed in as the guest of %(member)s.") % {
        "name": record.person.full_name,
        "member": booking.person.full_name,
    }
    return _door_reply(
        request,
        day,
        text + " " + _("Next person: type a number or name."),
        messages.SUCCESS,
        changed=True,
    )
