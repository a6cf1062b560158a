"""The bookings app's parts of other apps' pages, each one small include with its data
read here: a member's next days (their page, the front page), the current
announcements (the front page, the room board), the booked people at the door."""

from __future__ import annotations

from django import template

from members.bookings import reads
from members.bookings.door import booked_list
from members.permissions import own_person

register = template.Library()


@register.inclusion_tag("bookings/_next_days.html", takes_context=True)
def my_next_days(context, limit=3):
    """The logged-in member's next days with a "Book" button each (nothing for others),
    from the club's kept copy (:func:`members.bookings.reads.kept_next_days`)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    # The member's own page has read them already: their person is not read again.
    person = context.get("person")
    if person is None or user is None or person.user_id != user.pk or person.is_merged:
        person = own_person(user) if request is not None else None
    if person is None or not person.is_member:
        return {"rows": []}
    rules, rows = reads.kept_next_days(person, limit=limit)
    return {
        "rows": rows,
        "rules": rules,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("bookings/_announcements.html")
def club_announcements(limit=3, board=False):
    return {"items": reads.current_announcements(limit=limit), "board": board}


@register.inclusion_tag("bookings/_door_booked.html", takes_context=True)
def door_booked(context, day, oob=False):
    return {
        "day": day,
        "rows": booked_list(day),
        "oob": oob,
        "csrf_token": context.get("csrf_token"),
    }
