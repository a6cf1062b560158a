"""The league workbook download (.xlsx) of the period chosen on the standings page:
officers only."""

from __future__ import annotations

import tempfile

from django.contrib import messages
from django.http import FileResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from members.permissions import officer_required
from scoring.results import exports
from scoring.results.filters import StandingsFilter


@officer_required
def league_workbook_view(request):
    """The league workbook (.xlsx) of the period chosen on the standings page."""
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
    period = filterset.period
    # FileResponse closes the file once it is sent (and a TemporaryFile then vanishes).
    handle = tempfile.TemporaryFile(suffix=".xlsx")  # noqa: SIM115
    exports.write_league_workbook(handle, period)
    handle.seek(0)
    return FileResponse(
        handle,
        as_attachment=True,
        filename=f"league-{period.slug}.xlsx",
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
