"""The club's news for officers: announcements (written, shown, e-mailed) and the
substitutes list with its one-press call."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from members.bookings import reads
from members.bookings.forms import AnnouncementForm, CallForm, SubstituteForm
from members.bookings.models import Announcement, Notice, Substitute
from members.bookings.services import news
from members.bookings.services.errors import NewsRefused
from members.bookings.views.common import new_key, root
from members.models import ClubDay
from members.permissions import officer_required
from members.views.common import first_error


@officer_required
@require_http_methods(["GET", "POST"])
def announcements(request):
    form = AnnouncementForm(request.POST or None, initial={"key": new_key(), "mail": True})
    if request.method == "POST":
        if form.is_valid():
            data = dict(form.cleaned_data)
            key, mail = data.pop("key"), data.pop("mail")
            try:
                item, new = news.announce(
                    key=key, by=request.user, mail=mail, root=root(request), **data
                )
            except NewsRefused as refusal:
                messages.warning(request, refusal.message)
            else:
                if not new:
                    messages.info(request, _("That announcement was saved already."))
                else:
                    count = Notice.objects.filter(event=f"announcement:{item.pk}").count()
                    messages.success(
                        request,
                        _("Announcement saved; e-mailed to %(count)s members who asked for news.")
                        % {"count": count},
                    )
                return redirect("bookings:announcements")
        else:
            messages.error(
                request, _("Check the form: %(problem)s") % {"problem": first_error(form)}
            )
    return render(
        request,
        "bookings/announcements.html",
        {"form": form, "items": reads.current_announcements(limit=50)},
    )


@officer_required
@require_POST
def withdraw(request, pk):
    item = Announcement.objects.filter(pk=pk).first()
    if item is None:
        messages.info(request, _("That announcement was taken down already."))
    else:
        news.withdraw(item)
        messages.success(request, _("Announcement taken down: %(title)s.") % {"title": item.title})
    return redirect("bookings:announcements")


@officer_required
@require_http_methods(["GET", "POST"])
def substitutes(request):
    form = SubstituteForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                entry, new = news.add_substitute(
                    form.cleaned_data["person"], form.cleaned_data["note"]
                )
            except NewsRefused as refusal:
                messages.warning(request, refusal.message)
            else:
                name = entry.person.full_name
                if new:
                    messages.success(
                        request, _("%(name)s is on the substitutes list.") % {"name": name}
                    )
                else:
                    messages.info(request, _("%(name)s was on the list already.") % {"name": name})
            return redirect("bookings:substitutes")
        messages.error(request, first_error(form))
    return render(
        request,
        "bookings/substitutes.html",
        {"form": form, "entries": Substitute.objects.select_related("person")},
    )


@officer_required
@require_POST
def substitute_remove(request, pk):
    entry = Substitute.objects.filter(pk=pk).select_related("person").first()
    if entry is None:
        messages.info(request, _("That person was off the list already."))
    else:
        entry.delete()
        messages.success(
            request, _("%(name)s is off the substitutes list.") % {"name": entry.person.full_name}
        )
    return redirect("bookings:substitutes")


@officer_required
@require_POST
def call(request, pk):
    """E-mail every substitute that tables are short on the day (one press, once)."""
    day = get_object_or_404(ClubDay, pk=pk)
    form = CallForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("bookings:day_list", pk=day.pk)
    try:
        _call, count = news.call_substitutes(
            day,
            key=form.cleaned_data["key"],
            message=form.cleaned_data["message"],
            by=request.user,
            root=root(request),
        )
    except NewsRefused as refusal:
        messages.warning(request, refusal.message)
    else:
        if count:
            messages.success(request, _("E-mailed %(count)s substitutes.") % {"count": count})
        else:
            messages.info(request, _("Nobody new to e-mail: that call went out already."))
    return redirect("bookings:day_list", pk=day.pk)
