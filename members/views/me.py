"""A member's own page: their details, their club days and their recent tables."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Max, OuterRef, Subquery, Sum
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.clubs import languages
from members.models import Person, Seat
from members.permissions import own_person
from members.services.mailing import MailChoiceRefused, set_results_by_email
from members.services.people import set_language

#: How long the lists of a member's own page are kept drawn (the shared cache): a
#: sign-in or seat of theirs added, taken away or moved shows at once (it changes their
#: stamp); a club day renamed, or a name corrected at one of their tables, within this
#: many seconds.
LISTS_SECONDS = 300


@login_required
@require_http_methods(["GET"])
def me(request):
    """A member's own page: their details and their club days. Nobody else's.

    The lists (their last thirty club days, their last ten tables with who sat there)
    are kept drawn in the shared cache under a stamp of their sign-ins and seats (how
    many, and the newest), read with their details in one query: a page drawn again
    reads no sign-in, seat or name."""
    people = _with_stamp(Person.objects.with_visits())
    person = own_person(request.user, people)
    if person is None:
        return render(request, "members/me_no_person.html")
    if not hasattr(person, "seat_tables"):  # read before (or a merge's kept record): again
        person = people.get(pk=person.pk)
    club = languages.club_language(request)
    return render(
        request,
        "members/me.html",
        {
            "person": person,
            "signins": person.signins.select_related("day").order_by("-day__date")[:30],
            "tables": lambda: _recent_tables(person),
            "lists_stamp": f"{person.visits}.{person.last_signin}.{person.seat_tables}"
            f".{person.last_seat}",
            "lists_seconds": LISTS_SECONDS,
            "language_choices": settings.LANGUAGES,
            "club_language_name": languages.language_name(club),
        },
    )


def _with_stamp(people):
    """People with what their own page's lists are kept under: their newest sign-in
    (``last_signin``, beside ``visits``), their newest seat and the sum of their seats'
    tables (``seat_tables``: a seat added, taken away or moved to another table changes
    it; a member has one seat a round)."""
    seats = Seat.objects.filter(person=OuterRef("pk")).order_by().values("person")
    return people.annotate(
        last_signin=Max("signins__pk"),
        seat_tables=Subquery(seats.annotate(tables=Sum("table_id")).values("tables")),
        last_seat=Subquery(seats.annotate(last=Max("pk")).values("last")),
    )


def _recent_tables(person) -> list:
    """The member's last ten tables, each with the names of the others seated there
    (their names only, in one query: no Person objects)."""
    seats = list(
        Seat.objects.filter(person=person)
        .select_related("round__day", "table")
        .order_by("-round__day__date", "-round__number")[:10]
    )
    others = defaultdict(list)
    at_tables = Seat.objects.filter(table_id__in=[seat.table_id for seat in seats])
    for table, first, last in (
        at_tables.exclude(person_id=person.pk)
        .order_by("table_id", "position")
        .values_list("table_id", "person__first_name", "person__last_name")
    ):
        others[table].append(f"{first} {last}".strip())
    return [(seat, others[seat.table_id]) for seat in seats]


@login_required
@require_http_methods(["POST"])
def me_results_mail(request):
    """Switch the results e-mail on or off for the logged-in member (their own only)."""
    person = own_person(request.user)
    if person is None:
        return render(request, "members/me_no_person.html", status=404)
    wanted = request.POST.get("results_by_email") == "on"
    try:
        set_results_by_email(person, wanted)
    except MailChoiceRefused as refusal:
        messages.warning(request, refusal.message)
        return redirect("members:me")
    if wanted:
        messages.success(
            request,
            _("Each club day's results will be e-mailed to %(email)s.") % {"email": person.email},
        )
    else:
        messages.success(request, _("You will no longer get the club days' results by e-mail."))
    return redirect("members:me")


@login_required
@require_http_methods(["POST"])
def me_language(request):
    """A member's own language (their own only): the site in it on every phone they log
    in on; empty for the club's language."""
    person = own_person(request.user)
    if person is None:
        return render(request, "members/me_no_person.html", status=404)
    code = languages.valid(request.POST.get("language")) or ""
    set_language(person, code)
    languages.remember_member_language(request, code)
    translation.activate(languages.language_for(request))  # the message in the new language
    messages.success(request, _("Saved: the site speaks your language now."))
    return redirect("members:me")
