"""The league workbook, opened again with openpyxl and checked cell by cell, and the
export_league command with its errors."""

import datetime
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from members.models import SignIn
from members.tests.factories import ClubDayFactory, MemberFactory
from scoring.models import GameTeam, Season, TeamHand
from scoring.results import exports, sheets, standings
from scoring.results.ratings import display_rating
from scoring.tests.results.conftest import DAY1, DAY2

pytestmark = pytest.mark.django_db


@pytest.fixture
def workbook(small_club, tmp_path):
    path = tmp_path / "league.xlsx"
    counts = exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    return load_workbook(path), counts


def rows(ws):
    return [list(r) for r in ws.iter_rows(values_only=True)]


def as_dicts(ws):
    header, *body = rows(ws)
    return [dict(zip(header, r, strict=True)) for r in body]


def test_sheet_names_and_order(workbook):
    wb, counts = workbook
    assert wb.sheetnames == ["Summary", "Standings", "Games", "Hands", "Attendance", "Members"]
    assert counts == {
        "Summary": 2,
        "Standings": 5,
        "Games": 3,
        "Hands": 18,
        "Attendance": 8,
        "Members": 4,
    }


@pytest.mark.parametrize("sheet", exports.SHEETS)
def test_every_sheet_has_bold_frozen_filtered_header_and_fitted_widths(workbook, sheet):
    wb, counts = workbook
    ws = wb[sheet]
    header = next(ws.iter_rows(min_row=1, max_row=1))
    assert all(cell.font.b for cell in header)
    assert all(isinstance(cell.value, str) and cell.value for cell in header)
    assert ws.freeze_panes == "A2"
    last_row = counts[sheet] + 1  # the Summary's totals are below its filter
    assert ws.auto_filter.ref == f"A1:{ws.cell(1, ws.max_column).column_letter}{last_row}"
    for cell in header:
        width = ws.column_dimensions[cell.column_letter].width
        assert width >= len(cell.value) + 2
        longest = max(
            len(str(c.value))
            for (c,) in ws.iter_rows(min_col=cell.column, max_col=cell.column)
            if c.value is not None and not c.is_date
        )
        assert width >= min(longest, exports.MAX_WIDTH)


def test_standings_sheet_matches_the_standings_and_the_database(workbook):
    wb, _ = workbook
    sheet = as_dicts(wb["Standings"])
    result = standings.standings(standings.ALL_GAMES)
    # Nobody has the minimum of 5 games: every row is placed after the (no) ranked ones.
    by_name = {r["Player"]: r for r in sheet}
    assert sorted(by_name) == sorted(r["name"] for r in result.rows)
    for row in result.rows:
        got = by_name[row["name"]]
        assert got["Games"] == row["games"] and got["Won"] == row["wins"]
        assert got["Points for"] == row["points_for"]
        assert got["Points against"] == row["points_against"]
        assert got["Difference"] == row["differential"]
        assert got["Natural canastas"] == row["natural_canastas"]
        assert got["Red threes"] == row["red_threes"]
        assert got["Win %"] == pytest.approx(row["win_pct"])
        assert got["Rating"] == display_rating(row["rating"])
    # Each team's total is credited to both partners.
    assert sum(r["Points for"] for r in sheet) == 2 * sum(t.total for t in GameTeam.objects.all())
    ann = next(r for r in sheet if r["Player"] == "Ann Able")
    assert (ann["Games"], ann["Won"], ann["Points for"], ann["Difference"]) == (3, 2, 11850, 4350)
    eve = next(r for r in sheet if r["Player"] == "Eve Early")
    assert eve["Member or guest"] == "Guest"
    assert isinstance(eve["Rank"], int) and eve["Ranked"].startswith("Not yet")


def test_types_numbers_are_numbers_dates_are_dates(workbook):
    wb, _ = workbook
    ws = wb["Standings"]
    for (cell,) in ws.iter_rows(min_row=2, min_col=9, max_col=9):  # Points against
        assert cell.data_type == "n" and isinstance(cell.value, int)
    for (win_pct,) in ws.iter_rows(min_row=2, min_col=7, max_col=7):
        assert win_pct.data_type == "n" and win_pct.number_format == "0.0"
    assert any(isinstance(c.value, float) for (c,) in ws.iter_rows(min_row=2, min_col=7, max_col=7))
    for name in ("Games", "Hands", "Attendance"):
        for (cell,) in wb[name].iter_rows(min_row=2, max_col=1):
            assert cell.is_date and cell.number_format == "yyyy-mm-dd"
            assert cell.value.date() in (DAY1, DAY2)
    games = wb["Games"]
    for row in games.iter_rows(min_row=2):
        by_header = {games.cell(1, c.column).value: c for c in row}
        assert isinstance(by_header["Team 1 score"].value, int)
        assert by_header["Team 1 score"].data_type == "n"
        assert by_header["Finished at"].is_date
    joined = wb["Members"]
    assert joined.cell(1, 5).value == "Joined"


def test_games_sheet(workbook):
    wb, _ = workbook
    games = as_dicts(wb["Games"])
    first = games[0]
    assert first["Date"].date() == DAY1
    assert (first["Table"], first["Game"], first["Hands"]) == (1, 1, 3)
    assert first["Team 1"] == "Ann Able & Bob Baker"
    assert (first["Team 1 score"], first["Team 2 score"]) == (5700, 450)
    assert first["Winners"] == "Ann Able & Bob Baker" and first["Winning score"] == 5700
    assert games[2]["Team 1"] == "Ann Able & Eve Early (guest)"
    assert sum(g["Team 1 score"] + g["Team 2 score"] for g in games) == sum(
        t.total for t in GameTeam.objects.all()
    )


def test_hands_sheet(workbook):
    wb, _ = workbook
    hands = as_dicts(wb["Hands"])
    assert len(hands) == TeamHand.objects.count() == 18
    big = next(h for h in hands if h["Hand score"] == 2800)
    assert big["Red threes"] == 4 and big["Went out"] == "Concealed" and big["Perfect cut"] == "Yes"
    assert big["Players"] == "Bob Baker & Dan Dale"
    assert (big["Game"], big["Hand"], big["Team"], big["Running total"]) == (2, 1, 2, 2800)
    # The running total of each team's last hand is its game score.
    last = [h for h in hands if h["Hand"] == 3]
    assert sorted(h["Running total"] for h in last) == sorted(
        t.total for t in GameTeam.objects.all()
    )
    assert sum(h["Hand score"] for h in hands) == sum(t.total for t in GameTeam.objects.all())


def test_attendance_and_members(workbook, small_club):
    wb, _ = workbook
    attendance = as_dicts(wb["Attendance"])
    assert len(attendance) == SignIn.objects.count()
    eve = next(r for r in attendance if r["Person"] == "Eve Early")
    assert (eve["Member or guest"], eve["Card shown"]) == ("Guest", "No")
    members = as_dicts(wb["Members"])
    assert [m["Last name"] for m in members] == ["Able", "Baker", "Cole", "Dale"]
    assert members[0]["Email"] == "" or members[0]["Email"] is None
    played = {r["name"]: r["games"] for r in standings.individual()}
    for m in members:
        assert m["Games played"] == played[f"{m['First name']} {m['Last name']}"]


def test_period_limits_every_sheet(small_club, tmp_path):
    path = tmp_path / "day2.xlsx"
    counts = exports.write_league_workbook_to_path(path, standings.Period(start=DAY2))
    assert counts == {
        "Summary": 1,
        "Standings": 4,
        "Games": 1,
        "Hands": 6,
        "Attendance": 4,
        "Members": 4,
    }
    wb = load_workbook(path)
    members = as_dicts(wb["Members"])
    assert {m["Last name"]: m["Games played"] for m in members} == {
        "Able": 1,
        "Baker": 1,
        "Cole": 1,
        "Dale": 0,
    }


def test_both_ways_of_writing_rows_agree(small_club, tmp_path, monkeypatch):
    odd = MemberFactory(first_name="=SUM(A1)", last_name="<&> ")
    day = ClubDayFactory(date=datetime.date(2025, 4, 1), signed_in=[odd])
    assert day
    fast = tmp_path / "fast.xlsx"
    exports.write_league_workbook_to_path(fast, standings.ALL_GAMES)
    monkeypatch.setattr(sheets, "FAST_ROWS", False)
    slow = tmp_path / "slow.xlsx"
    exports.write_league_workbook_to_path(slow, standings.ALL_GAMES)
    a, z = load_workbook(fast), load_workbook(slow)
    for name in exports.SHEETS:
        assert rows(a[name]) == rows(z[name]), name
        fast_types = [[c.data_type for c in r] for r in a[name].iter_rows()]
        slow_types = [[c.data_type for c in r] for r in z[name].iter_rows()]
        assert fast_types == slow_types, name
        assert a[name].freeze_panes == z[name].freeze_panes
        assert a[name].auto_filter.ref == z[name].auto_filter.ref
    names = [r[2] for r in rows(a["Attendance"])]
    assert "=SUM(A1) <&>" in names  # text, never a formula


def test_the_workbook_is_written_the_fast_way(small_club, tmp_path, monkeypatch):
    """A season's workbook stays inside its time and memory budget only when its sheets
    are write-only (rows streamed, never held) and openpyxl serialises them with lxml:
    this fails when either is lost (lxml uninstalled or switched off with
    OPENPYXL_LXML=False, or an ordinary workbook)."""
    made = []

    class Spy(openpyxl.Workbook):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(exports, "Workbook", Spy)
    exports.write_league_workbook_to_path(tmp_path / "fast.xlsx", standings.ALL_GAMES)
    assert len(made) == 1 and made[0].write_only
    assert openpyxl.LXML, "lxml is not installed (or OPENPYXL_LXML is not True)"


def test_an_empty_club_still_gets_every_sheet(db, tmp_path):
    path = tmp_path / "empty.xlsx"
    counts = exports.write_league_workbook_to_path(path)
    assert set(counts.values()) == {0}
    wb = load_workbook(path)
    assert wb.sheetnames == list(exports.SHEETS)
    assert wb["Hands"].auto_filter.ref == "A1:U1"


# -- the command


def test_export_league_command(small_club, tmp_path, capsys):
    Season.objects.create(
        name="Spring 2025", start=datetime.date(2025, 3, 1), end=datetime.date(2025, 5, 31)
    )
    out = tmp_path / "spring.xlsx"
    call_command("export_league", str(out), "--season", "spring 2025")
    text = capsys.readouterr().out
    assert "Spring 2025" in text and "Hands 18" in text
    assert load_workbook(out).sheetnames == list(exports.SHEETS)
    dated = tmp_path / "dated.xlsx"
    call_command("export_league", str(dated), "--from", "2025-03-10", "--to", "2025-03-31")
    assert load_workbook(dated)["Games"].max_row == 2
    everything = tmp_path / "all.xlsx"
    call_command("export_league", str(everything), "--all")
    assert load_workbook(everything)["Games"].max_row == 4
    default = tmp_path / "default.xlsx"
    call_command("export_league", str(default))  # the current season
    assert load_workbook(default)["Games"].max_row == 4
    assert not list(tmp_path.glob(".*.partial"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--season", "Nope"], "There is no season called 'Nope'. Known seasons: 2025"),
        (["--season", "2025", "--from", "2025-01-01"], "either --season or --from/--to"),
        (["--from", "2025-13-01"], "--from '2025-13-01' is not a date"),
        (["--from", "2025-03-10", "--to", "2025-03-01"], "before --from"),
        (["--all", "--season", "2025"], "--all exports every game"),
    ],
)
def test_export_league_errors(db, tmp_path, args, message):
    Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(".", r"\.")):
        call_command("export_league", str(tmp_path / "x.xlsx"), *args)


def test_export_league_path_errors(db, tmp_path):
    with pytest.raises(CommandError, match="does not exist"):
        call_command("export_league", str(tmp_path / "missing" / "x.xlsx"))
    with pytest.raises(CommandError, match="should end in .xlsx"):
        call_command("export_league", str(tmp_path / "x.csv"))
    folder = tmp_path / "dir.xlsx"
    folder.mkdir()
    with pytest.raises(CommandError, match="is a folder"):
        call_command("export_league", str(folder))
    if os.geteuid() != 0:  # root can write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(CommandError, match="permission denied"):
            call_command("export_league", str(locked / "x.xlsx"))


def test_export_league_exit_code(tmp_path):
    """Run as an officer would, on a database nobody has migrated yet: exit code 1 and a
    message saying what to do, not a traceback (the bad dates are checked in-process
    above, on a migrated database)."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    result = subprocess.run(
        [sys.executable, "manage.py", "export_league", str(tmp_path / "x.xlsx"), "--from", "soon"],
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 1
    assert "run `manage.py migrate` first" in result.stderr
    assert "Traceback" not in result.stderr


def test_results_csv_quotes_every_text_cell():
    """A name holding ';' stays one cell in a spreadsheet whose separator is ';'."""
    import django_tables2 as tables

    from scoring.results.tables.base import csv_response

    class Names(tables.Table):
        name = tables.Column()
        games = tables.Column()

    response = csv_response(Names([{"name": "Smith;=1+1", "games": 3}]), "names.csv")
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines == ['"Name","Games"', '"Smith;=1+1",3']
