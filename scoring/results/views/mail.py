"""A closed day's results sent by e-mail (officers), the unsubscribe link (no login),
and the printable day sheet."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from members.models import ClubDay
from members.permissions import officer_required
from members.services.mailing import set_results_by_email
from scoring.results.board import day_report
from scoring.results.mail import MailRefused, mail_card, person_from_token
from scoring.results.mail_tasks import send_day_results
from scoring.results.views.common import results_page


@officer_required
@require_http_methods(["POST"])
def send_results_view(request, pk):
    """The day page's button: send the day's results to the members who opted in
    ("send again" also to those who already have them)."""
    day = get_object_or_404(ClubDay, pk=pk)
    again = request.POST.get("again") == "yes"
    try:
        mailing, new = send_day_results(
            day,
            key=request.POST.get("key", ""),
            site_root=request.build_absolute_uri(reverse("home")),
            again=again,
            by=request.user,
        )
    except MailRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("members:day", pk=day.pk)
    if not new:
        messages.info(request, _("That press was already handled; nothing more was sent."))
    else:
        _say_what_happened(request, mailing)
    return redirect("members:day", pk=day.pk)


def _say_what_happened(request, mailing) -> None:
    count = mailing.messages.count()
    if not count:
        messages.info(
            request,
            _(
                "Nobody new to send to: everyone who asked for the results already has them. "
                "Use “Send again to everyone” to send them a second time."
            ),
        )
        return
    messages.success(
        request,
        ngettext(
            "The results are being sent to %(count)s member. This page shows how it goes.",
            "The results are being sent to %(count)s members. This page shows how it goes.",
            count,
        )
        % {"count": count},
    )


@officer_required
@require_http_methods(["GET"])
def day_mail_view(request, pk):
    """The day page's e-mail part alone: what the page asks for every few seconds while
    the results are being sent."""
    day = get_object_or_404(ClubDay, pk=pk)
    context = {"key": secrets.token_urlsafe(24), **mail_card(day)}
    return render(request, "results/_day_mail.html", context)


@require_http_methods(["GET", "POST"])
def unsubscribe_view(request, token):
    """Stop the results e-mail from the link in a message, without logging in. A GET
    asks (mail scanners open links); the page's button stops it."""
    person = person_from_token(token)
    if person is None:
        return render(request, "results/unsubscribe.html", {"bad_link": True}, status=400)
    done = False
    if request.method == "POST":
        set_results_by_email(person, False, how="unsubscribe link")
        done = True
    return render(request, "results/unsubscribe.html", {"person": person, "done": done})


@require_http_methods(["GET"])
@results_page
def day_sheet_view(request, club, pk):
    """The day's results on one A4 page, for the notice board (the browser prints it)."""
    day = get_object_or_404(ClubDay, pk=pk)
    return render(request, "results/day_sheet.html", day_report(day))
