"""The league's calendar, pure (no database): which dates are club days, what a day is
called, when play starts, and the names of the seasons.

Everything is derived from the options' start date and the seeded ``random.Random``,
never from today's date, so the same options give the same days.
"""

from __future__ import annotations

import datetime
import random

# Club days: Tuesdays and Thursdays first, other weekdays only when more days are asked.
WEEKDAY_PREFERENCE = (1, 3, 5, 0, 2, 4, 6)
DAY_TITLES = {
    0: "Monday afternoon",
    1: "Tuesday afternoon",
    2: "Wednesday afternoon",
    3: "Thursday afternoon",
    4: "Friday afternoon",
    5: "Saturday club day",
    6: "Sunday social",
}
PLAY_STARTS = datetime.time(13, 0)


def club_dates(rng: random.Random, year_start: datetime.date, count: int) -> list[datetime.date]:
    """``count`` club days in the year from ``year_start``: Tuesdays and Thursdays,
    adding other weekdays only when more days are asked than those give."""
    year_end = add_years(year_start, 1)
    all_days = [
        year_start + datetime.timedelta(days=k) for k in range((year_end - year_start).days)
    ]
    candidates: list[datetime.date] = []
    for k, weekday in enumerate(WEEKDAY_PREFERENCE):
        candidates += [d for d in all_days if d.weekday() == weekday]
        if k >= 1 and len(candidates) >= count:
            break
    return sorted(rng.sample(candidates, min(count, len(candidates))))


def add_years(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def season_name(start: datetime.date, end: datetime.date) -> str:
    if start.month == 1 and start.day == 1:
        return str(start.year)
    return f"{start.year}–{end.year}"
