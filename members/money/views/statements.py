"""Statements: send a period's statements (once per press), see what the worker did,
print the copies of members without e-mail."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from members.money.access import treasurer_required
from members.money.forms import PeriodForm
from members.money.models import StatementMessage, StatementRun
from members.money.services.errors import MoneyRefused
from members.money.services.reads import statement_for
from members.money.services.statements import send_statements
from members.money.views.common import first_error


def _last_month():
    first = timezone.localdate().replace(day=1)
    end = first - datetime.timedelta(days=1)
    return end.replace(day=1), end


@treasurer_required
@require_http_methods(["GET", "POST"])
def statements(request):
    if request.method == "POST":
        form = PeriodForm(request.POST)
        if not form.is_valid():
            messages.error(request, first_error(form))
            return redirect("money:statements")
        data = form.cleaned_data
        try:
            run, new = send_statements(data["start"], data["end"], key=data["key"], by=request.user)
        except MoneyRefused as refusal:
            messages.error(request, refusal.message)
            return redirect("money:statements")
        if new:
            messages.success(request, _("Statements started: the worker e-mails them now."))
        else:
            messages.info(
                request, _("These statements were started already; nothing was sent twice.")
            )
        return redirect("money:statement_run", run.pk)
    start, end = _last_month()
    return render(
        request,
        "money/statements.html",
        {
            "form": PeriodForm(initial={"start": start, "end": end}),
            "runs": StatementRun.objects.all()[:12],
        },
    )


@treasurer_required
@require_GET
def statement_run(request, pk):
    run = get_object_or_404(StatementRun, pk=pk)
    counts = dict(run.messages.values_list("status").annotate(n=Count("pk")).order_by())
    labels = dict(StatementMessage.Status.choices)
    return render(
        request,
        "money/statement_run.html",
        {
            "run": run,
            "counts": [(labels[s], counts.get(s, 0)) for s in labels],
            "to_print": counts.get(StatementMessage.Status.PRINT, 0),
        },
    )


@treasurer_required
@require_GET
def statement_print(request, pk):
    run = get_object_or_404(StatementRun, pk=pk)
    people = [
        m.person
        for m in run.messages.filter(status=StatementMessage.Status.PRINT).select_related("person")
    ]
    return render(
        request,
        "money/statement_print.html",
        {"run": run, "statements": [statement_for(p, run.start, run.end) for p in people]},
    )
