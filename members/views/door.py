"""The door: search, tap, signed in; guests added on the spot; a sign-in undone.

Works with and without JavaScript: with htmx, each answer swaps in the message and
redraws the who-is-in list (out of band); without it, a message and a redirect.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render, resolve_url
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from members.forms import GuestForm, SearchForm, SignInForm
from members.models import Person, SignIn
from members.permissions import officer_required
from members.services.door import add_guest, sign_in, undo_sign_in
from members.services.errors import GuestNameTaken, SignInRefused
from members.views.common import club_day, first_error

SEARCH_LIMIT = 12


def door_login_redirect(view):
    """An htmx request whose login ran out: send the whole page to the login form
    (instead of swapping the login page into a corner of the door page)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.htmx and not request.user.is_authenticated:
            return HttpResponseClientRedirect(
                f"{resolve_url(settings.LOGIN_URL)}?next={request.htmx.current_url_abs_path or ''}"
            )
        return view(request, *args, **kwargs)

    return wrapper


def _members_in(day):
    return list(
        Person.objects.current()
        .members()
        .filter(signins__day=day)
        .order_by("first_name", "last_name")
    )


def _door_results(day, query):
    """Search results: (person, sign-in today or None, choices of who they came with)."""
    if not query:
        return []
    people = list(Person.objects.search(query).select_related("brought_by")[:SEARCH_LIMIT])
    signins = {
        s.person_id: s
        for s in SignIn.objects.filter(day=day, person__in=people).select_related("brought_by")
    }
    members_in = None
    results = []
    for person in people:
        came_with = []
        if person.is_guest and person.pk not in signins:
            if members_in is None:
                members_in = _members_in(day)
            came_with = list(members_in)
            usual = person.brought_by
            if usual is not None and usual.is_member and not usual.is_merged:
                if usual not in came_with:
                    came_with.insert(0, usual)
                else:
                    came_with.remove(usual)
                    came_with.insert(0, usual)
        results.append({"person": person, "signin": signins.get(person.pk), "came_with": came_with})
    return results


def _door_list_context(day):
    signins = list(
        day.signins.select_related("person", "brought_by").order_by("-signed_in_at", "-pk")
    )
    guests = sum(1 for s in signins if s.person.is_guest)
    return {"day": day, "signins": signins, "guest_count": guests}


def _door_context(request, day, **extra):
    search = SearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    context = {
        "day": day,
        "search": search,
        "query": query,
        "results": _door_results(day, query),
        "guest_form": extra.pop("guest_form", None) or GuestForm(day=day),
        **_door_list_context(day),
    }
    context.update(extra)
    return context


@door_login_redirect
@officer_required
@require_http_methods(["GET"])
def signin(request, pk):
    """The door: search, tap, signed in. Works with and without JavaScript."""
    day = club_day(pk)
    if request.htmx and request.htmx.target == "results":
        search = SearchForm(request.GET)
        query = search.cleaned_data["q"] if search.is_valid() else ""
        return render(
            request,
            "members/_door_results.html",
            {"day": day, "query": query, "results": _door_results(day, query)},
        )
    return render(request, "members/door.html", _door_context(request, day))


@door_login_redirect
@officer_required
@require_http_methods(["GET"])
def signin_list(request, pk):
    day = club_day(pk)
    return render(request, "members/_door_list.html", _door_list_context(day))


def _door_reply(
    request, day, message, level, *, changed=False, refresh_list=False, guest_form=None, extra=None
):
    """htmx: the message plus out-of-band updates; otherwise a message and a redirect.
    ``changed``: someone signed in or out here (the list, the search and the guest
    panel are redrawn); ``refresh_list``: only the who-is-in list is redrawn (another
    device may have changed it, e.g. "already signed in")."""
    if request.htmx:
        context = {
            "day": day,
            "message": message,
            "level_tag": messages.DEFAULT_TAGS.get(level, "info"),
            "changed": changed,
            "refresh_list": refresh_list and not changed,
            "search": SearchForm(),
            "guest_form": guest_form,
            **(extra or {}),
        }
        if changed or refresh_list:
            context.update(_door_list_context(day))
            if guest_form is None:  # who can bring a guest may have changed
                context["came_with_form"] = GuestForm(day=day)
        return render(request, "members/_door_update.html", context)
    if guest_form is not None and guest_form.is_bound and (guest_form.errors or extra):
        context = _door_context(request, day, guest_form=guest_form, guest_open=True)
        context.update(extra or {})
        messages.add_message(request, level, message)
        return render(request, "members/door.html", context)
    messages.add_message(request, level, message)
    return redirect("members:signin", pk=day.pk)


@door_login_redirect
@officer_required
@require_POST
def signin_person(request, pk):
    day = club_day(pk)
    form = SignInForm(request.POST)
    if not form.is_valid():
        return _door_reply(request, day, first_error(form), messages.ERROR)
    person = form.cleaned_data["person"]
    try:
        record = sign_in(
            day,
            person,
            card_shown=form.cleaned_data["card_shown"],
            brought_by=form.cleaned_data["brought_by"],
            by=request.user,
        )
    except SignInRefused as refusal:
        # Most often "already signed in" by another device: show this one the list.
        return _door_reply(request, day, refusal.message, messages.WARNING, refresh_list=True)
    reset = GuestForm(day=day) if request.POST.get("reset_guest_panel") else None
    return _door_reply(
        request, day, _signed_in_message(record), messages.SUCCESS, changed=True, guest_form=reset
    )


def _signed_in_message(record: SignIn) -> str:
    person = record.person
    text = _("%(name)s signed in.") % {"name": person.full_name}
    if person.is_guest and record.brought_by:
        text = _("%(name)s signed in as the guest of %(member)s.") % {
            "name": person.full_name,
            "member": record.brought_by.full_name,
        }
    elif not record.card_shown:
        text += " " + _("No card shown.")
    if person.is_member and person.is_lapsed:
        text += " " + _("Note: membership lapsed — please mention renewal.")
    return text + " " + _("Next person: type a number or name.")


@door_login_redirect
@officer_required
@require_POST
def signin_guest(request, pk):
    day = club_day(pk)
    form = GuestForm(request.POST, day=day)
    if not form.is_valid():
        return _door_reply(
            request,
            day,
            _("Check the guest form: %(problem)s") % {"problem": first_error(form)},
            messages.ERROR,
            guest_form=form,
        )
    data = form.cleaned_data
    try:
        record = add_guest(
            day,
            data["first_name"],
            data["last_name"],
            data["member"],
            allow_same_name=data["allow_same_name"],
            by=request.user,
        )
    except GuestNameTaken as refusal:
        return _door_reply(
            request,
            day,
            refusal.message,
            messages.WARNING,
            guest_form=form,
            extra={"same_name": refusal.existing, "member": data["member"]},
        )
    except SignInRefused as refusal:
        return _door_reply(request, day, refusal.message, messages.WARNING, guest_form=form)
    return _door_reply(
        request,
        day,
        _("New guest %(name)s signed in with %(member)s.")
        % {"name": record.person.full_name, "member": record.brought_by.full_name}
        + " "
        + _("Next person: type a number or name."),
        messages.SUCCESS,
        changed=True,
        guest_form=GuestForm(day=day),
    )


@door_login_redirect
@officer_required
@require_POST
def signin_undo(request, pk, signin_pk):
    day = club_day(pk)
    record = SignIn.objects.filter(day=day, pk=signin_pk).select_related("person").first()
    if record is None:
        return _door_reply(
            request, day, _("That sign-in was already undone."), messages.INFO, changed=True
        )
    try:
        message = undo_sign_in(record, by=request.user)
    except SignInRefused as refusal:
        return _door_reply(request, day, refusal.message, messages.WARNING)
    return _door_reply(request, day, message, messages.SUCCESS, changed=True)
