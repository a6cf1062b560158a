"""The league generator's entry point: :func:`generate_league` writes a whole league
year by year, and :func:`league_rule_set` picks the rule set it plays.

One ``random.Random(seed)`` drives everything, in a fixed order: the people first, then
each year's club days, each day's attendance and the day itself
(:class:`~scoring.devtools.league.days.DayWriter`). Ratings are replayed once a year
unless the hands are recorded one by one.
"""

from __future__ import annotations

import datetime
import random
import time
from collections.abc import Callable

from django.db import transaction

from scoring.devtools.league.dates import add_years, club_dates, season_name
from scoring.devtools.league.days import DayWriter
from scoring.devtools.league.options import LeagueError, LeagueOptions, LeagueSummary
from scoring.devtools.league.people import Guest, Member, attendance, make_people
from scoring.models import RuleSet, Season
from scoring.results import ratings


def league_rule_set(slug: str = "") -> RuleSet:
    """The rule set ``slug`` (default: the club default), which must be for tables of
    four in two partnerships."""
    if slug:
        rule_set = RuleSet.objects.filter(slug=slug).first()
        if rule_set is None:
            raise LeagueError(f"There is no rule set '{slug}'.")
    else:
        rule_set = RuleSet.objects.club_default() or RuleSet.objects.get(slug="club")
    rules = rule_set.as_engine()
    if rules.players != 4 or rules.teams != 2:
        raise LeagueError(
            f"The generated league plays tables of four in two partnerships; "
            f"'{rule_set.name}' is for {rules.players} players."
        )
    return rule_set


def generate_league(
    opts: LeagueOptions | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    hand_by_hand: bool = False,
) -> LeagueSummary:
    """Write a whole league (see :mod:`scoring.devtools.league`). ``progress`` is called
    with one line per year. ``hand_by_hand``: record every hand with
    ``hands.record_hand`` (ratings as each game ends) instead of a game at a time
    with ``hands.record_played_game``; slower, and the rows must be the same (a test
    compares them)."""
    opts = opts or LeagueOptions()
    opts.check()
    began = time.perf_counter()
    rng = random.Random(opts.seed)
    rule_set = league_rule_set(opts.rule_set_slug)
    with transaction.atomic():
        members, guests = make_people(rng, opts)
        _write_seasons(opts)
    guests_by_host: dict[int, list[Guest]] = {}
    for g in guests:
        guests_by_host.setdefault(g.person.brought_by_id, []).append(g)
    writer = DayWriter(rng, rule_set, hand_by_hand=hand_by_hand)
    summary = writer.summary
    summary.members, summary.guests = len(members), len(guests)
    summary.people = len(members) + len(guests)
    for year in range(opts.years):
        line = _write_year(writer, year, opts, members, guests_by_host)
        if progress:
            progress(line)
    summary.seconds = time.perf_counter() - began
    return summary


def _write_seasons(opts: LeagueOptions) -> None:
    """One season per year of the league (kept when one of that name exists)."""
    for year in range(opts.years):
        year_start = add_years(opts.start, year)
        year_end = add_years(opts.start, year + 1) - datetime.timedelta(days=1)
        Season.objects.get_or_create(
            name=season_name(year_start, year_end),
            defaults={"start": year_start, "end": year_end},
        )


def _write_year(
    writer: DayWriter,
    year: int,
    opts: LeagueOptions,
    members: list[Member],
    guests_by_host: dict[int, list[Guest]],
) -> str:
    """The club days of the league's year ``year`` (from 0); returns its progress line."""
    summary, rng = writer.summary, writer.rng
    year_start = add_years(opts.start, year)
    before = (summary.days, summary.games, summary.hands, time.perf_counter())
    dates = club_dates(rng, year_start, opts.days_per_year)
    for date in dates:
        present, hosts = attendance(rng, date, members, guests_by_host, opts)
        if present:
            writer.write_day(date, present, hosts)
    if not writer.hand_by_hand and dates:
        ratings.replay_from(dates[0])
    days, games, hands = (
        summary.days - before[0],
        summary.games - before[1],
        summary.hands - before[2],
    )
    seconds = time.perf_counter() - before[3]
    return (
        f"Year {year + 1}/{opts.years} (from {year_start.isoformat()}): {days} club "
        f"days, {games:,} games, {hands:,} hands in {seconds:,.1f} s"
    )
