"""The roster import page: upload, preview (nothing saved), confirm (saved by the
background worker).

The file is read once; the preview keeps what was read in the session under a token,
so confirming saves exactly what the officer saw, without uploading again. Confirming
asks for a job (:mod:`members.jobs`) keyed by that token and leads to its page, which
says it is being applied and then what was done: a second press, a reload or a
retried POST finds the same job and applies nothing twice.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.forms import DateOrderForm, RosterUploadForm
from members.jobs.models import ClubJob
from members.jobs.runner import JobRefused, ask
from members.permissions import officer_required
from members.roster.plan import plan_import
from members.roster.read import Roster, RosterError, read_roster

IMPORT_SESSION_KEY = "members_roster_import"


@officer_required
@require_http_methods(["GET", "POST"])
def roster_import(request):
    """Upload → preview (nothing saved) → confirm (saved), without uploading again.
    From the preview, the file's dates can be read again the other way."""
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _import_confirm(request)
    if request.method == "POST" and request.POST.get("action") == "dates":
        return _reread_dates(request)
    if request.method == "POST" and request.POST.get("action") == "cancel":
        request.session.pop(IMPORT_SESSION_KEY, None)
        messages.info(request, _("Import cancelled; nothing was saved."))
        return redirect("members:import")
    form = RosterUploadForm(request.POST or None, request.FILES or None)
    context = {"form": form}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            roster = read_roster(
                upload.name, upload.read(), date_order=form.cleaned_data["date_order"]
            )
        except RosterError as error:
            context["roster_error"] = str(error)
            return render(request, "members/import.html", context)
        context.update(_preview(request, roster))
    return render(request, "members/import.html", context)


def _preview(request, roster: Roster) -> dict:
    """Plan the import (nothing saved) and keep what was read under a new token."""
    plan = plan_import(roster.rows)
    plan.refused, plan.duplicates = roster.refused, roster.duplicates
    plan.replaced = roster.replaced
    token = secrets.token_urlsafe(16)
    request.session[IMPORT_SESSION_KEY] = {"token": token, "roster": roster.to_json()}
    date_form = DateOrderForm(prefix="dates", initial={"date_order": roster.dates.order})
    return {"roster": roster, "plan": plan, "token": token, "date_form": date_form}


def _stored_roster(request) -> Roster | None:
    stored = request.session.get(IMPORT_SESSION_KEY)
    if not stored or stored.get("token") != request.POST.get("token"):
        messages.warning(
            request,
            _(
                "This preview has expired or was already imported. Upload the file again to "
                "see a fresh preview."
            ),
        )
        return None
    return Roster.from_json(stored["roster"])


def _reread_dates(request):
    """The preview again, the file's dates read in the order the officer chose."""
    roster = _stored_roster(request)
    if roster is None:
        return redirect("members:import")
    form = DateOrderForm(request.POST, prefix="dates")
    if form.is_valid():
        roster.reread(form.cleaned_data["date_order"])
    context = {"form": RosterUploadForm(), **_preview(request, roster)}
    return render(request, "members/import.html", context)


def _import_confirm(request):
    token = request.POST.get("token", "")
    done = ClubJob.objects.filter(kind=ClubJob.Kind.ROSTER, key=token).first() if token else None
    if done is not None:  # the same press again: its job says what happened
        messages.info(request, _("This roster was already confirmed; here is how its import went."))
        return redirect("members:job", done.pk)
    roster = _stored_roster(request)
    if roster is None:
        return redirect("members:import")
    try:
        job, _new = ask(
            ClubJob.Kind.ROSTER,
            key=token,
            by=request.user,
            payload={"roster": roster.to_json()},
        )
    except JobRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("members:import")
    request.session.pop(IMPORT_SESSION_KEY, None)
    return redirect("members:job", job.pk)
