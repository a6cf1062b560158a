"""What a generated league is asked for and what it reports: the options (with their
checks), the summary of what was written, and the error that says what to change.

Kept apart from the writing code so the commands can read the options without it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

DEFAULT_START = datetime.date(2021, 1, 1)
# Bump when a change here makes the same options give another league (the benchmark
# then rebuilds its cached league).
GENERATOR_VERSION = 2


class LeagueError(Exception):
    """The league cannot be generated as asked; the message says what to change."""


@dataclass
class LeagueOptions:
    people: int = 400
    years: int = 5
    seed: int = 1
    days_per_year: int = 100
    tables_min: int = 20
    tables_max: int = 30
    start: datetime.date = DEFAULT_START
    guest_share: float = 0.10  # of the people at the tables on a day
    rule_set_slug: str = ""  # default: the club default rule set

    def check(self) -> None:
        if self.people < 8:
            raise LeagueError("A league needs at least 8 people (two tables of four).")
        if self.years < 1:
            raise LeagueError("--years must be 1 or more.")
        if not 1 <= self.days_per_year <= 365:
            raise LeagueError("--days-per-year must be between 1 and 365.")
        if self.tables_min < 1 or self.tables_max < self.tables_min:
            raise LeagueError("Give 1 ≤ --tables-min ≤ --tables-max.")

    @property
    def end(self) -> datetime.date:
        return datetime.date(self.start.year + self.years, self.start.month, 1) - (
            datetime.timedelta(days=1)
        )


@dataclass
class LeagueSummary:
    people: int = 0
    members: int = 0
    guests: int = 0
    days: int = 0
    sign_ins: int = 0
    tables: int = 0
    games: int = 0
    hands: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        return (
            f"{self.people:,} people ({self.members:,} members, {self.guests:,} guests), "
            f"{self.days:,} club days, {self.sign_ins:,} sign-ins, {self.tables:,} tables, "
            f"{self.games:,} games, {self.hands:,} hands in {self.seconds:,.1f} s"
        )
