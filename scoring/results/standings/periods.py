"""Periods of the standings: a season, any from/to dates, or all games; the seasons
that choose one; and the finished games (and the seats taken in them) of a period.

:func:`date_range` is the one way a period limits a queryset by date (the standings, the
day results, the charts, the workbook and the filters all use it).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from members.models import Person
from scoring.models import Game, Season, TeamPlayer

FINISHED = Game.Status.FINISHED
MEMBER = Person.Kind.MEMBER


def date_range(field: str, start: datetime.date | None, end: datetime.date | None) -> Q:
    """``field`` from ``start`` to ``end``, both inclusive, either may be None (no
    limit on that side): a Q to pass to ``filter()``, empty when neither is given."""
    limits = Q()
    if start:
        limits &= Q(**{f"{field}__gte": start})
    if end:
        limits &= Q(**{f"{field}__lte": end})
    return limits


@dataclass(frozen=True)
class Period:
    """A date range of the standings: a season, any from/to dates, or all games."""

    start: datetime.date | None = None
    end: datetime.date | None = None
    season: Season | None = None

    @property
    def label(self) -> str:
        if self.season is not None:
            return f"{self.season.name} ({_span(self.start, self.end)})"
        if self.start is None and self.end is None:
            return _("All games")
        return _span(self.start, self.end)

    @property
    def slug(self) -> str:
        """For file names: "2025", "2025-01-01_to_2025-06-30", "all-games"."""
        if self.season is not None:
            text = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.season.name)
            return text.strip("-") or "season"
        if self.start is None and self.end is None:
            return "all-games"
        start = self.start.isoformat() if self.start else "start"
        end = self.end.isoformat() if self.end else "today"
        return f"{start}_to_{end}"

    def contains(self, day: datetime.date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)

    def limits(self, field: str) -> Q:
        """The period as a filter on the date ``field`` (see :func:`date_range`)."""
        return date_range(field, self.start, self.end)


def _day(value: datetime.date) -> str:
    return date_format(value, "DAY_FORMAT")


def _span(start, end) -> str:
    if start and end:
        return f"{_day(start)} – {_day(end)}"
    if start:
        return _("from %(date)s") % {"date": _day(start)}
    return _("up to %(date)s") % {"date": _day(end)}


ALL_GAMES = Period()


def current_season(today: datetime.date | None = None, seasons=None) -> Season | None:
    """The season containing today (the latest-starting one if several overlap); else
    the latest season that has started; else the first one to come; None if there are
    no seasons. ``seasons``: every season, when already read (the period form's)."""
    today = today or timezone.localdate()
    if seasons is None:
        seasons = list(Season.objects.order_by("-start", "-pk"))  # a handful: one query
    else:
        seasons = sorted(seasons, key=lambda s: (s.start, s.pk), reverse=True)
    return (
        next((s for s in seasons if s.start <= today <= s.end), None)
        or next((s for s in seasons if s.start <= today), None)
        or (seasons[-1] if seasons else None)
    )


def season_period(season: Season | None) -> Period:
    if season is None:
        return ALL_GAMES
    return Period(start=season.start, end=season.end, season=season)


def default_period(today: datetime.date | None = None, seasons=None) -> Period:
    """What the standings show when nothing is chosen: the current season, or all
    games when the club has no seasons (``seasons`` as in :func:`current_season`)."""
    return season_period(current_season(today, seasons))


def overlapping_seasons(start, end, exclude_pk=None) -> list[Season]:
    """Seasons sharing at least one day with start..end (overlaps are allowed; the
    season form warns about them)."""
    qs = Season.objects.filter(start__lte=end, end__gte=start)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return list(qs.order_by("start"))


def finished_players(
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    *,
    include_guests: bool = True,
) -> QuerySet[TeamPlayer]:
    """Every seat taken in a finished game played from ``start`` to ``end`` (inclusive,
    either may be None), one row per person per game."""
    qs = TeamPlayer.objects.filter(game__status=FINISHED).filter(
        date_range("game__day_date", start, end)
    )
    if not include_guests:
        qs = qs.filter(person__kind=MEMBER)
    return qs


def finished_games(start=None, end=None) -> QuerySet[Game]:
    return Game.objects.finished().between(start, end)
