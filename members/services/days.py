"""Club days: open one, close it when play is over, reopen it to correct something."""

from __future__ import annotations

from django.utils import timezone

from members.models import ClubDay
from members.services.errors import DayRefused


def open_day(date, title: str = "") -> ClubDay:
    return ClubDay.objects.create(date=date, title=title.strip(), status=ClubDay.Status.OPEN)


def close_day(day: ClubDay) -> ClubDay:
    if not day.is_open:
        raise DayRefused(f"{day} is already closed.")
    day.status = ClubDay.Status.CLOSED
    day.closed_at = timezone.now()
    day.save(update_fields=["status", "closed_at"])
    return day


def reopen_day(day: ClubDay) -> ClubDay:
    if day.is_open:
        raise DayRefused(f"{day} is already open.")
    day.status = ClubDay.Status.OPEN
    day.closed_at = None
    day.save(update_fields=["status", "closed_at"])
    return day
