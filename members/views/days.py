"""Club days: the list (and opening a new day), and one day's page (close, reopen, keep
the table links working longer)."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubsite.clock import clock
from members.clubs.pwa import clears_offline_copies
from members.forms import DayForm
from members.models import ClubDay, Person
from members.permissions import officer_required
from members.services.days import close_day, extend_links, links_end, open_day, reopen_day
from members.services.errors import DayRefused
from members.signals import day_closing
from members.views.common import club_day


@officer_required
@require_http_methods(["GET", "POST"])
def days(request):
    form = DayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        same_date = ClubDay.objects.filter(date=form.cleaned_data["date"]).exists()
        day = open_day(form.cleaned_data["date"], form.cleaned_data["title"])
        messages.success(request, _("%(day)s is open. Sign people in at the door.") % {"day": day})
        if same_date:
            messages.warning(request, _("Note: another club day has the same date."))
        return redirect("members:day", pk=day.pk)
    page = Paginator(ClubDay.objects.with_counts().order_by("-date", "-pk"), 30).get_page(
        request.GET.get("page")
    )
    return render(request, "members/days.html", {"form": form, "page": page})


def _seen_end(text):
    """The links' end the day page showed (its hidden field); None when missing or odd
    (a time without its zone cannot be compared, so it counts as none)."""
    try:
        value = parse_datetime(text or "")
    except ValueError:
        return None
    return value if value is not None and timezone.is_aware(value) else None


@officer_required
@require_http_methods(["GET", "POST"])
@clears_offline_copies(action="close")
def day(request, pk):
    day = club_day(pk)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "close":
                close_day(day, choices=request.POST)
                messages.success(
                    request, _("%(day)s is closed. Nobody more can sign in.") % {"day": day}
                )
                for note in day.closing_notes:
                    messages.info(request, note)
            elif action == "reopen":
                reopen_day(day)
                messages.success(request, _("%(day)s is open again.") % {"day": day})
            elif action == "extend":
                seen = _seen_end(request.POST.get("seen_end"))
                extend_links(day, request.POST.get("hours"), by=request.user, seen_end=seen)
                messages.success(
                    request,
                    _("Table links now work until %(end)s.") % {"end": _links_end_words(day)},
                )
            else:
                messages.error(request, _("Unknown action."))
        except DayRefused as refusal:
            messages.warning(request, refusal.message)
        return redirect("members:day", pk=day.pk)
    counts = day.signins.aggregate(
        total=Count("pk"), guests=Count("pk", filter=Q(person__kind=Person.Kind.GUEST))
    )
    rounds = day.rounds.annotate(
        tables_count=Count("tables", distinct=True), seated=Count("seats", distinct=True)
    ).order_by("number")
    context = {
        "day": day,
        "counts": counts,
        "rounds": rounds,
        "links_end": _links_end_words(day),
        "links_end_at": links_end(day).isoformat(),
    }
    return render(request, "members/day.html", context)


@officer_required
@require_http_methods(["GET"])
def day_close(request, pk):
    """Closing a day asks first, and lists what is still in play: closing stops every
    table link at once, and the officer chooses, game by game, whether to end it as it
    stands or leave it unfinished. The page's form posts to the day page (action
    ``close``) with those choices."""
    day = club_day(pk)
    if not day.is_open:
        messages.info(request, _("%(day)s is already closed.") % {"day": day})
        return redirect("members:day", pk=day.pk)
    in_play = [
        item for _receiver, items in day_closing.send(sender=None, day=day) for item in items
    ]
    return render(request, "members/day_close.html", {"day": day, "in_play": in_play})


def _links_end_words(day) -> str:
    """When the day's table links end, in the club's time: "11:59 p.m. on 6 Mar"."""
    end = timezone.localtime(links_end(day))
    if end.time() == datetime.time.min:  # midnight: "11:59 p.m." on the day itself
        end -= datetime.timedelta(minutes=1)
    return _("%(time)s on %(date)s") % {
        "time": clock(end),
        "date": date_format(end, "DAY_MONTH_FORMAT"),
    }
