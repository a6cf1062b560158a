"""The league workbook: one .xlsx file with the sheets Summary, Standings, Games,
Hands, Attendance and Members, in that order, and the rows of each; a period with an
event has one more, Events: each event's own ranking, as its ranking page shows it
(the event's games are in Games and Hands like any other).

The Summary sheet (:mod:`scoring.results.workbook_summary`) counts each club day of the
period and totals them; its figures add up to the other sheets' rows. Every sheet is
set up to print (one page wide, the header row repeated, the club and the period at the
top of each page); membership numbers are numbers where they are numbers.

The Standings sheet is made by the same function as the standings page
(:func:`scoring.results.standings.individual.standings`), so its totals agree with the
site; the Members sheet's "Games played" agrees with it too. The rows are streamed from
the database (``values_list().iterator(chunk_size=2000)``) into the write-only sheets of
:mod:`scoring.results.sheets` (bold frozen header, fitted widths, autofilter, typed
cells), so memory stays flat however long the season.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from django.db.models import Count, Q
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from openpyxl import Workbook

from members.clubs.scope import current_club
from members.models import Person, SignIn
from scoring.models import Game
from scoring.results.ratings import display_rating
from scoring.results.sheets import (
    MAX_WIDTH,
    THOUSANDS,
    Column,
    PrintHeading,
    SheetWriter,
    day,
    decimal,
    integer,
    number_or_text,
    text,
)
from scoring.results.standings.individual import standings
from scoring.results.standings.periods import (
    Period,
    default_period,
)
from scoring.results.standings.ranking import rank
from scoring.results.workbook_games import (
    CHUNK,
    HANDS_COLUMNS,
    full_name,
    games_columns,
    games_rows,
    hands_rows,
    max_teams,
    team_names,
)
from scoring.results.workbook_summary import SUMMARY_COLUMNS, day_labels, summary_sheet
from scoring.tourney.beside import events_in, events_rows

#: The sheets, in order, by their English names (each is named in the reader's language).
SHEETS = (
    gettext_noop("Summary"),
    gettext_noop("Standings"),
    gettext_noop("Games"),
    gettext_noop("Hands"),
    gettext_noop("Attendance"),
    gettext_noop("Members"),
)

#: The sheet a period with an event has after them.
EVENTS_SHEET = gettext_noop("Events")

__all__ = [
    "EVENTS_SHEET",
    "MAX_WIDTH",
    "SHEETS",
    "write_league_workbook",
    "write_league_workbook_to_path",
]


# ---------------------------------------------------------------------------------------
# The sheets


def _kind_label(kind) -> str:
    return gettext("Guest") if kind == Person.Kind.GUEST else gettext("Member")


def _yes(value) -> str:
    return gettext("Yes") if value else gettext("No")


STANDINGS_COLUMNS = [
    integer(_("Rank")),
    text(_("Player")),
    text(_("Member or guest")),
    integer(_("Games")),
    integer(_("Won")),
    integer(_("Lost")),
    decimal(_("Win %")),
    integer(_("Points for"), number_format=THOUSANDS),
    integer(_("Points against"), number_format=THOUSANDS),
    integer(_("Difference"), number_format=THOUSANDS),
    decimal(_("Average game score")),
    integer(_("Hands")),
    integer(_("Natural canastas")),
    integer(_("Mixed canastas")),
    integer(_("Red threes")),
    integer(_("Times out")),
    integer(_("Concealed outs")),
    integer(_("Perfect cuts")),
    integer(_("Best game"), number_format=THOUSANDS),
    integer(_("Best hand"), number_format=THOUSANDS),
    integer(_("Rating"), number_format=THOUSANDS),
    text(_("Ranked")),
]


def _every_row_placed(result) -> list[tuple[int, dict, bool]]:
    """(rank, row, ranked) for every row: the ranked players as on the standings page,
    then the players under the minimum, placed among themselves by the same measures
    (tie-aware) after the last ranked position, so the Rank column is never blank."""
    placed = [(row["rank"], row, True) for row in result.ranked]
    after = len(result.ranked)
    for row in rank([dict(row) for row in result.unranked], result.measures):
        placed.append((after + row["rank"], row, False))
    return placed


def standings_rows(period: Period) -> Iterator[list]:
    result = standings(period, include_guests=True)
    not_yet = gettext("Not yet: under %(games)s games, placed after the ranked players") % {
        "games": result.min_games
    }
    yes = gettext("Yes")
    for position, row, ranked in _every_row_placed(result):
        yield [
            position,
            row["name"],
            _kind_label(row["kind"]),
            row["games"],
            row["wins"],
            row["losses"],
            float(row["win_pct"]),
            row["points_for"],
            row["points_against"],
            row["differential"],
            float(row["average"]),
            row["hands"],
            row["natural_canastas"],
            row["mixed_canastas"],
            row["red_threes"],
            row["times_out"],
            row["concealed_outs"],
            row["perfect_cuts"],
            row["best_game"],
            row["best_hand"],
            display_rating(row["rating"]),
            yes if ranked else not_yet,
        ]


# A number where it is one (1234), as typed where it is not ("A-12", "0042").
MEMBERSHIP_NUMBER = integer(_("Membership number"))

ATTENDANCE_COLUMNS = [
    day(_("Date")),
    text(_("Day")),
    text(_("Person")),
    MEMBERSHIP_NUMBER,
    text(_("Member or guest")),
    text(_("Card shown")),
    text(_("Brought by")),
]


def attendance_rows(period, labels: dict[int, str]) -> Iterator[list]:
    qs = SignIn.objects.filter(period.limits("day__date"))
    rows = qs.order_by("day__date", "day_id", "person__last_name", "person__first_name", "pk")
    rows = rows.values_list(
        "day__date",
        "day_id",
        "person__first_name",
        "person__last_name",
        "person__membership_number",
        "person__kind",
        "card_shown",
        "brought_by__first_name",
        "brought_by__last_name",
    ).iterator(chunk_size=CHUNK)
    for date, day_id, first, last, number, kind, card, b_first, b_last in rows:
        yield [
            date,
            labels.get(day_id, ""),
            full_name(first, last),
            number_or_text(number),
            _kind_label(kind),
            _yes(card),
            full_name(b_first or "", b_last or ""),
        ]


MEMBERS_COLUMNS = [
    MEMBERSHIP_NUMBER,
    text(_("First name")),
    text(_("Last name")),
    text(_("Status")),
    day(_("Joined")),
    text(_("Email")),
    text(_("Phone")),
    integer(_("Games played")),
]


def members_rows(period) -> Iterator[list]:
    played = Q(team_memberships__game__status=Game.Status.FINISHED) & period.limits(
        "team_memberships__game__day_date"
    )
    people = (
        Person.objects.members()
        .current()
        .annotate(games=Count("team_memberships", filter=played))
        .order_by("last_name", "first_name", "pk")
        .values_list(
            "membership_number",
            "first_name",
            "last_name",
            "status",
            "joined",
            "email",
            "phone",
            "games",
        )
    )
    labels = dict(Person.Status.choices)
    for number, first, last, status, joined, email, phone, games in people.iterator(
        chunk_size=CHUNK
    ):
        yield [
            number_or_text(number),
            first,
            last,
            labels.get(status, status),
            joined,
            email,
            phone,
            games,
        ]


EVENTS_COLUMNS = [
    day(_("Date")),
    text(_("Day")),
    text(_("Event")),
    text(_("Section")),
    integer(_("Place")),
    text(_("Tied")),
    text(_("Entrant")),
    text(_("Players")),
    integer(_("Games")),
    integer(_("Wins")),
    integer(_("Victory points")),
    Column(_("Percentage"), kind="number", number_format="0.00"),
    integer(_("Points for"), number_format=THOUSANDS),
    integer(_("Points against"), number_format=THOUSANDS),
    integer(_("Difference"), number_format=THOUSANDS),
]


# ---------------------------------------------------------------------------------------
# The workbook


def write_league_workbook(target, period: Period | None = None) -> dict[str, int]:
    """Write the league workbook of ``period`` (default: the current season) to
    ``target`` — a path or a binary file object. Returns the rows written per sheet."""
    period = period or default_period()
    wb = Workbook(write_only=True)
    wb.properties.title = gettext("League workbook — %(period)s") % {"period": period.label}
    wb.properties.creator = gettext("Canasta club site")
    heading = PrintHeading(current_club().name, period.label)
    counts: dict[str, int] = {}
    labels = day_labels(period)

    summary, totals = summary_sheet(period, labels)
    counts["Summary"] = SheetWriter(wb, "Summary", SUMMARY_COLUMNS, heading).write(
        summary, totals=totals
    )
    counts["Standings"] = SheetWriter(wb, "Standings", STANDINGS_COLUMNS, heading).write(
        standings_rows(period)
    )
    counts.update(_games_and_hands(wb, period, labels, heading))
    counts["Attendance"] = SheetWriter(wb, "Attendance", ATTENDANCE_COLUMNS, heading).write(
        attendance_rows(period, labels)
    )
    counts["Members"] = SheetWriter(wb, "Members", MEMBERS_COLUMNS, heading).write(
        members_rows(period)
    )
    events = events_in(period)
    if events:
        counts["Events"] = SheetWriter(wb, EVENTS_SHEET, EVENTS_COLUMNS, heading).write(
            events_rows(events, labels)
        )
    wb.save(target)
    return counts


def _games_and_hands(wb, period, labels, heading) -> dict[str, int]:
    """The Games and Hands sheets; the games' places, found once, serve both."""
    names = team_names(period)
    longest = max((len(n) for n in names.values()), default=0) + 2
    n_teams = max_teams(period)
    columns = games_columns(n_teams)
    team_cols = {5 + 2 * i: longest for i in range(n_teams)}
    team_cols[5 + 2 * n_teams] = longest
    games: dict[int, tuple] = {}
    counts = {}
    counts["Games"] = SheetWriter(wb, "Games", columns, heading).write(
        games_rows(period, names, n_teams, games, labels), team_cols
    )
    counts["Hands"] = SheetWriter(wb, "Hands", HANDS_COLUMNS, heading).write(
        hands_rows(period, names, games), {7: longest}
    )
    return counts


def write_league_workbook_to_path(path: str | os.PathLike, period=None) -> dict[str, int]:
    """Write to ``path`` through a temporary file beside it, so a failed export never
    leaves half a workbook behind."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    partial = os.path.join(folder, f".{os.path.basename(path)}.partial")
    try:
        counts = write_league_workbook(partial, period)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return counts
