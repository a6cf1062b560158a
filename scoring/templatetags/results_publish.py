"""The day page's "Share the results" card: the room board's link and code, the results
e-mail button with its log, and the printable day sheet."""

from __future__ import annotations

import secrets

from django import template
from django.urls import reverse

from members.services.days import links_open
from scoring.play.rooms import format_room_code
from scoring.results.mail import mail_card

register = template.Library()


@register.inclusion_tag("results/_day_publish.html", takes_context=True)
def day_publishing(context, day):
    request = context["request"]
    board_path = reverse("scoring:board_link", args=[day.board_code])
    return {
        "day": day,
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "board_open": links_open(day),
        "board_url": request.build_absolute_uri(board_path),
        "board_code": format_room_code(day.board_code),
        "key": secrets.token_urlsafe(24),
        **mail_card(day),
    }
