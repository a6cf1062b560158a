"""A bank statement's CSV: upload, preview (what matches, what does not, nothing
written), confirm (every matched line at once, once)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from members.money.access import treasurer_required
from members.money.bank import MAX_BANK_BYTES
from members.money.forms import UploadForm
from members.money.models import BankImport, MoneySettings
from members.money.services.errors import MoneyRefused
from members.money.services.imports import Preview, confirm_import, preview_import
from members.money.views.common import first_error

SESSION_KEY = "money_bank_preview"


def _session_key(request) -> str:
    return f"{SESSION_KEY}:{request.club.pk}"


@treasurer_required
@require_http_methods(["GET", "POST"])
def upload(request):
    club = MoneySettings.current()
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            upload = form.cleaned_data["file"]
            try:
                if upload.size > MAX_BANK_BYTES:
                    data = upload.read(MAX_BANK_BYTES + 1)  # refused by its size, unread
                else:
                    data = upload.read()
                preview = preview_import(upload.name, data)
            except MoneyRefused as refusal:
                messages.error(request, refusal.message)
            else:
                request.session[_session_key(request)] = preview.to_json()
                return redirect("money:import_preview")
    return render(
        request,
        "money/import.html",
        {"form": form, "club": club, "imports": BankImport.objects.all()[:10]},
    )


@treasurer_required
@require_http_methods(["GET"])
def preview(request):
    data = request.session.get(_session_key(request))
    if not data:
        messages.info(request, _("Upload the bank's file first."))
        return redirect("money:import")
    found = Preview.from_json(data)
    return render(
        request,
        "money/import_preview.html",
        {"preview": found, "currency": MoneySettings.current().currency},
    )


@treasurer_required
@require_POST
def confirm(request):
    data = request.session.get(_session_key(request))
    if not data or data.get("file_hash") != request.POST.get("file_hash"):
        done = BankImport.objects.filter(file_hash=request.POST.get("file_hash", "")).first()
        if done is not None:
            messages.info(request, _("This file was imported already; nothing was added."))
        else:
            messages.error(request, _("This preview is out of date. Upload the file again."))
        return redirect("money:import")
    try:
        chosen = request.POST.getlist("line") if request.POST.get("choosing") else None
        record, new = confirm_import(Preview.from_json(data), by=request.user, lines=chosen)
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
        return redirect("money:import_preview")
    if new:
        messages.success(
            request,
            ngettext(
                "%(count)s payment imported (%(total)s).",
                "%(count)s payments imported (%(total)s).",
                record.lines,
            )
            % {"count": record.lines, "total": record.total},
        )
    else:
        messages.info(request, _("This file was imported already; nothing was added."))
    request.session.pop(_session_key(request), None)
    return redirect("money:balances")
