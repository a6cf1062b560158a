"""A member's choices about the club's e-mails (their page) and the unsubscribe link
of a message (no login: the link is signed)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from members.bookings.services import choices
from members.bookings.views.common import member_required


@member_required
@require_POST
def set_choices(request):
    for kind in choices.KINDS:
        choices.set_choice(request.person, kind, request.POST.get(kind) == "on")
    if not request.person.email:
        messages.warning(
            request, _("Saved, but we have no e-mail address for you: ask an officer to add it.")
        )
    else:
        messages.success(request, _("Saved: your e-mail choices."))
    return redirect("bookings:days")


@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """Stop one kind of e-mail from the link in a message. A GET asks (mail scanners
    open links); the page's button stops it."""
    found = choices.from_token(token)
    if found is None:
        return render(request, "bookings/unsubscribe.html", {"bad_link": True}, status=400)
    person, kind = found
    done = False
    if request.method == "POST":
        choices.set_choice(person, kind, False)
        done = True
    return render(
        request, "bookings/unsubscribe.html", {"person": person, "kind": kind, "done": done}
    )
