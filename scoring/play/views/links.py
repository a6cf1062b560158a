"""Getting to the table: the room-code box on the front page, the secret link of a
table's card, and (officers) the printable cards with their QR codes."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.db.models import Count, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.devices import remember_device
from members.clubs.addresses import club_url
from members.models import ClubDay, Seat, Table
from members.permissions import officer_required
from scoring.play.access import (
    grant_table,
    remember_phone_name,
    require_links_open,
    shows_closed_day,
    table_for_request,
    tables_with_days,
    tidy_phone_name,
)
from scoring.play.rooms import check_room_code, format_room_code


def room(request):
    """The room-code box on the front page (POST); a wrong code is told on the same box.
    Every answer carries this browser's device cookie, so its tries count as its own."""
    if request.method != "POST":
        response = redirect("home")
        remember_device(request, response)
        return response
    code = request.POST.get("room_code", "")
    table, problem = check_room_code(request, code)
    if table is None:
        response = render(
            request,
            "home.html",
            {"room_error": problem, "room_code": str(code)[:20]},
            status=200,
        )
    elif table.club_id != request.club.pk:
        response = redirect(table_link_elsewhere(request, table))
    else:
        grant_table(request, table)
        response = redirect("scoring:table", table_pk=table.pk)
    remember_device(request, response)
    return response


def table_link_elsewhere(request, table: Table) -> str:
    """A code or link of another club's table leads to that table's link at its own
    club's address (codes and links are unique across the site), which checks it."""
    return club_url(request, table.club, "scoring:table_link", token=table.token)


@shows_closed_day
def table_link(request, token):
    """The secret link of a table's card: this device may now score that table today.
    Another club's table's link leads to its own club's address."""
    table = tables_with_days().filter(token=token).first()
    if table is None:
        elsewhere = (
            Table.objects.with_scopes_disabled().select_related("club").filter(token=token).first()
        )
        if elsewhere is None:
            raise Http404("No table has this link.")
        return redirect(table_link_elsewhere(request, elsewhere))
    require_links_open(table)
    grant_table(request, table)
    response = redirect("scoring:table", table_pk=table.pk)
    remember_device(request, response)
    return response


@officer_required
def table_cards(request, day_pk):
    """The day's table cards, two to an A4 sheet: each fills its half (cut the sheet in
    two, or fold it to stand), with the room code in large type and a 7 cm QR code a
    phone reads from across the table (css/table_cards.css)."""
    day = get_object_or_404(ClubDay, pk=day_pk)
    tables = (
        Table.objects.filter(round__day=day)
        .select_related("round")
        .annotate(seated=Count("seats"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("person")))
        .order_by("round__number", "number")
    )
    cards = []
    for t in tables:
        url = request.build_absolute_uri(reverse("scoring:table_link", args=[t.token]))
        # No fixed size (a viewBox only): the card's CSS sizes the code, 7 cm on paper.
        svg = segno.make(url, error="m").svg_inline(omitsize=True, dark="#000", light="#fff")
        code = format_room_code(t.room_code)
        cards.append({"table": t, "url": url, "code": code, "qr": mark_safe(svg)})  # segno's SVG
    return render(request, "scoring/table_cards.html", {"day": day, "cards": cards})


@require_POST
@shows_closed_day
def phone_name(request, table_pk):
    """ "Whose phone is this?": the name this phone writes with each change it makes
    (kept on the phone, asked once on the table page). Back to the table."""
    access = table_for_request(request, table_pk)
    response = redirect("scoring:table", table_pk=access.table.pk)
    name = tidy_phone_name(request.POST.get("name"))
    if not name:
        messages.error(request, _("Type a name for this phone, for example Betty."))
        return response
    remember_phone_name(response, name)
    messages.success(request, _("This is %(name)s's phone: its changes say so.") % {"name": name})
    return response
