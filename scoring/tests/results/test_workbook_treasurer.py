"""The workbook a treasurer prints and reconciles: every sheet set up to print, Rank
filled, membership numbers as numbers, a Day column that tells two days of one date
apart, failed melds and penalties on Hands, and a Summary sheet first whose figures add
up to the other sheets (read back with openpyxl)."""

from collections import Counter, defaultdict

import pytest
from django.test import TestCase
from openpyxl import load_workbook

from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.models import RuleSet, Season
from scoring.play.services.hands import (
    count_failed_meld,
    failed_meld_counts,
    record_hand,
    undo_last_hand,
)
from scoring.play.services.rulesets import set_day_rules
from scoring.results import exports, standings
from scoring.results.workbook_summary import GAMES, HANDS, PLAYERS, TABLES, UNFINISHED
from scoring.tests import games
from scoring.tests.results.conftest import DAY1, DAY2
from scoring.tests.samples import LOSE, WIN, quick
from testsupport import first_club

pytestmark = pytest.mark.django_db

PENALISED = quick(
    melded=200,
    hand=50,
    penalties=[
        {"kind": "red_three_in_hand"},
        {"kind": "discard_unused"},
        {"kind": "discard_unused"},
        {"kind": "other", "points": 100, "note": "Slow play"},
    ],
)


@pytest.fixture
def evening(small_club):
    """A second "Thursday" on DAY1 (the evening), with a member whose number is not a
    number, one with a leading zero, a guest, a failed meld and penalties."""
    f = MemberFactory(first_name="Fay", last_name="Ford", membership_number="A-12")
    g = MemberFactory(first_name="Gus", last_name="Gray", membership_number="0042")
    h = GuestFactory(first_name="Hal", last_name="Hill", brought_by=f)
    a = small_club["A"]
    day = ClubDayFactory(date=DAY1, title="Thursday", signed_in=[a, f, g, h])
    table = TableFactory(round__day=day, seated=[a, f, g, h])
    game = games.play(table, [[a, f], [g, h]], [])
    with TestCase.captureOnCommitCallbacks(execute=True):
        count_failed_meld(game, 1)
        count_failed_meld(game, 1)
        record_hand(game, [dict(WIN), dict(PENALISED)], number=1)
        record_hand(game, [dict(WIN), dict(LOSE)], number=2)
        record_hand(game, [dict(WIN), dict(LOSE)], number=3)
    return {**small_club, "evening": day, "late_game": game}


@pytest.fixture
def book(evening, tmp_path):
    path = tmp_path / "league.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    return load_workbook(path)


def as_dicts(ws, last=None):
    header, *body = [list(r) for r in ws.iter_rows(values_only=True)]
    return [dict(zip(header, r, strict=True)) for r in body[:last]]


def test_the_summary_sheet_comes_first(book):
    assert book.sheetnames[0] == "Summary"
    assert book.sheetnames[1:] == list(exports.SHEETS[1:])


@pytest.mark.parametrize("sheet", exports.SHEETS)
def test_every_sheet_prints_one_page_wide_with_its_header_on_every_page(book, sheet, settings):
    ws = book[sheet]
    assert ws.sheet_properties.pageSetUpPr.fitToPage is True
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 0
    assert ws.print_title_rows == "$1:$1"
    assert first_club().name in ws.oddHeader.left.text
    assert ws.oddHeader.center.text == f"{sheet}: All games"
    assert "&P" in ws.oddHeader.right.text and "&N" in ws.oddHeader.right.text
    wide = sum(ws.column_dimensions[c.column_letter].width for c in ws[1]) > 95
    assert ws.page_setup.orientation == ("landscape" if wide else "portrait")


def test_wide_sheets_print_landscape_and_narrow_ones_portrait(book):
    assert book["Standings"].page_setup.orientation == "landscape"
    assert book["Hands"].page_setup.orientation == "landscape"


def test_an_ampersand_in_the_club_name_is_printed_as_one(evening, tmp_path, club):
    club.name = "Hearts & Clubs"
    club.save()
    path = tmp_path / "w.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    assert load_workbook(path)["Summary"].oddHeader.left.text == "Hearts && Clubs"


def _min_games(n):
    from scoring.models import ClubSettings

    club = ClubSettings.load()
    club.min_games_to_rank = n
    club.save()


def test_rank_is_filled_for_every_player(evening, tmp_path):
    _min_games(3)
    path = tmp_path / "w.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    rows = as_dicts(load_workbook(path)["Standings"])
    assert all(isinstance(r["Rank"], int) for r in rows)
    ranked = [r for r in rows if r["Ranked"] == "Yes"]
    later = [r for r in rows if r["Ranked"] != "Yes"]
    assert ranked and later
    assert max(r["Rank"] for r in ranked) < min(r["Rank"] for r in later)
    assert all(r["Ranked"].startswith("Not yet: under 3 games") for r in later)
    assert [r["Rank"] for r in rows] == sorted(r["Rank"] for r in rows)


def test_rank_is_filled_when_nobody_has_the_minimum_yet(small_club, tmp_path):
    _min_games(50)
    path = tmp_path / "w.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    rows = as_dicts(load_workbook(path)["Standings"])
    assert [r["Rank"] for r in rows][:1] == [1]
    assert all(isinstance(r["Rank"], int) for r in rows)


def test_membership_numbers_are_numbers_where_they_are_numbers(book):
    members = {m["Last name"]: m["Membership number"] for m in as_dicts(book["Members"])}
    assert isinstance(members["Able"], int)
    assert members["Ford"] == "A-12" and members["Gray"] == "0042"
    attendance = as_dicts(book["Attendance"])
    numbers = {r["Person"]: r["Membership number"] for r in attendance}
    assert isinstance(numbers["Ann Able"], int) and numbers["Hal Hill"] is None


def test_two_days_on_one_date_are_told_apart(book, evening):
    games_sheet = as_dicts(book["Games"])
    days = {(g["Date"].date(), g["Day"]) for g in games_sheet}
    assert days == {
        (DAY1, "Thursday (1 of 2)"),
        (DAY1, "Thursday (2 of 2)"),
        (DAY2, "Thursday"),
    }
    hands = as_dicts(book["Hands"])
    late = [h for h in hands if h["Day"] == "Thursday (2 of 2)"]
    assert len(late) == 6 and {h["Players"] for h in late} == {
        "Ann Able & Fay Ford",
        "Gus Gray & Hal Hill (guest)",
    }
    assert {r["Day"] for r in as_dicts(book["Attendance"])} == {
        "Thursday (1 of 2)",
        "Thursday (2 of 2)",
        "Thursday",
    }


def test_failed_melds_and_penalties_with_their_reasons_on_hands(book):
    hands = as_dicts(book["Hands"])
    late = {(h["Hand"], h["Team"]): h for h in hands if h["Day"] == "Thursday (2 of 2)"}
    penalised = late[(1, 2)]
    assert penalised["Failed melds"] == 2
    assert penalised["Penalty points"] > 0
    assert penalised["Penalties"] == (
        "Red three kept in hand; Took the top discard, did not use it ×2; Slow play (100)"
    )
    assert late[(1, 1)]["Failed melds"] is None and late[(1, 1)]["Penalties"] is None
    assert all(h["Failed melds"] is None for key, h in late.items() if key[0] > 1)


def test_an_undone_hand_takes_its_failed_melds_with_it(evening):
    game = evening["late_game"]
    assert game.failed_melds["saved"] == {"1": [0, 2]}
    undo_last_hand(game, expected_hand_count=3)
    undo_last_hand(game, expected_hand_count=2)
    undo_last_hand(game, expected_hand_count=1)
    game.refresh_from_db()
    assert not game.failed_melds.get("saved")
    assert failed_meld_counts(game) == [0, 0]


def test_the_summary_adds_up_to_the_other_sheets(book):
    summary = book["Summary"]
    days = as_dicts(summary, last=3)
    total, people = as_dicts(summary)[3:5]
    games_sheet, hands = as_dicts(book["Games"]), as_dicts(book["Hands"])
    attendance, ranking = as_dicts(book["Attendance"]), as_dicts(book["Standings"])
    figures = (TABLES, "Signed in", "Members", "Guests", PLAYERS, GAMES, HANDS, UNFINISHED)
    for name in figures:
        assert total[name] == sum(d[name] for d in days), name
    assert total["Signed in"] == len(attendance)
    assert total["Members"] == sum(1 for r in attendance if r["Member or guest"] == "Member")
    assert total["Guests"] == sum(1 for r in attendance if r["Member or guest"] == "Guest")
    assert total[GAMES] == len(games_sheet)
    assert total[HANDS] == len({(h["Day"], h["Table"], h["Game"], h["Hand"]) for h in hands})
    assert total[HANDS] == sum(g["Hands"] for g in games_sheet)
    assert people[PLAYERS] == len(ranking)
    assert people["Signed in"] == len({r["Person"] for r in attendance})
    # Day by day, against the Games, Hands and Attendance sheets.
    per_day = defaultdict(Counter)
    tables = defaultdict(set)
    for g in games_sheet:
        per_day[g["Day"], g["Date"]]["Games"] += 1
        per_day[g["Day"], g["Date"]]["Hands"] += g["Hands"]
        tables[g["Day"], g["Date"]].add(g["Table"])
    for r in attendance:
        per_day[r["Day"], r["Date"]]["Signed in"] += 1
    for d in days:
        assert d[TABLES] == len(tables[d["Day"], d["Date"]])
        got = per_day[d["Day"], d["Date"]]
        assert (d[GAMES], d[HANDS], d["Signed in"]) == (
            got["Games"],
            got["Hands"],
            got["Signed in"],
        )


def test_the_summary_agrees_with_the_day_results_page(book, evening):
    from scoring.results.standings.days import days_with_results

    pages = {d.pk: d for d in days_with_results()}
    summary = as_dicts(book["Summary"], last=3)
    by_label = {"Thursday (1 of 2)": "day1", "Thursday (2 of 2)": "evening", "Thursday": "day2"}
    for row in summary:
        day = pages[evening[by_label[row["Day"]]].pk]
        assert (row[GAMES], row[PLAYERS]) == (day.game_count, day.player_count)


def test_a_total_per_season_when_the_period_spans_seasons(evening, tmp_path):
    Season.objects.create(name="Early March", start=DAY1, end=DAY1)
    Season.objects.create(name="Mid March", start=DAY2, end=DAY2)
    path = tmp_path / "w.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    rows = as_dicts(load_workbook(path)["Summary"])
    labels = [r["Day"] for r in rows[3:]]
    assert labels[0] == "Season Early March: 2 days"
    assert labels[1] == "Season Mid March: 1 day"
    assert labels[2].startswith("Total, All games: 3 days")
    assert rows[3][GAMES] + rows[4][GAMES] == rows[5][GAMES]
    one = tmp_path / "one.xlsx"
    season = Season.objects.get(name="Mid March")
    exports.write_league_workbook_to_path(one, standings.season_period(season))
    rows = as_dicts(load_workbook(one)["Summary"])
    assert [r["Day"] for r in rows[1:]][0].startswith("Total, Mid March")


def test_the_summary_says_which_days_have_hands_not_yet_confirmed(small_club, tmp_path):
    """A day whose hands wait for the other team's OK is not final: the Summary counts
    those hands on its row, and none on a day without them."""
    a, b, c, d = (small_club[k] for k in "ABCD")
    day = ClubDayFactory(date=DAY2, title="Waiting", signed_in=[a, b, c, d])
    set_day_rules(day, RuleSet.objects.get(slug="club"), confirm_hands=True)
    game = games.play(TableFactory(round__day=day, seated=[a, b, c, d]), [[a, b], [c, d]], [])
    with TestCase.captureOnCommitCallbacks(execute=True):
        for number in (1, 2):
            record_hand(game, [dict(WIN), dict(LOSE)], number=number)
    path = tmp_path / "league.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    rows = as_dicts(load_workbook(path)["Summary"])
    waiting = {r["Day"]: r["Hands not yet confirmed"] for r in rows if r["Date"]}
    assert waiting["Waiting"] == 2
    assert all(n == 0 for name, n in waiting.items() if name != "Waiting")
