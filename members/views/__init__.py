"""Pages for people, club days, the door and seating. Thin: parse, check, call a
service, render. Every page but "My page" is for officers."""

from __future__ import annotations

import csv
import secrets
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_tables2 import RequestConfig

from clubsite.csvcells import escape_cell
from clubsite.params import whole_number
from members import draw as seating
from members import services
from members.filters import PersonFilter
from members.forms import (
    ConvertGuestForm,
    DayForm,
    DrawForm,
    GuestForm,
    MergeForm,
    MoveForm,
    PersonForm,
    RosterUploadForm,
    SearchForm,
    SignInForm,
    SwapForm,
)
from members.models import ClubDay, MergeRecord, Person, Round, Seat, SignIn
from members.permissions import officer_required, person_for
from members.roster.plan import apply_import, plan_import
from members.roster.read import Roster, RosterError, read_roster
from members.tables import PersonTable

SEARCH_LIMIT = 12
IMPORT_SESSION_KEY = "members_roster_import"
IMPORT_RESULT_KEY = "members_roster_import_result"


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


def _day(pk) -> ClubDay:
    return get_object_or_404(ClubDay, pk=pk)


def _first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else errors[0]
    return "Please check the form."


# --------------------------------------------------------------------------- club days


@officer_required
@require_http_methods(["GET", "POST"])
def days(request):
    form = DayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        same_date = ClubDay.objects.filter(date=form.cleaned_data["date"]).exists()
        day = services.open_day(form.cleaned_data["date"], form.cleaned_data["title"])
        messages.success(request, f"{day} is open. Sign people in at the door.")
        if same_date:
            messages.warning(request, "Note: another club day has the same date.")
        return redirect("members:day", pk=day.pk)
    page = Paginator(ClubDay.objects.with_counts().order_by("-date", "-pk"), 30).get_page(
        request.GET.get("page")
    )
    return render(request, "members/days.html", {"form": form, "page": page})


@officer_required
@require_http_methods(["GET", "POST"])
def day(request, pk):
    day = _day(pk)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "close":
                services.close_day(day)
                messages.success(request, f"{day} is closed. Nobody more can sign in.")
            elif action == "reopen":
                services.reopen_day(day)
                messages.success(request, f"{day} is open again.")
            else:
                messages.error(request, "Unknown action.")
        except services.DayRefused as refusal:
            messages.warning(request, refusal.message)
        return redirect("members:day", pk=day.pk)
    counts = day.signins.aggregate(
        total=Count("pk"), guests=Count("pk", filter=Q(person__kind=Person.Kind.GUEST))
    )
    rounds = day.rounds.annotate(
        tables_count=Count("tables", distinct=True), seated=Count("seats", distinct=True)
    ).order_by("number")
    return render(request, "members/day.html", {"day": day, "counts": counts, "rounds": rounds})


# --------------------------------------------------------------------------- the door


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
    day = _day(pk)
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
    day = _day(pk)
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
    day = _day(pk)
    form = SignInForm(request.POST)
    if not form.is_valid():
        return _door_reply(request, day, _first_error(form), messages.ERROR)
    person = form.cleaned_data["person"]
    try:
        record = services.sign_in(
            day,
            person,
            card_shown=form.cleaned_data["card_shown"],
            brought_by=form.cleaned_data["brought_by"],
            by=request.user,
        )
    except services.SignInRefused as refusal:
        # Most often "already signed in" by another device: show this one the list.
        return _door_reply(request, day, refusal.message, messages.WARNING, refresh_list=True)
    reset = GuestForm(day=day) if request.POST.get("reset_guest_panel") else None
    return _door_reply(
        request, day, _signed_in_message(record), messages.SUCCESS, changed=True, guest_form=reset
    )


def _signed_in_message(record: SignIn) -> str:
    person = record.person
    text = f"{person.full_name} signed in."
    if person.is_guest and record.brought_by:
        text = f"{person.full_name} signed in as the guest of {record.brought_by.full_name}."
    elif not record.card_shown:
        text += " No card shown."
    if person.is_member and person.is_lapsed:
        text += " Note: membership lapsed — please mention renewal."
    return text + " Next person: type a number or name."


@door_login_redirect
@officer_required
@require_POST
def signin_guest(request, pk):
    day = _day(pk)
    form = GuestForm(request.POST, day=day)
    if not form.is_valid():
        return _door_reply(
            request,
            day,
            "Check the guest form: " + _first_error(form),
            messages.ERROR,
            guest_form=form,
        )
    data = form.cleaned_data
    try:
        record = services.add_guest(
            day,
            data["first_name"],
            data["last_name"],
            data["member"],
            allow_same_name=data["allow_same_name"],
            by=request.user,
        )
    except services.GuestNameTaken as refusal:
        return _door_reply(
            request,
            day,
            refusal.message,
            messages.WARNING,
            guest_form=form,
            extra={"same_name": refusal.existing, "member": data["member"]},
        )
    except services.SignInRefused as refusal:
        return _door_reply(request, day, refusal.message, messages.WARNING, guest_form=form)
    return _door_reply(
        request,
        day,
        f"New guest {record.person.full_name} signed in with {record.brought_by.full_name}. "
        "Next person: type a number or name.",
        messages.SUCCESS,
        changed=True,
        guest_form=GuestForm(day=day),
    )


@door_login_redirect
@officer_required
@require_POST
def signin_undo(request, pk, signin_pk):
    day = _day(pk)
    record = SignIn.objects.filter(day=day, pk=signin_pk).select_related("person").first()
    if record is None:
        return _door_reply(
            request, day, "That sign-in was already undone.", messages.INFO, changed=True
        )
    try:
        message = services.undo_sign_in(record, by=request.user)
    except services.SignInRefused as refusal:
        return _door_reply(request, day, refusal.message, messages.WARNING)
    return _door_reply(request, day, message, messages.SUCCESS, changed=True)


# --------------------------------------------------------------------------- seating


def _round(day, number):
    number = whole_number(number, digits=4)
    if number is None:
        return services.current_round(day)
    return get_object_or_404(Round, day=day, number=number)


@officer_required
@require_http_methods(["GET"])
def seating_page(request, pk):
    day = _day(pk)
    round_ = _round(day, request.GET.get("round"))
    latest = services.current_round(day)
    count = day.signins.filter(person__merged_into__isnull=True).count()
    options = [
        (choice, label, seating.describe(count, choice))
        for choice, label in DrawForm.base_fields["remainder"].choices
    ]
    tables = services.seat_map(round_) if round_ else []
    unseated = services.not_seated(round_, day)
    people = list(
        Person.objects.filter(signins__day=day, merged_into__isnull=True).order_by(
            "first_name", "last_name"
        )
    )
    movable = round_ is not None and not round_.started and round_ == latest
    context = {
        "day": day,
        "round": round_,
        "latest": latest,
        "rounds": list(day.rounds.order_by("number")),
        "count": count,
        "options": options,
        "draw_form": DrawForm(initial={"remainder": _default_remainder(latest, count)}),
        "tables": tables,
        "unseated": unseated,
        "movable": movable,
        "move_form": MoveForm(people=people, table_numbers=[t.number for t, _ in tables]),
        "swap_form": SwapForm(people=people),
        "seated_count": sum(len(seats) for _, seats in tables),
    }
    return render(request, "members/seating.html", context)


def _default_remainder(latest, count):
    """The choice made last time, or three-player tables, unless impossible now."""
    choice = (latest.remainder if latest else "") or seating.THREES
    try:
        seating.table_sizes(count, choice)
    except seating.SeatingImpossible:
        return seating.SIT_OUT
    return choice


def _seating_redirect(day, round_=None):
    url = reverse("members:seating", args=[day.pk])
    if round_ is not None:
        url += f"?round={round_.number}"
    return redirect(url)


@officer_required
@require_POST
def seating_draw(request, pk):
    day = _day(pk)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose what to do when the count is not a multiple of four.")
        return _seating_redirect(day)
    try:
        result = services.draw_round(day, form.cleaned_data["remainder"], by=request.user)
    except services.SeatingRefused as refusal:
        messages.warning(request, refusal.message)
        return _seating_redirect(day)
    verb = "drawn again" if result.redrawn else "drawn"
    tables = result.round.tables.count()
    text = f"Round {result.round.number} {verb}: {seating.plural(tables, 'table')}."
    if result.sitting_out:
        names = ", ".join(p.full_name for p in result.sitting_out)
        text += f" Sitting out: {names}."
    text += " Read the tables out, or show the screen view. Press “Start play” when ready."
    messages.success(request, text)
    return _seating_redirect(day, result.round)


def _posted_round(request, day):
    number = whole_number(request.POST.get("round"), digits=4, default=0)
    return get_object_or_404(Round, day=day, number=number)


@officer_required
@require_POST
def seating_start(request, pk):
    day = _day(pk)
    round_ = _posted_round(request, day)
    try:
        services.start_round(round_)
        messages.success(request, f"Round {round_.number} has started: the seats are fixed.")
    except services.SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


def _round_people(day):
    return list(Person.objects.filter(signins__day=day, merged_into__isnull=True))


@officer_required
@require_POST
def seating_move(request, pk):
    day = _day(pk)
    round_ = _posted_round(request, day)
    numbers = list(round_.tables.values_list("number", flat=True))
    form = MoveForm(request.POST, people=_round_people(day), table_numbers=numbers)
    if not form.is_valid() or form.cleaned_data.get("person_obj") is None:
        messages.error(request, "To move someone: " + _first_error(form))
        return _seating_redirect(day, round_)
    data = form.cleaned_data
    try:
        text = services.move_seat(
            round_, data["person_obj"], data["table_number"], data["position_number"]
        )
        messages.success(request, text)
    except services.SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


@officer_required
@require_POST
def seating_swap(request, pk):
    day = _day(pk)
    round_ = _posted_round(request, day)
    form = SwapForm(request.POST, people=_round_people(day))
    if not form.is_valid():
        messages.error(request, "To swap two people: " + _first_error(form))
        return _seating_redirect(day, round_)
    try:
        text = services.swap_seats(
            round_, form.cleaned_data["first_obj"], form.cleaned_data["second_obj"]
        )
        messages.success(request, text)
    except services.SeatingRefused as refusal:
        messages.warning(request, refusal.message)
    return _seating_redirect(day, round_)


@officer_required
@require_http_methods(["GET"])
def seating_display(request, pk):
    """Big type for a screen: table number, then names. Refreshes itself."""
    day = _day(pk)
    round_ = _round(day, request.GET.get("round"))
    tables = services.seat_map(round_) if round_ else []
    unseated = services.not_seated(round_, day) if round_ else []
    return render(
        request,
        "members/seating_display.html",
        {"day": day, "round": round_, "tables": tables, "unseated": unseated},
    )


# --------------------------------------------------------------------------- people


CSV_COLUMNS = [
    ("Membership number", "membership_number"),
    ("First name", "first_name"),
    ("Last name", "last_name"),
    ("Kind", "kind"),
    ("Status", "status"),
    ("Email", "email"),
    ("Phone", "phone"),
    ("Joined", "joined"),
    ("Visits", "visits"),
    ("Brought by", "brought_by"),
    ("Notes", "notes"),
]


@officer_required
@require_http_methods(["GET"])
def people(request):
    queryset = Person.objects.current().with_visits().select_related("brought_by")
    filterset = PersonFilter(request.GET or None, queryset=queryset)
    rows = filterset.qs if filterset.is_bound and filterset.is_valid() else queryset
    if request.GET.get("format") == "csv":
        return _people_csv(rows.order_by("last_name", "first_name", "pk"))
    table = PersonTable(rows)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    query = request.GET.copy()
    query.pop("page", None)
    query["format"] = "csv"
    return render(
        request,
        "members/people.html",
        {"table": table, "filter": filterset, "csv_query": query.urlencode()},
    )


def _people_csv(rows):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="people-{stamp}.csv"'
    response.write("\ufeff")  # so that spreadsheet programs read UTF-8
    writer = csv.writer(response)
    writer.writerow([label for label, _ in CSV_COLUMNS])
    for person in rows:
        values = []
        for _label, name in CSV_COLUMNS:
            value = getattr(person, name)
            if name == "brought_by":
                value = value.full_name if value else ""
            elif name == "joined":
                value = value.isoformat() if value else ""
            values.append(escape_cell(value))
        writer.writerow(values)
    return response


@officer_required
@require_http_methods(["GET"])
def person(request, pk):
    person = get_object_or_404(
        Person.objects.with_visits().select_related("brought_by", "merged_into", "user"), pk=pk
    )
    signins = person.signins.select_related("day", "brought_by").order_by("-day__date", "-pk")[:50]
    guests = (
        Person.objects.current().guests().filter(brought_by=person).with_visits()
        if person.is_member
        else []
    )
    merges = MergeRecord.objects.filter(Q(kept=person) | Q(removed=person)).select_related(
        "kept", "removed", "merged_by"
    )
    return render(
        request,
        "members/person.html",
        {"person": person, "signins": signins, "guests": guests, "merges": merges},
    )


@officer_required
@require_http_methods(["GET", "POST"])
def person_new(request):
    initial = {"kind": request.GET.get("kind") or Person.Kind.MEMBER}
    form = PersonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        new = form.save()
        messages.success(request, f"{new.display_name} added.")
        return redirect("members:person", pk=new.pk)
    return render(request, "members/person_form.html", {"form": form, "person": None})


@officer_required
@require_http_methods(["GET", "POST"])
def person_edit(request, pk):
    person = get_object_or_404(Person.objects.current(), pk=pk)
    form = PersonForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, f"{person.display_name}: changes saved.")
        return redirect("members:person", pk=person.pk)
    return render(request, "members/person_form.html", {"form": form, "person": person})


@officer_required
@require_http_methods(["GET", "POST"])
def person_convert(request, pk):
    person = get_object_or_404(Person.objects.current(), pk=pk)
    if not person.is_guest:
        messages.info(request, f"{person.full_name} is already a member.")
        return redirect("members:person", pk=person.pk)
    form = ConvertGuestForm(
        request.POST or None, initial={"email": person.email, "phone": person.phone}
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.convert_guest_to_member(person, by=request.user, **form.cleaned_data)
        except services.ConversionRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(
                request,
                f"{person.full_name} is now member {person.membership_number}; "
                "their visits and games stay with them.",
            )
            return redirect("members:person", pk=person.pk)
    return render(request, "members/person_convert.html", {"form": form, "person": person})


@never_cache
@officer_required
@require_POST
def person_login(request, pk):
    """Create a login (or a new temporary password); the password is shown once."""
    person = get_object_or_404(Person.objects.current().select_related("user"), pk=pk)
    try:
        if request.POST.get("action") == "reset":
            user, password = services.reset_password(person, by=request.user)
        else:
            user, password = services.create_login(person, by=request.user)
    except services.LoginRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("members:person", pk=person.pk)
    return render(
        request,
        "members/login_created.html",
        {"person": person, "login": user, "password": password},
    )


@officer_required
@require_http_methods(["GET", "POST"])
def merge(request):
    """Merge two records of the same person: choose the second record, compare, keep one."""
    if request.method == "POST":
        form = MergeForm(request.POST)
        if form.is_valid():
            kept, removed = form.cleaned_data["kept"], form.cleaned_data["removed"]
            try:
                record = services.merge_people(kept, removed, by=request.user)
            except services.MergeRefused as refusal:
                messages.warning(request, refusal.message)
            else:
                moved = sum(v for v in record.moved.values() if isinstance(v, int))
                messages.success(
                    request,
                    f"Merged: {record.removed_snapshot['name']} (record #{removed.pk}) is now "
                    f"part of {kept.full_name}; {moved} row(s) moved, nothing lost.",
                )
                return redirect("members:person", pk=kept.pk)
        else:
            messages.error(request, _first_error(form))
        a, b = request.POST.get("a"), request.POST.get("b")
    else:
        a, b = request.GET.get("a"), request.GET.get("b")
    current = Person.objects.current().with_visits().select_related("brought_by")
    first_pk, second_pk = whole_number(a), whole_number(b)
    first = current.filter(pk=first_pk).first() if first_pk is not None else None
    second = current.filter(pk=second_pk).first() if second_pk is not None else None
    if a and first is None:
        messages.warning(request, "The first record is gone or was already merged.")
    if first and second and first.pk == second.pk:
        second = None
        messages.warning(request, "Choose two different records.")
    search = SearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    candidates = []
    if query:
        candidates = list(current.search(query).exclude(pk=first.pk if first else None)[:20])
    context = {
        "first": first,
        "second": second,
        "search": search,
        "query": query,
        "candidates": candidates,
    }
    if first and second:
        context["form"] = MergeForm(
            initial={"a": first.pk, "b": second.pk, "keep": _suggest_keep(first, second)}
        )
        # Keeping the first moves the second's rows, and the other way round.
        context["moves_if_first"] = services.merge_preview(first, second)
        context["moves_if_second"] = services.merge_preview(second, first)
    return render(request, "members/merge.html", context)


def _suggest_keep(first, second):
    """Suggest keeping the member (over a guest), else the one with more visits."""
    if first.is_member != second.is_member:
        return "a" if first.is_member else "b"
    return "a" if first.visits >= second.visits else "b"


# --------------------------------------------------------------------------- import


@officer_required
@require_http_methods(["GET", "POST"])
def roster_import(request):
    """Upload → preview (nothing saved) → confirm (saved), without uploading again."""
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _import_confirm(request)
    if request.method == "POST" and request.POST.get("action") == "cancel":
        request.session.pop(IMPORT_SESSION_KEY, None)
        messages.info(request, "Import cancelled; nothing was saved.")
        return redirect("members:import")
    result = request.session.pop(IMPORT_RESULT_KEY, None) if request.method == "GET" else None
    form = RosterUploadForm(request.POST or None, request.FILES or None)
    context = {"form": form, "result": result}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            roster = read_roster(
                upload.name, upload.read(), date_order=form.cleaned_data["date_order"]
            )
        except RosterError as error:
            context["roster_error"] = str(error)
            return render(request, "members/import.html", context)
        plan = plan_import(roster.rows)
        plan.refused, plan.duplicates = roster.refused, roster.duplicates
        token = secrets.token_urlsafe(16)
        request.session[IMPORT_SESSION_KEY] = {"token": token, "roster": roster.to_json()}
        context.update({"roster": roster, "plan": plan, "token": token})
    return render(request, "members/import.html", context)


def _import_confirm(request):
    stored = request.session.get(IMPORT_SESSION_KEY)
    if not stored or stored.get("token") != request.POST.get("token"):
        messages.warning(
            request,
            "This preview has expired or was already imported. Upload the file again to see "
            "a fresh preview.",
        )
        return redirect("members:import")
    roster = Roster.from_json(stored["roster"])
    plan = apply_import(roster, by=request.user)
    request.session.pop(IMPORT_SESSION_KEY, None)
    request.session[IMPORT_RESULT_KEY] = {
        "filename": roster.filename,
        "summary": plan.summary(),
        "refused": [{"line": r.line, "reason": r.reason} for r in plan.refused],
    }
    messages.success(request, f"Roster imported: {plan.summary()}.")
    return redirect("members:import")


# --------------------------------------------------------------------------- my page


@login_required
@require_http_methods(["GET"])
def me(request):
    """A member's own page: their details and their club days. Nobody else's."""
    person = person_for(request.user)
    if person is not None and person.is_merged:
        person = person.merged_into
    if person is None:
        return render(request, "members/me_no_person.html")
    person = Person.objects.with_visits().get(pk=person.pk)
    signins = person.signins.select_related("day").order_by("-day__date")[:30]
    seats = (
        Seat.objects.filter(person=person)
        .select_related("round__day", "table")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("person")))
        .order_by("-round__day__date", "-round__number")[:10]
    )
    tables = [
        (seat, [s.person.full_name for s in seat.table.seats.all() if s.person_id != person.pk])
        for seat in seats
    ]
    return render(
        request, "members/me.html", {"person": person, "signins": signins, "tables": tables}
    )
