"""Club days: open one, close it when play is over, reopen it to correct something,
and say how long its table links and room codes work."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from members.clubs.scope import ScopeError, current_club
from members.models import ClubDay
from members.services.errors import DayRefused
from members.signals import day_closed

logger = logging.getLogger(__name__)

#: The most hours one press of "keep table links working" may add.
MAX_EXTEND_HOURS = 12


def open_day(date, title: str = "") -> ClubDay:
    return ClubDay.objects.create(date=date, title=title.strip(), status=ClubDay.Status.OPEN)


def close_day(day: ClubDay, *, choices: Mapping[str, str] | None = None) -> ClubDay:
    """Close ``day``. ``choices`` are the officer's answers on the closing page about
    what is still in play (:data:`members.signals.day_closing`), e.g. for each game in
    play whether to end it as it stands or leave it unfinished; the other apps act on
    them (:data:`members.signals.day_closed`) in the same transaction. What they did,
    in sentences for the officer, is in ``day.closing_notes``.

    The day's row is locked first (:func:`lock_day`): a second officer closing it at
    the same moment waits, then is told it is closed. What the receivers lock comes
    after it, always in the same order (the play app: the day's games in play by id),
    so a hand saved at one of its tables meanwhile never waits for the close while the
    close waits for it."""
    with transaction.atomic():
        locked = lock_day(day)
        if not locked.is_open:
            raise DayRefused(_("%(day)s is already closed.") % {"day": day})
        replies = day_closed.send(sender=None, day=locked, choices=choices or {})
        locked.status = ClubDay.Status.CLOSED
        locked.closed_at = timezone.now()
        locked.save(update_fields=["status", "closed_at"])
    day.status, day.closed_at = locked.status, locked.closed_at
    day.closing_notes = [note for _receiver, notes in replies for note in notes or ()]
    return day


def reopen_day(day: ClubDay) -> ClubDay:
    with transaction.atomic():
        locked = lock_day(day)
        if locked.is_open:
            raise DayRefused(_("%(day)s is already open.") % {"day": day})
        locked.status = ClubDay.Status.OPEN
        locked.closed_at = None
        locked.save(update_fields=["status", "closed_at"])
    day.status, day.closed_at = locked.status, locked.closed_at
    return day


def lock_day(day: ClubDay) -> ClubDay:
    """The day's row as it is now, locked until the transaction ends (call inside
    ``atomic``). PostgreSQL's FOR NO KEY UPDATE, what an update of its status takes:
    those changing the day queue up, while rows that merely point at it (a game
    started, a sign-in) are not held back, so nothing that holds a game's row waits
    for the day's."""
    return ClubDay.objects.select_for_update(no_key=True).get(pk=day.pk)


def links_end(day: ClubDay) -> datetime.datetime:
    """When the day's table links and room codes stop working: midnight at the end of
    its date in the club's time zone, or later if an officer extended them. A link
    card left on a table must not open a table days later."""
    club_zone = _club_of(day).zone
    midnight = datetime.datetime.combine(
        day.date + datetime.timedelta(days=1), datetime.time.min, tzinfo=club_zone
    )
    if day.links_until and day.links_until > midnight:
        return day.links_until
    return midnight


def _club_of(day: ClubDay):
    """The day's club: the active one when it is (no query), else its own row."""
    try:
        club = current_club()
    except ScopeError:
        club = None
    if club is not None and club.pk == day.club_id:
        return club
    return day.club


def links_open(day: ClubDay, now: datetime.datetime | None = None) -> bool:
    """Whether table links and room codes of ``day`` work now: the day is open and its
    links have not ended. Closing the day always ends them."""
    now = now or timezone.now()
    return day.is_open and now < links_end(day)


def extend_links(
    day: ClubDay,
    hours,
    by=None,
    now: datetime.datetime | None = None,
    seen_end: datetime.datetime | None = None,
) -> ClubDay:
    """Keep the day's table links working ``hours`` longer than they would now (for a
    session that runs late). Refused for a closed day: reopen it first.

    ``seen_end`` is the end the officer's page showed when the button was drawn: when
    the links already end later (a double tap, a reload that sent the form again),
    nothing changes, so one press never extends twice."""
    if not day.is_open:
        raise DayRefused(
            _(
                "%(day)s is closed, so its table links stay off. Reopen the day first if play "
                "goes on."
            )
            % {"day": day}
        )
    try:
        hours = int(hours)
    except (TypeError, ValueError):
        hours = 0
    if not 1 <= hours <= MAX_EXTEND_HOURS:
        raise DayRefused(_("Choose between 1 and %(hours)s hours.") % {"hours": MAX_EXTEND_HOURS})
    current = links_end(day)
    if seen_end is not None and current > seen_end:
        return day
    now = now or timezone.now()
    day.links_until = max(now, current) + datetime.timedelta(hours=hours)
    day.save(update_fields=["links_until"])
    logger.info("%s kept the table links of %s working until %s", by, day, day.links_until)
    return day
