"""The workbook's rows are written the fast way: a formatted column reuses one styled
cell for every row instead of making a styled cell per value, so the styled cells made
do not grow with the rows. (That the sheets are write-only and serialised with lxml is
checked in test_exports.)"""

import pytest

from scoring.results import exports, sheets, standings
from scoring.results.workbook_games import HANDS_COLUMNS, games_columns, max_teams
from scoring.results.workbook_summary import SUMMARY_COLUMNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def cells_made(monkeypatch):
    """Counts every cell the sheet writer makes itself (headers, styled cells)."""
    made = []
    real = sheets.WriteOnlyCell

    def counting(*args, **kwargs):
        cell = real(*args, **kwargs)
        made.append(cell)
        return cell

    monkeypatch.setattr(sheets, "WriteOnlyCell", counting)
    return made


def _sheet_columns():
    return [
        SUMMARY_COLUMNS,
        exports.STANDINGS_COLUMNS,
        games_columns(max_teams(standings.ALL_GAMES)),
        HANDS_COLUMNS,
        exports.ATTENDANCE_COLUMNS,
        exports.MEMBERS_COLUMNS,
    ]


def _at_most(columns_of_sheets) -> int:
    """One header cell per column and one reused cell per formatted column, and the
    Summary's two bold rows below its days (the total, the different people)."""
    cells = sum(len(cols) + sum(1 for c in cols if c.number_format) for cols in columns_of_sheets)
    return cells + 2 * len(SUMMARY_COLUMNS)


def test_styled_cells_are_reused_row_after_row(small_club, tmp_path, cells_made):
    counts = exports.write_league_workbook_to_path(tmp_path / "w.xlsx", standings.ALL_GAMES)
    assert counts["Hands"] == 18  # 18 rows, 3 formatted columns: 54 styled values
    assert len(cells_made) <= _at_most(_sheet_columns())


def test_the_guard_sees_a_styled_cell_per_value(small_club, tmp_path, cells_made, monkeypatch):
    """The count above is a real guard: the slow way (a cell per value) breaks it."""
    monkeypatch.setattr(sheets, "FAST_ROWS", False)
    exports.write_league_workbook_to_path(tmp_path / "w.xlsx", standings.ALL_GAMES)
    assert len(cells_made) > _at_most(_sheet_columns()) + 50
