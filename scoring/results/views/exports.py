"""The league workbook (.xlsx) of the period chosen on the standings page, made by the
worker (:mod:`scoring.results.workbook_tasks`): officers only, each club's own."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from members.permissions import officer_required
from scoring.models import WorkbookExport
from scoring.results.filters import StandingsFilter
from scoring.results.workbook_tasks import ask_for_workbook, period_of, storage

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@officer_required
@require_GET
def league_workbook_view(request):
    """Ask for the workbook of the period chosen on the standings page: the file itself
    when a current one is ready, else the page that shows it being made."""
    filterset = StandingsFilter.for_request(request.GET)
    if not filterset.is_valid():
        messages.error(
            request,
            _("The workbook could not be made: %(problems)s")
            % {
                "problems": " ".join(str(e) for errors in filterset.errors.values() for e in errors)
            },
        )
        return redirect(reverse("scoring:standings"))
    export = ask_for_workbook(filterset.period, request.user, translation.get_language())
    if export.status == WorkbookExport.Status.READY:
        return _file(export)
    return redirect("scoring:workbook", export.pk)


@officer_required
@require_GET
def workbook_view(request, pk):
    """Where an asked-for workbook has got; while it is waiting or being made, the part
    that says so reloads itself (htmx), and the download button comes when it is ready."""
    export = get_object_or_404(WorkbookExport.objects.select_related("season"), pk=pk)
    stale = timezone.now() - datetime.timedelta(minutes=settings.TASKS_STUCK_MINUTES)
    since = export.started_at if export.status == "making" else export.requested_at
    context = {
        "export": export,
        "period": period_of(export),
        "working": export.status in ("pending", "making"),
        "stuck": export.status in ("pending", "making") and since < stale,
        "keep_hours": settings.EXPORTS_KEEP_HOURS,
    }
    template = "results/_workbook_status.html" if request.htmx else "results/workbook.html"
    return render(request, template, context)


@officer_required
@require_GET
def workbook_file_view(request, pk):
    """The ready workbook's file (404 while it is not, or once it is deleted)."""
    export = get_object_or_404(WorkbookExport, pk=pk, status=WorkbookExport.Status.READY)
    return _file(export)


def _file(export: WorkbookExport) -> FileResponse:
    try:
        handle = storage().open(export.file_name, "rb")
    except FileNotFoundError:
        raise Http404("The workbook's file is gone.") from None
    name = f"league-{period_of(export).slug}.xlsx"
    return FileResponse(handle, as_attachment=True, filename=name, content_type=XLSX)
