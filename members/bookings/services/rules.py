"""A club's booking rules: its settings (made on demand), when a day's play starts and
when its cut-off for cancelling is."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from members.bookings.models import BookingSettings
from members.clubs.scope import current_club
from members.models import ClubDay


def booking_settings() -> BookingSettings:
    """The active club's booking settings, made with the defaults the first time."""
    found = BookingSettings.objects.first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return BookingSettings.objects.create()
    except IntegrityError:  # made a moment ago by another request
        return BookingSettings.objects.get()


def _zone():
    return current_club().zone


def today() -> datetime.date:
    return timezone.localtime(timezone.now(), _zone()).date()


def play_starts(day: ClubDay, rules: BookingSettings) -> datetime.datetime:
    return datetime.datetime.combine(day.date, rules.play_time, tzinfo=_zone())


def cutoff_at(day: ClubDay, rules: BookingSettings) -> datetime.datetime:
    """When members can no longer cancel ``day`` themselves. "The Friday before": the
    end of the last such weekday before the day (a week before when the day is one)."""
    if rules.cutoff == BookingSettings.Cutoff.WEEKDAY:
        back = (day.date.weekday() - rules.cutoff_weekday) % 7 or 7
        end = day.date - datetime.timedelta(days=back - 1)
        return datetime.datetime.combine(end, datetime.time(0, 0), tzinfo=_zone())
    starts = play_starts(day, rules)
    if rules.cutoff == BookingSettings.Cutoff.HOURS:
        return starts - datetime.timedelta(hours=rules.cutoff_hours)
    return starts


def past_cutoff(day: ClubDay, rules: BookingSettings, now: datetime.datetime | None = None):
    return (now or timezone.now()) >= cutoff_at(day, rules)


def cutoff_message(day: ClubDay, rules: BookingSettings) -> str:
    """What a member cancelling too late is told: the club's own words, or the site's."""
    if rules.cutoff_message.strip():
        return rules.cutoff_message.strip()
    return _(
        "It is too late to cancel %(day)s here: the cut-off has passed. Please tell an "
        "officer, who can still take you off the list."
    ) % {"day": day}
