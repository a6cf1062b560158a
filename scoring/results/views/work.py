"""The club's "Background work" page, for its officers: every job the worker has or
had for the club (results e-mails, league workbooks, roster imports, rebuilds,
backups), who asked, when, and how it went; and the buttons that ask for a rebuild of
the totals and ratings or a backup of the club. Another club's jobs are never listed
(every query runs in the request's club)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib import messages
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.jobs.models import ClubJob
from members.jobs.runner import JobRefused, ask
from members.permissions import officer_required
from scoring.models import ResultsMailing, WorkbookExport
from scoring.results.rebuild import ask_for_rebuild
from scoring.results.workbook_tasks import period_of

RECENT = 25  # of each kind


@dataclass
class Entry:
    """One line of the list."""

    what: str
    who: str
    when: object
    state: str  # waiting, running, done, failed: the line's class
    label: str  # the state in words
    reason: str
    url: str


@officer_required
@require_http_methods(["GET", "POST"])
def work_view(request):
    if request.method == "POST":
        return _ask(request)
    entries = sorted(
        [*_club_jobs(), *_workbooks(), *_mailings()], key=lambda e: e.when, reverse=True
    )
    context = {"entries": entries, "key": secrets.token_urlsafe(24)}
    return render(request, "results/work.html", context)


def _ask(request):
    action, key = request.POST.get("action"), request.POST.get("key", "")
    try:
        if action == "rebuild":
            job, new = ask_for_rebuild(key=key, by=request.user)
        elif action == "backup":
            job, new = ask(ClubJob.Kind.BACKUP, key=key, by=request.user, single={})
        else:
            raise JobRefused(_("Choose one of the buttons on this page."))
    except JobRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("scoring:work")
    if not new:
        messages.info(request, _("This was already asked for; here is how it goes."))
    return redirect("members:job", job.pk)


def _user(user) -> str:
    return user.get_username() if user is not None else ""


def _club_jobs():
    states = {"pending": "waiting", "running": "running", "done": "done", "failed": "failed"}
    jobs = ClubJob.objects.select_related("requested_by")[:RECENT]
    for job in jobs:
        yield Entry(
            what=job.get_kind_display(),
            who=_user(job.requested_by),
            when=job.requested_at,
            state=states[job.status],
            label=job.get_status_display(),
            reason=job.error,
            url=reverse("members:job", args=[job.pk]),
        )


def _workbooks():
    states = {"pending": "waiting", "making": "running", "ready": "done", "failed": "failed"}
    exports = WorkbookExport.objects.select_related("requested_by", "season")[:RECENT]
    for export in exports:
        yield Entry(
            what=_("League workbook: %(period)s") % {"period": period_of(export).label},
            who=_user(export.requested_by),
            when=export.requested_at,
            state=states[export.status],
            label=export.get_status_display(),
            reason=_(
                "The workbook could not be made. Ask for it again from the standings; if it "
                "fails again, tell the site's operator."
            )
            if export.status == WorkbookExport.Status.FAILED
            else "",
            url=reverse("scoring:workbook", args=[export.pk]),
        )


def _mailings():
    counted = ResultsMailing.objects.select_related("sent_by", "day").annotate(
        total=Count("messages"),
        sent=Count("messages", filter=Q(messages__status="sent")),
        waiting=Count("messages", filter=Q(messages__status__in=["pending", "sending"])),
        failed=Count("messages", filter=Q(messages__status__in=["failed", "interrupted"])),
    )
    for mailing in counted[:RECENT]:
        counts = {"sent": mailing.sent, "total": mailing.total, "failed": mailing.failed}
        if mailing.waiting:
            state = "running"
            label = _("Sending: %(done)s of %(total)s") % {
                "done": mailing.sent,
                "total": mailing.total,
            }
        elif mailing.failed:
            state = "failed"
            label = _("%(sent)s of %(total)s sent, %(failed)s not sent") % counts
        else:
            state, label = "done", _("%(sent)s of %(total)s sent") % counts
        yield Entry(
            what=_("Results e-mail: %(day)s") % {"day": mailing.day},
            who=_user(mailing.sent_by),
            when=mailing.created_at,
            state=state,
            label=label,
            reason=_("The day's page says why for each member.") if mailing.failed else "",
            url=reverse("scoring:day_mail", args=[mailing.day_id]),
        )
