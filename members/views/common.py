"""What the members pages share: finding the club day of a URL, and a form's first
error as one sentence for a message."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from members.models import ClubDay


def club_day(pk) -> ClubDay:
    return get_object_or_404(ClubDay, pk=pk)


def first_error(form) -> str:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors[0]}" if label else errors[0]
    return gettext("Please check the form.")
