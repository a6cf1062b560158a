"""The league workbook: one .xlsx file with the sheets Standings, Games, Hands,
Attendance and Members, in that order.

Every sheet has a bold header row, is frozen under it (``A2``), has an autofilter over
all its rows, and column widths that fit what is written. Dates are real date cells
(``yyyy-mm-dd``), scores are numbers, never text. The Standings sheet is made by the
same function as the standings page (:func:`scoring.results.standings.standings`), so its totals
agree with the site; the Members sheet's "Games played" agrees with it too.

The workbook is written with openpyxl's write-only mode, and the rows are streamed from
the database (``values_list().iterator(chunk_size=2000)``), so memory stays flat
however long the season. openpyxl turns each cell into an XML element through Python
objects, which takes around 20 µs a cell without lxml — half a minute for a season of
40,000 hands. So the rows of a write-only sheet are serialised here directly as the same
SpreadsheetML openpyxl writes (``<row><c …>``, inline strings), into the stream openpyxl
opened for the sheet; openpyxl still writes everything else (header of the sheet, frozen
pane, column widths, autofilter, styles, the package). Where that stream is not the one
expected (openpyxl with lxml), the rows go through ``ws.append`` as usual.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice

from django.db.models import Count, Q
from django.utils import timezone
from openpyxl import LXML, Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from members.models import Person, SignIn
from scoring.labels import WENT_OUT_SHEET
from scoring.models import Game, GameTeam, TeamHand
from scoring.results import standings

SHEETS = ("Standings", "Games", "Hands", "Attendance", "Members")
CHUNK = 2000
WIDTH_SAMPLE = 500
MAX_WIDTH = 60
DATE_FORMAT = "yyyy-mm-dd"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
ONE_DECIMAL = "0.0"
THOUSANDS = "#,##0"

# Serialise rows directly (see the module docstring). Tests switch it off to check
# that both ways give the same workbook.
FAST_ROWS = True

_EPOCH = datetime.date(1899, 12, 30)
_EPOCH_DT = datetime.datetime(1899, 12, 30)


@dataclass(frozen=True)
class Column:
    header: str
    number_format: str | None = None  # e.g. "0.0"; dates get DATE_FORMAT by themselves
    kind: str = "text"  # text, int, number, date, datetime, bool
    width: float | None = None  # a fixed width (else fitted to the header and values)


def text(header, **kw):
    return Column(header, kind="text", **kw)


def integer(header, **kw):
    return Column(header, kind="int", **kw)


def decimal(header, **kw):
    return Column(header, kind="number", number_format=ONE_DECIMAL, **kw)


def day(header, **kw):
    return Column(header, kind="date", number_format=DATE_FORMAT, **kw)


def moment(header, **kw):
    return Column(header, kind="datetime", number_format=DATETIME_FORMAT, **kw)


# ---------------------------------------------------------------------------------------
# Writing one sheet


def _escape(value: str) -> str:
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _TextCache(dict):
    """Escaped XML of each distinct string (names and labels repeat on every row)."""

    def __missing__(self, value: str) -> str:
        space = ' xml:space="preserve"' if value[0] == " " or value[-1] == " " else ""
        escaped = f"<t{space}>{_escape(value)}</t>"
        if len(self) < 100_000:
            self[value] = escaped
        return escaped


def _display_length(value, column: Column) -> int:
    if value is None:
        return 0
    if column.kind == "date":
        return 10
    if column.kind == "datetime":
        return 16
    if isinstance(value, float):
        return len(f"{value:,.1f}")
    if isinstance(value, int) and not isinstance(value, bool):
        return len(f"{value:,}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def fit_widths(columns: Sequence[Column], sample: Sequence[Sequence], minimum=None) -> list[float]:
    """Column widths (in characters) that fit the header and the sampled rows, bounded
    to MAX_WIDTH; ``minimum`` maps a column index to a width known in advance (the
    longest name of a big sheet, say)."""
    widths = []
    for i, column in enumerate(columns):
        if column.width:
            widths.append(column.width)
            continue
        longest = max((_display_length(row[i], column) for row in sample), default=0)
        longest = max(longest, (minimum or {}).get(i, 0))
        widths.append(float(min(MAX_WIDTH, max(len(column.header) + 3, longest + 2, 6))))
    return widths


class SheetWriter:
    """One write-only worksheet: a bold, frozen header, fitted widths, an autofilter
    over every row written. ``write(rows)`` streams the rows."""

    def __init__(self, workbook: Workbook, title: str, columns: Sequence[Column]):
        self.workbook = workbook
        self.ws = workbook.create_sheet(title)
        self.columns = list(columns)
        self.rows_written = 0
        self._letters = [get_column_letter(i + 1) for i in range(len(self.columns))]
        self._header_style = self._style_id(
            font=Font(bold=True), alignment=Alignment(wrap_text=False)
        )
        self._styles = []
        for column in self.columns:
            if column.number_format:
                self._styles.append(f' s="{self._style_id(number_format=column.number_format)}"')
            else:
                self._styles.append("")

    def _style_id(self, **attrs) -> int:
        cell = WriteOnlyCell(self.ws, value="")
        for name, value in attrs.items():
            setattr(cell, name, value)
        return cell.style_id

    def write(self, rows: Iterable[Sequence], minimum_widths: dict[int, int] | None = None) -> int:
        rows = iter(rows)
        sample = list(islice(rows, WIDTH_SAMPLE))
        ws = self.ws
        for letter, width in zip(
            self._letters, fit_widths(self.columns, sample, minimum_widths), strict=True
        ):
            ws.column_dimensions[letter].width = width
        ws.freeze_panes = "A2"
        everything = chain(sample, rows)
        sink = self._fast_sink() if FAST_ROWS and not LXML else None
        if sink is not None:
            self._write_fast(sink, everything)
        else:
            self._write_cells(everything)
        last = self._letters[-1]
        ws.auto_filter.ref = f"A1:{last}{self.rows_written + 1}"
        return self.rows_written

    # -- the usual openpyxl way (also the fallback)

    def _write_cells(self, rows: Iterator[Sequence]) -> None:
        ws = self.ws
        header = []
        for column in self.columns:
            cell = WriteOnlyCell(ws, value=column.header)
            cell.font = Font(bold=True)
            header.append(cell)
        ws.append(header)
        formatted = [i for i, c in enumerate(self.columns) if c.number_format]
        for row in rows:
            values = list(row)
            for i in formatted:
                value = values[i]
                if value is not None:
                    cell = WriteOnlyCell(ws, value=value)
                    cell.number_format = self.columns[i].number_format
                    values[i] = cell
            for i, value in enumerate(values):
                if value == "":
                    values[i] = None  # an empty cell, as the fast way writes it
                elif isinstance(value, str) and value.startswith("="):
                    cell = WriteOnlyCell(ws, value=value)
                    cell.data_type = "s"  # a name, never a formula
                    values[i] = cell
            ws.append(values)
            self.rows_written += 1

    # -- the fast way: the same XML, written straight into openpyxl's sheet stream

    def _fast_sink(self):
        ws = self.ws
        ws._get_writer()  # openpyxl writes the sheet's top (views, frozen pane, columns)
        writer = ws._writer
        if ws._rows is not None:
            return None
        xf = writer.xf.send(True)
        raw = getattr(xf, "_file", None)
        if not callable(raw):  # pragma: no cover - an unexpected xmlfile
            writer.xf.send(None)
            return None

        def sink():
            with xf.element("sheetData"):
                try:
                    while True:
                        raw((yield))
                except GeneratorExit:
                    pass
            writer.xf.send(None)

        stream = sink()
        next(stream)
        ws._rows = stream  # ws.close() (at save) closes sheetData and writes the tail
        return stream

    def _write_fast(self, sink, rows: Iterator[Sequence]) -> None:
        letters = self._letters
        styles = self._styles
        header_style = f' s="{self._header_style}"'
        parts = ['<row r="1">']
        for letter, column in zip(letters, self.columns, strict=True):
            parts.append(
                f'<c r="{letter}1" t="inlineStr"{header_style}><is><t>'
                f"{_escape(column.header)}</t></is></c>"
            )
        parts.append("</row>")
        sink.send("".join(parts))
        buffer = []
        texts = _TextCache()
        r = 1
        for row in rows:
            r += 1
            parts = [f'<row r="{r}">']
            for letter, style, value in zip(letters, styles, row, strict=True):
                kind = type(value)
                if kind is int:
                    parts.append(f'<c r="{letter}{r}"{style}><v>{value}</v></c>')
                elif kind is str:
                    if value:
                        parts.append(
                            f'<c r="{letter}{r}" t="inlineStr"{style}><is>{texts[value]}</is></c>'
                        )
                elif value is None:
                    continue
                elif kind is float:
                    parts.append(f'<c r="{letter}{r}"{style}><v>{value!r}</v></c>')
                elif kind is datetime.date:
                    parts.append(f'<c r="{letter}{r}"{style}><v>{(value - _EPOCH).days}</v></c>')
                elif kind is datetime.datetime:
                    serial = (value.replace(tzinfo=None) - _EPOCH_DT).total_seconds() / 86400
                    parts.append(f'<c r="{letter}{r}"{style}><v>{serial!r}</v></c>')
                elif kind is bool:
                    parts.append(f'<c r="{letter}{r}" t="b"{style}><v>{int(value)}</v></c>')
                else:  # Decimal and other numbers
                    parts.append(f'<c r="{letter}{r}"{style}><v>{float(value)!r}</v></c>')
            parts.append("</row>")
            buffer.append("".join(parts))
            if len(buffer) >= 200:
                sink.send("".join(buffer))
                buffer = []
        if buffer:
            sink.send("".join(buffer))
        self.rows_written = r - 1


# ---------------------------------------------------------------------------------------
# The sheets


def _name(first, last) -> str:
    return f"{first} {last}".strip()


def _kind_label(kind) -> str:
    return "Guest" if kind == Person.Kind.GUEST else "Member"


def _yes(value) -> str:
    return "Yes" if value else "No"


def _local(moment_value):
    if moment_value is None:
        return None
    if timezone.is_aware(moment_value):
        moment_value = timezone.localtime(moment_value)
    return moment_value.replace(tzinfo=None, microsecond=0)


STANDINGS_COLUMNS = [
    integer("Rank"),
    text("Player"),
    text("Member or guest"),
    integer("Games"),
    integer("Won"),
    integer("Lost"),
    decimal("Win %"),
    integer("Points for", number_format=THOUSANDS),
    integer("Points against", number_format=THOUSANDS),
    integer("Difference", number_format=THOUSANDS),
    decimal("Average game score"),
    integer("Hands"),
    integer("Natural canastas"),
    integer("Mixed canastas"),
    integer("Red threes"),
    integer("Times out"),
    integer("Concealed outs"),
    integer("Perfect cuts"),
    integer("Best game", number_format=THOUSANDS),
    integer("Best hand", number_format=THOUSANDS),
    decimal("Rating"),
    text("Ranked"),
]


def standings_rows(period: standings.Period) -> Iterator[list]:
    result = standings.standings(period, include_guests=True)
    for row in result.rows:
        yield [
            row["rank"],
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
            row["rating"],
            "Yes" if row["rank"] is not None else f"Not yet (under {result.min_games} games)",
        ]


def team_names(period: standings.Period) -> dict[int, str]:
    """Team id → "Ann Able & Cat Cole" for every team of a finished game in the period:
    one streamed query."""
    rows = (
        standings.finished_players(period.start, period.end)
        .order_by("team_id", "seat", "pk")
        .values_list("team_id", "person__first_name", "person__last_name", "person__kind")
        .iterator(chunk_size=CHUNK)
    )
    names: dict[int, list[str]] = {}
    for team_id, first, last, kind in rows:
        label = _name(first, last) + (" (guest)" if kind == Person.Kind.GUEST else "")
        names.setdefault(team_id, []).append(label)
    return {team_id: " & ".join(people) for team_id, people in names.items()}


def _max_teams(period) -> int:
    found = (
        GameTeam.objects.filter(game__in=standings.finished_games(period.start, period.end))
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return max(2, (found or 0) + 1)


def games_columns(n_teams: int) -> list[Column]:
    columns = [day("Date"), text("Day"), integer("Round"), integer("Table"), integer("Game")]
    for i in range(1, n_teams + 1):
        columns += [text(f"Team {i}"), integer(f"Team {i} score", number_format=THOUSANDS)]
    columns += [
        text("Winners"),
        integer("Winning score", number_format=THOUSANDS),
        integer("Hands"),
        text("Rules"),
        moment("Finished at"),
    ]
    return columns


def games_rows(
    period, names: dict[int, str], n_teams: int, seen: dict[int, tuple] | None = None
) -> Iterator[list]:
    """One row per finished game; ``seen`` (if given) collects game id → (date, round,
    table, game number) for the Hands sheet."""
    teams = (
        GameTeam.objects.filter(game__in=standings.finished_games(period.start, period.end))
        .order_by(
            "game__day_date",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game_id",
            "index",
        )
        .values_list(
            "game_id",
            "game__day_date",
            "game__day__title",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game__hand_count",
            "game__rules_name",
            "game__finished_at",
            "id",
            "total",
            "won",
        )
        .iterator(chunk_size=CHUNK)
    )
    current = None
    game_info = None
    sides: list[tuple[int, int, bool]] = []

    def emit():
        date, title, round_no, table, number, hands, rules, finished = game_info
        row = [date, title, round_no, table, number]
        for i in range(n_teams):
            if i < len(sides):
                team_id, total, _won = sides[i]
                row += [names.get(team_id, ""), total]
            else:
                row += [None, None]
        winner = next((s for s in sides if s[2]), None)
        row += [
            names.get(winner[0], "") if winner else "",
            winner[1] if winner else None,
            hands,
            rules,
            _local(finished),
        ]
        return row

    for game_id, *info, team_id, total, won in teams:
        if game_id != current:
            if current is not None:
                yield emit()
            current, game_info, sides = game_id, info, []
            if seen is not None:
                seen[game_id] = (info[0], info[2], info[3], info[4])
        sides.append((team_id, total, won))
    if current is not None:
        yield emit()


HANDS_COLUMNS = [
    day("Date"),
    integer("Round"),
    integer("Table"),
    integer("Game"),
    integer("Hand"),
    integer("Team"),
    text("Players"),
    integer("Melded points"),
    integer("Natural canastas"),
    integer("Mixed canastas"),
    integer("Red threes"),
    text("Went out"),
    integer("Points left in hand"),
    text("Perfect cut"),
    integer("Penalty points"),
    integer("Hand score", number_format=THOUSANDS),
    integer("Running total", number_format=THOUSANDS),
]

WENT_OUT = WENT_OUT_SHEET


def hands_rows(period, names: dict[int, str], games: dict[int, tuple]) -> Iterator[list]:
    """``games`` maps a game id to its (date, round, table, game number), as the Games
    sheet found them, so the 80,000 rows of a season need not carry them."""
    rows = (
        TeamHand.objects.filter(game__in=standings.finished_games(period.start, period.end))
        .order_by(
            "game__day_date",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game_id",
            "hand__number",
            "team__index",
        )
        .values_list(
            "game_id",
            "hand__number",
            "team__index",
            "team_id",
            "melded_points",
            "natural_canastas",
            "mixed_canastas",
            "red_threes",
            "went_out",
            "hand_points",
            "perfect_cut",
            "penalty_points",
            "hand_score",
            "score_after",
        )
        .iterator(chunk_size=CHUNK)
    )
    for (
        game_id,
        hand,
        index,
        team_id,
        melded,
        natural,
        mixed,
        red,
        went_out,
        in_hand,
        cut,
        penalty,
        score,
        total,
    ) in rows:
        info = games.get(game_id)
        if info is None:  # finished while the workbook was being written: next time
            continue
        date, round_no, table, game = info
        yield [
            date,
            round_no,
            table,
            game,
            hand,
            index + 1,
            names.get(team_id, ""),
            melded,
            natural,
            mixed,
            red,
            WENT_OUT.get(went_out, went_out),
            in_hand,
            "Yes" if cut else "",
            penalty,
            score,
            total,
        ]


ATTENDANCE_COLUMNS = [
    day("Date"),
    text("Day"),
    text("Person"),
    text("Membership number"),
    text("Member or guest"),
    text("Card shown"),
    text("Brought by"),
]


def attendance_rows(period) -> Iterator[list]:
    qs = SignIn.objects.all()
    if period.start:
        qs = qs.filter(day__date__gte=period.start)
    if period.end:
        qs = qs.filter(day__date__lte=period.end)
    rows = qs.order_by("day__date", "day_id", "person__last_name", "person__first_name", "pk")
    rows = rows.values_list(
        "day__date",
        "day__title",
        "person__first_name",
        "person__last_name",
        "person__membership_number",
        "person__kind",
        "card_shown",
        "brought_by__first_name",
        "brought_by__last_name",
    ).iterator(chunk_size=CHUNK)
    for date, title, first, last, number, kind, card, b_first, b_last in rows:
        yield [
            date,
            title,
            _name(first, last),
            number or "",
            _kind_label(kind),
            _yes(card),
            _name(b_first or "", b_last or ""),
        ]


MEMBERS_COLUMNS = [
    text("Membership number"),
    text("First name"),
    text("Last name"),
    text("Status"),
    day("Joined"),
    text("Email"),
    text("Phone"),
    integer("Games played"),
]


def members_rows(period) -> Iterator[list]:
    played = Q(team_memberships__game__status=Game.Status.FINISHED)
    if period.start:
        played &= Q(team_memberships__game__day_date__gte=period.start)
    if period.end:
        played &= Q(team_memberships__game__day_date__lte=period.end)
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
        yield [number or "", first, last, labels.get(status, status), joined, email, phone, games]


# ---------------------------------------------------------------------------------------
# The workbook


def write_league_workbook(target, period: standings.Period | None = None) -> dict[str, int]:
    """Write the league workbook of ``period`` (default: the current season) to
    ``target`` — a path or a binary file object. Returns the rows written per sheet."""
    period = period or standings.default_period()
    wb = Workbook(write_only=True)
    wb.properties.title = f"League workbook — {period.label}"
    wb.properties.creator = "Canasta club site"
    counts: dict[str, int] = {}

    counts["Standings"] = SheetWriter(wb, "Standings", STANDINGS_COLUMNS).write(
        standings_rows(period)
    )

    names = team_names(period)
    longest = max((len(n) for n in names.values()), default=0) + 2
    n_teams = _max_teams(period)
    columns = games_columns(n_teams)
    team_cols = {5 + 2 * i: longest for i in range(n_teams)}
    team_cols[5 + 2 * n_teams] = longest
    games: dict[int, tuple] = {}
    counts["Games"] = SheetWriter(wb, "Games", columns).write(
        games_rows(period, names, n_teams, games), team_cols
    )
    counts["Hands"] = SheetWriter(wb, "Hands", HANDS_COLUMNS).write(
        hands_rows(period, names, games), {6: longest}
    )
    del names, games
    counts["Attendance"] = SheetWriter(wb, "Attendance", ATTENDANCE_COLUMNS).write(
        attendance_rows(period)
    )
    counts["Members"] = SheetWriter(wb, "Members", MEMBERS_COLUMNS).write(members_rows(period))
    wb.save(target)
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
