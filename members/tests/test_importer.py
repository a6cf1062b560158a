"""Roster import: messy .xlsx and .csv files made here, refusals by line, dry run,
running twice, files that are not rosters, and the management command."""

import datetime as dt
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from openpyxl import Workbook

from members.models import Person
from members.roster.clean import clean_number, parse_status, split_name
from members.roster.dates import DAY_FIRST
from members.roster.plan import apply_import, plan_import
from members.roster.read import Roster, RosterError, read_roster

# ----------------------------------------------------------------------------- files


def messy_xlsx() -> bytes:
    """Title on row 1, blank row 2, header on row 3 in odd case and spelling, an extra
    column, numbers stored as 1234.0, trailing spaces, a blank row, a duplicate row,
    and rows that must be refused."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Roster"
    ws.append(["Canasta Club — membership list 2026"])  # 1
    ws.append([])  # 2
    ws.append(
        [
            " Member No. ",
            "SURNAME",
            "first name",
            "E-Mail",
            "Mobile",
            "Status",
            "Date Joined",
            "Shoe size",
        ]
    )  # 3
    ws.append(
        [
            1234.0,
            "Adams  ",
            " Ann",
            "ann@example.org ",
            5550100,
            "Active",
            dt.datetime(2015, 1, 10),
            7,
        ]
    )  # 4
    ws.append([None] * 8)  # 5 blank
    ws.append(["1235", "Baker", "Betty", None, None, "lapsed", "2016-02-11", None])  # 6
    ws.append(
        [
            1234.0,
            "Adams  ",
            " Ann",
            "ann@example.org ",
            5550100,
            "Active",
            dt.datetime(2015, 1, 10),
            7,
        ]
    )  # 7 duplicate of 4
    ws.append([None, "Nobody", "Nemo", None, None, None, None, None])  # 8 no number
    ws.append([1236, "Clark", "Carol", "not-an-email", None, None, None, None])  # 9
    ws.append([1237, "Davis", None, None, None, None, None, None])  # 10 no first name
    ws.append([1238, "Evans", "Eve", None, None, "maybe", None, None])  # 11 odd status
    ws.append([1239, "Foster", "Fran", None, None, None, None, None])  # 12 ┐ same number:
    ws.append([1239, "Garcia", "Grace", None, None, None, None, None])  # 13 ┘ the later wins
    ws.append([1240, "Hill", "Hazel", "hazel@example.org", "555-0199", "yes", "2019-05-14", ""])
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


MESSY_CSV = (
    "Club roster exported 2026-11-01;;;;\r\n"  # 1
    "MEMBERSHIP NUMBER ; Name ;EMAIL;Telephone;Joined;Extra stuff\r\n"  # 2
    "1301.0;Adams, Ann ;ann@example.org;555-0100;25/12/2019;x\r\n"  # 3 (day first!)
    "\r\n"  # 4
    "1302;Zoë Young  ;zoe@example.org;;03/04/2021;\r\n"  # 5
    "1302;Zoë Young  ;zoe@example.org;;03/04/2021;\r\n"  # 6 duplicate
    ";Nemo Nobody;;;;\r\n"  # 7 no number
    "1303;Jan van Dijk;jan@example;;;\r\n"  # 8 bad email
    "1304;Mary Ann Smith;;;2020-02-30;\r\n"  # 9 no such date
)


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


# ----------------------------------------------------------------------------- reading


def test_messy_xlsx_is_read_row_by_row():
    roster = read_roster("roster.xlsx", messy_xlsx())
    assert roster.header_line == 3
    assert roster.ignored_columns == ["Shoe size"]
    assert set(roster.columns) == {
        "membership_number",
        "last_name",
        "first_name",
        "email",
        "phone",
        "status",
        "joined",
    }
    rows = {row.line: row for row in roster.rows}
    assert sorted(rows) == [4, 6, 13, 14]
    ann = rows[4]
    assert (ann.membership_number, ann.first_name, ann.last_name) == ("1234", "Ann", "Adams")
    assert ann.email == "ann@example.org"
    assert ann.phone == "5550100"
    assert ann.status == "active"
    assert ann.joined == dt.date(2015, 1, 10)
    assert rows[6].status == "lapsed" and rows[6].joined == dt.date(2016, 2, 11)
    assert rows[6].email is None  # blank: leave as it is
    assert rows[14].status == "active"

    assert [(d.line, d.of_line) for d in roster.duplicates] == [(7, 4)]
    refused = {r.line: r.reason for r in roster.refused}
    assert sorted(refused) == [8, 9, 10, 11]
    assert "membership number is missing" in refused[8]
    assert "not-an-email" in refused[9] and "not a valid address" in refused[9]
    assert "first name is missing" in refused[10]
    assert "maybe" in refused[11]
    assert (rows[13].first_name, rows[13].last_name) == ("Grace", "Garcia")
    [replaced] = roster.replaced
    assert (replaced.line, replaced.by_line, replaced.number) == (12, 13, "1239")
    assert replaced.names_differ


def test_messy_csv_semicolons_single_name_column_and_day_first_dates():
    roster = read_roster("roster.csv", MESSY_CSV.encode("utf-8-sig"))
    assert roster.header_line == 2
    assert roster.ignored_columns == ["Extra stuff"]
    rows = {row.line: row for row in roster.rows}
    assert sorted(rows) == [3, 5]
    assert (rows[3].membership_number, rows[3].first_name, rows[3].last_name) == (
        "1301",
        "Ann",
        "Adams",
    )
    # 25/12/2019 shows the file is day first, so 03/04/2021 is 3 April.
    assert rows[3].joined == dt.date(2019, 12, 25)
    assert rows[5].joined == dt.date(2021, 4, 3)
    assert (rows[5].first_name, rows[5].last_name) == ("Zoë", "Young")
    assert [(d.line, d.of_line) for d in roster.duplicates] == [(6, 5)]
    refused = {r.line: r.reason for r in roster.refused}
    assert sorted(refused) == [7, 8, 9]
    assert "jan@example" in refused[8]
    assert "2020-02-30" in refused[9] and "does not exist" in refused[9]


def test_latin1_csv_with_comma_and_tab_files():
    text = "Number,First Name,Last Name\n77,Zoë,Müller\n"
    roster = read_roster("r.csv", text.encode("latin-1"))
    assert roster.rows[0].first_name == "Zoë" and roster.rows[0].last_name == "Müller"
    tabbed = "No.\tFIRST\tlast\n78\tAl\tBee\n".encode("utf-16")
    roster = read_roster("r.txt", tabbed)
    assert roster.rows[0].membership_number == "78"


def test_ambiguous_dates_are_read_month_first_and_the_preview_says_so():
    text = "card,first name,surname,joined\n5,Al,Bee,03/04/2021\n"
    roster = read_roster("r.csv", text.encode())
    assert roster.rows[0].joined == dt.date(2021, 3, 4)
    assert (roster.dates.order, roster.dates.how) == ("mdy", "unclear")
    assert roster.dates.both_ways == [(2, "03/04/2021")]
    assert any("month first" in note for note in roster.dates.notes())
    roster = read_roster("r.csv", text.encode(), date_order=DAY_FIRST)
    assert roster.rows[0].joined == dt.date(2021, 4, 3)


@pytest.mark.parametrize(("language", "order", "read"), [("es", "dmy", 4), ("pt-br", "dmy", 4)])
def test_ambiguous_dates_are_read_day_first_in_a_spanish_or_portuguese_club(
    club, language, order, read
):
    club.language_code = language
    club.save(update_fields=["language_code"])
    text = "card,first name,surname,joined\n5,Al,Bee,03/04/2021\n"
    roster = read_roster("r.csv", text.encode())
    assert roster.rows[0].joined == dt.date(2021, read, 3)
    assert (roster.dates.order, roster.dates.how) == (order, "unclear")
    assert any("choose month first" in note for note in roster.dates.notes())
    # The file's own dates still decide: 12/25/2019 can only be month first.
    text += "6,Cy,Dee,12/25/2019\n"
    assert read_roster("r.csv", text.encode()).rows[0].joined == dt.date(2021, 3, 4)


def test_an_accented_letter_before_the_at_is_told_plainly():
    text = (
        "card,first name,surname,email\n"
        "5,Inés,Ortega,inés.8@example.org\n6,Al,Bee,al@correo.españa.es\n"
    )
    roster = read_roster("r.csv", text.encode())
    [refused] = roster.refused
    assert "accent before the @ (é)" in refused.reason
    assert "usually written ines.8@example.org" in refused.reason
    # Django accepts an internationalised domain; so does the roster.
    assert roster.rows[0].email == "al@correo.españa.es"


def test_a_date_against_the_files_order_is_refused():
    text = (
        "card,first name,surname,joined\n"
        "5,Al,Bee,25/04/2021\n6,Cy,Dee,26/04/2021\n7,Ed,Eff,04/27/2021\n"
    )
    roster = read_roster("r.csv", text.encode())
    assert [r.line for r in roster.refused] == [4]
    assert "does not fit" in roster.refused[0].reason


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, ".xls"),
        (b"PK\x03\x04" + b"garbage" * 50, "Excel workbook"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a roster"),
        (b"date,amount,shop\n2024-01-01,12.50,Corner\n", "no header row"),
        (b"number,email\n1,a@b.org\n", "no first name or name column"),
        (b"Membership number,First name\n", "no member rows"),
    ],
)
def test_a_file_that_is_not_a_roster_gets_one_clear_message(data, words):
    with pytest.raises(RosterError) as error:
        read_roster("upload.csv", data)
    assert words in str(error.value)


def test_xlsx_with_the_roster_on_a_second_sheet():
    wb = Workbook()
    wb.active.append(["Notes for the treasurer"])
    sheet = wb.create_sheet("Members")
    sheet.append(["Member #", "Full name"])
    sheet.append([12, "Ann Marie Adams"])
    buffer = io.BytesIO()
    wb.save(buffer)
    roster = read_roster("r.xlsx", buffer.getvalue())
    assert roster.sheet == "Members"
    assert (roster.rows[0].first_name, roster.rows[0].last_name) == ("Ann Marie", "Adams")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Adams, Ann", ("Ann", "Adams")),
        ("Ann Adams", ("Ann", "Adams")),
        ("Ann", ("Ann", "")),
        ("Jan van Dijk", ("Jan", "van Dijk")),
        ("  Mary   Ann  Smith ", ("Mary Ann", "Smith")),
    ],
)
def test_split_name(text, expected):
    assert split_name(text) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Active", "active"),
        ("YES", "active"),
        (True, "active"),
        ("Lapsed", "lapsed"),
        ("no", "lapsed"),
        ("expired.", "lapsed"),
        ("", None),
        (None, None),
    ],
)
def test_status_words(value, expected):
    assert parse_status(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1234.0, "1234"),
        ("1234.0", "1234"),
        (" 1234 ", "1234"),
        (1234, "1234"),
        ("#0042", "0042"),
        ("A-12", "A-12"),
    ],
)
def test_membership_numbers_are_cleaned(value, expected):
    assert clean_number(value) == expected


# ----------------------------------------------------------------------------- saving


def test_import_creates_then_a_second_run_changes_nothing(db):
    roster = read_roster("roster.xlsx", messy_xlsx())
    plan = apply_import(roster)
    assert (len(plan.create), len(plan.update), len(plan.unchanged)) == (4, 0, 0)
    assert len(plan.refused) == 4
    ann = Person.objects.get(membership_number="1234")
    assert (ann.first_name, ann.last_name, ann.kind, ann.status) == (
        "Ann",
        "Adams",
        "member",
        "active",
    )
    assert Person.objects.get(membership_number="1235").status == "lapsed"

    again = apply_import(read_roster("roster.xlsx", messy_xlsx()))
    assert (len(again.create), len(again.update), len(again.unchanged)) == (0, 0, 4)
    assert again.summary().startswith("0 created, 0 updated, 4 unchanged")
    assert Person.objects.count() == 4


def test_import_updates_only_fields_that_differ_and_never_blanks(db, ann):
    ann.phone = "555-9999"
    ann.notes = "Keeps the tea fund"
    ann.save()
    text = "Membership number,First name,Last name,Email\n1001,Ann,Adams-Smith,\n"
    roster = read_roster("r.csv", text.encode())
    plan = plan_import(roster.rows)
    assert [(c.field, c.old, c.new) for c in plan.update[0].changes] == [
        ("last_name", "Adams", "Adams-Smith")
    ]
    apply_import(roster)
    ann.refresh_from_db()
    assert ann.last_name == "Adams-Smith"
    assert ann.phone == "555-9999" and ann.email and ann.notes == "Keeps the tea fund"


def test_dry_run_saves_nothing(db):
    plan = apply_import(read_roster("r.xlsx", messy_xlsx()), dry_run=True)
    assert len(plan.create) == 4
    assert Person.objects.count() == 0


def test_preview_hints_at_a_guest_of_the_same_name(db):
    from members.tests.factories import GuestFactory

    GuestFactory(first_name="Hazel", last_name="Hill")
    plan = plan_import(read_roster("r.xlsx", messy_xlsx()).rows)
    hazel = next(p for p in plan.create if p.row.first_name == "Hazel")
    assert "guest named Hazel Hill" in hazel.hint


def test_roster_survives_the_session_round_trip():
    roster = read_roster("roster.xlsx", messy_xlsx())
    again = Roster.from_json(roster.to_json())
    assert again == roster


# ----------------------------------------------------------------------------- command


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("import_members", *args, stdout=out, stderr=err)
    except CommandError as error:
        code = error.returncode
        err.write(str(error))
    return code, out.getvalue(), err.getvalue()


def test_command_reports_refused_lines_exits_2_and_is_idempotent(db, tmp_path):
    path = write(tmp_path, "roster.xlsx", messy_xlsx())
    code, out, err = run(str(path))
    assert code == 2
    assert "line 8: The membership number is missing." in out
    assert "line 9: " in out and "line 11: " in out
    assert "line 7: duplicate of line 4" in out
    assert "line 12: same number as line 13, which wins" in out
    assert "4 created, 0 updated, 0 unchanged, 4 refused" in out
    assert "4 rows were refused" in err
    assert Person.objects.count() == 4

    code, out, _ = run(str(path))
    assert code == 2  # the same rows are still refused
    assert "0 created, 0 updated, 4 unchanged" in out
    assert Person.objects.count() == 4


def test_command_dry_run_saves_nothing(db, tmp_path):
    path = write(tmp_path, "roster.csv", MESSY_CSV.encode("utf-8-sig"))
    code, out, _ = run(str(path), "--dry-run")
    assert code == 2
    assert "Dry run, nothing saved" in out and "2 created" in out
    assert Person.objects.count() == 0


def test_command_clean_file_exits_0(db, tmp_path):
    path = write(tmp_path, "ok.csv", b"Number,First name,Last name\n1,Al,Bee\n2,Cy,Dee\n")
    code, out, _ = run(str(path))
    assert code == 0
    assert "2 created, 0 updated, 0 unchanged." in out
    code, out, _ = run(str(path))
    assert code == 0 and "0 created, 0 updated, 2 unchanged." in out


def test_command_not_a_roster_exits_1_with_one_line(db, tmp_path):
    path = write(tmp_path, "roster.xlsx", b"%PDF-1.4 this is a pdf")
    code, out, err = run(str(path))
    assert code == 1
    assert "PDF" in err and out == ""
    code, _, err = run(str(tmp_path / "missing.xlsx"))
    assert code == 1 and "Cannot read" in err


def test_command_day_first_option(db, tmp_path):
    path = write(tmp_path, "r.csv", b"card,first name,surname,joined\n5,Al,Bee,03/04/2021\n")
    code, _, _ = run(str(path), "--day-first")
    assert code == 0
    assert Person.objects.get().joined == dt.date(2021, 4, 3)


# ----------------------------------------------------------------------------- sample files

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["sample_roster.xlsx", "sample_roster.csv"])
def test_the_sample_rosters_against_the_demo_club(db, name):
    """members/tests/data holds two messy rosters that fit the demo club (load_demo):
    `manage.py import_members members/tests/data/sample_roster.xlsx` shows every case."""
    from members.tests.factories import GuestFactory, MemberFactory

    ann = MemberFactory(
        membership_number="1001",
        first_name="Ann",
        last_name="Adams",
        email="ann.adams@example.org",
        phone="555-0100",
        joined=dt.date(2015, 1, 10),
    )
    MemberFactory(
        membership_number="1002",
        first_name="Betty",
        last_name="Baker",
        email="betty.baker@example.org",
        phone="555-0101",
        joined=dt.date(2016, 2, 11),
    )
    MemberFactory(
        membership_number="1023", first_name="Frank", last_name="Young", status=Person.Status.LAPSED
    )
    GuestFactory(first_name="Harold", last_name="Visitor", brought_by=ann)

    roster = read_roster(name, (DATA / name).read_bytes())
    plan = apply_import(roster)
    assert [p.row.membership_number for p in plan.create] == ["1025", "1026", "1028"]
    assert {p.row.membership_number: [c.field for c in p.changes] for p in plan.update} == {
        "1002": ["phone"],
        "1023": ["status"],
    }
    assert [p.row.membership_number for p in plan.unchanged] == ["1001"]
    shift = roster.header_line - 3  # header on row 3 of the workbook, line 2 of the csv
    assert [(d.line, d.of_line) for d in plan.duplicates] == [(10 + shift, 8 + shift)]
    assert [r.line for r in plan.refused] == [n + shift for n in (11, 12)]
    assert [(r.line, r.by_line) for r in plan.replaced] == [(13 + shift, 14 + shift)]
    assert Person.objects.get(membership_number="1028").full_name == "Mia Moss"
    assert "guest named Harold Visitor" in plan.create[0].hint
    assert Person.objects.get(membership_number="1026").joined == dt.date(2024, 3, 15)

    again = apply_import(read_roster(name, (DATA / name).read_bytes()))
    assert again.summary().startswith("0 created, 0 updated, 6 unchanged")


def test_the_person_form_says_the_same_of_an_accented_address(db):
    from members.forms import PersonForm

    form = PersonForm(
        data={
            "kind": "member",
            "first_name": "Inés",
            "last_name": "Ortega",
            "email": "inés.8@example.org",
        }
    )
    assert not form.is_valid()
    assert "usually written ines.8@example.org" in form.errors["email"][0]
