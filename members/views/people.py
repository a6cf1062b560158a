"""People: the list (and its CSV download), one person's page, adding and editing,
a guest made a member, logins, and merging two records of the same person."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from clubsite.csvcells import csv_download
from clubsite.params import whole_number
from members.filters import PersonFilter
from members.forms import ConvertGuestForm, MergeForm, PersonForm, SearchForm
from members.models import MergeRecord, Person
from members.permissions import officer_required
from members.services.errors import ConversionRefused, LoginRefused, MergeRefused
from members.services.merge import merge_people, merge_preview
from members.services.people import (
    convert_guest_to_member,
    create_login,
    reset_password,
    save_person,
)
from members.tables import PersonTable
from members.views.common import first_error

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
    """Every person of the list as CSV: text quoted, formulas defused (csv_download)."""
    response, writer = csv_download(f"people-{timezone.localdate().isoformat()}.csv")
    writer.writerow([label for label, _ in CSV_COLUMNS])
    for person in rows:
        values = []
        for _label, name in CSV_COLUMNS:
            value = getattr(person, name)
            if name == "brought_by":
                value = value.full_name if value else ""
            elif name == "joined":
                value = value.isoformat() if value else ""
            values.append(value)
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
        new = save_person(form.instance, by=request.user)
        messages.success(request, _("%(name)s added.") % {"name": new.display_name})
        return redirect("members:person", pk=new.pk)
    return render(request, "members/person_form.html", {"form": form, "person": None})


@officer_required
@require_http_methods(["GET", "POST"])
def person_edit(request, pk):
    person = get_object_or_404(Person.objects.current(), pk=pk)
    form = PersonForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        save_person(form.instance, by=request.user)
        messages.success(request, _("%(name)s: changes saved.") % {"name": person.display_name})
        return redirect("members:person", pk=person.pk)
    return render(request, "members/person_form.html", {"form": form, "person": person})


@officer_required
@require_http_methods(["GET", "POST"])
def person_convert(request, pk):
    person = get_object_or_404(Person.objects.current(), pk=pk)
    if not person.is_guest:
        messages.info(request, _("%(name)s is already a member.") % {"name": person.full_name})
        return redirect("members:person", pk=person.pk)
    form = ConvertGuestForm(
        request.POST or None, initial={"email": person.email, "phone": person.phone}
    )
    if request.method == "POST" and form.is_valid():
        try:
            convert_guest_to_member(person, by=request.user, **form.cleaned_data)
        except ConversionRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(
                request,
                _("%(name)s is now member %(number)s; their visits and games stay with them.")
                % {"name": person.full_name, "number": person.membership_number},
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
            user, password = reset_password(person, by=request.user)
        else:
            user, password = create_login(person, by=request.user)
    except LoginRefused as refusal:
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
                record = merge_people(kept, removed, by=request.user)
            except MergeRefused as refusal:
                messages.warning(request, refusal.message)
            else:
                moved = sum(v for v in record.moved.values() if isinstance(v, int))
                messages.success(
                    request,
                    ngettext(
                        "Merged: %(removed)s (record #%(record)s) is now part of %(kept)s; "
                        "%(moved)s row moved, nothing lost.",
                        "Merged: %(removed)s (record #%(record)s) is now part of %(kept)s; "
                        "%(moved)s rows moved, nothing lost.",
                        moved,
                    )
                    % {
                        "removed": record.removed_snapshot["name"],
                        "record": removed.pk,
                        "kept": kept.full_name,
                        "moved": moved,
                    },
                )
                return redirect("members:person", pk=kept.pk)
        else:
            messages.error(request, first_error(form))
        a, b = request.POST.get("a"), request.POST.get("b")
    else:
        a, b = request.GET.get("a"), request.GET.get("b")
    current = Person.objects.current().with_visits().select_related("brought_by")
    first_pk, second_pk = whole_number(a), whole_number(b)
    first = current.filter(pk=first_pk).first() if first_pk is not None else None
    second = current.filter(pk=second_pk).first() if second_pk is not None else None
    if a and first is None:
        messages.warning(request, _("The first record is gone or was already merged."))
    if first and second and first.pk == second.pk:
        second = None
        messages.warning(request, _("Choose two different records."))
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
        context["moves_if_first"] = merge_preview(first, second)
        context["moves_if_second"] = merge_preview(second, first)
    return render(request, "members/merge.html", context)


def _suggest_keep(first, second):
    """Suggest keeping the member (over a guest), else the one with more visits."""
    if first.is_member != second.is_member:
        return "a" if first.is_member else "b"
    return "a" if first.visits >= second.visits else "b"
