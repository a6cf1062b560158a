"""Names tidied where they are typed (the roster import, the door, the person form),
two roster rows with one membership number read as one person, and the roster's date
order shown as a choice with the rows that decided it."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from members.forms import PersonForm
from members.models import Person
from members.names import tidy_name
from members.roster.plan import apply_import, plan_import
from members.roster.read import Roster, read_roster
from members.services.door import add_guest
from members.tests.factories import MemberFactory

# ----------------------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    "typed, tidied",
    [
        ("ann", "Ann"),
        ("ADAMS", "Adams"),
        ("  mary   newcomer ", "Mary Newcomer"),
        ("o'neill", "O'Neill"),
        ("ADAMS-SMITH", "Adams-Smith"),
        ("mcdonald", "McDonald"),
        ("VAN DER BERG", "van der Berg"),
        ("ÉLODIE", "Élodie"),
        ("ann marie", "Ann Marie"),
        # Mixed case was typed with care: kept as typed.
        ("McDonald", "McDonald"),
        ("van der Berg", "van der Berg"),
        ("O'Neill", "O'Neill"),
        ("DeShawn", "DeShawn"),
        ("", ""),
        ("J.", "J."),
    ],
)
def test_tidy_name(typed, tidied):
    assert tidy_name(typed) == tidied


@given(st.text(max_size=30))
def test_tidying_changes_only_case_and_spaces_and_only_once(text):
    once = tidy_name(text)
    assert tidy_name(once) == once
    assert once.casefold() == " ".join(text.split()).casefold()


@given(st.text(alphabet="abcXYZ '-", min_size=2, max_size=20))
def test_a_mixed_case_name_is_kept_as_typed(text):
    text = " ".join(text.split())
    if text not in (text.lower(), text.upper()):
        assert tidy_name(text) == text


# ----------------------------------------------------------------------------- the import

ROSTER = (
    "Membership number,First name,Last name,Joined\n"
    "1001,ann,ADAMS,25/12/2019\n"  # 2: day first (no 25th month)
    "1002,JAN,van der Berg,03/04/2021\n"  # 3: reads both ways
    "1003,Mary,McDonald,\n"  # 4
    "1001,ann,ADAMS-SMITH,\n"  # 5: 1001 again: the later row wins, its blank keeps 2
)


def test_a_roster_with_lowercase_and_capitals_duplicates_and_dd_mm_dates(db):
    roster = read_roster("r.csv", ROSTER.encode())
    rows = {row.membership_number: row for row in roster.rows}
    assert sorted(rows) == ["1001", "1002", "1003"]
    assert (rows["1001"].first_name, rows["1001"].last_name) == ("Ann", "Adams-Smith")
    assert rows["1001"].line == 5 and rows["1001"].joined == dt.date(2019, 12, 25)
    assert (rows["1002"].first_name, rows["1002"].last_name) == ("Jan", "van der Berg")
    assert rows["1002"].joined == dt.date(2021, 4, 3)  # day first, as row 2 shows
    assert rows["1003"].last_name == "McDonald"
    assert not roster.refused
    [replaced] = roster.replaced
    assert (replaced.line, replaced.by_line, replaced.number) == (2, 5, "1001")
    assert replaced.names_differ and replaced.by_name == "Ann Adams-Smith"
    assert (roster.dates.order, roster.dates.how) == ("dmy", "file")
    assert roster.dates.day_first == [(2, "25/12/2019")]
    assert roster.dates.both_ways == [(3, "03/04/2021")]
    plan = apply_import(roster)
    assert len(plan.create) == 3 and plan.replaced == roster.replaced
    assert Person.objects.get(membership_number="1001").full_name == "Ann Adams-Smith"


def test_a_member_on_file_is_not_renamed_by_a_row_in_capitals(db):
    MemberFactory(membership_number="1001", first_name="Ann", last_name="Adams")
    roster = read_roster("r.csv", b"Number,First,Last\n1001,ann,ADAMS\n")
    plan = plan_import(roster.rows)
    assert len(plan.unchanged) == 1 and not plan.update


def test_an_exact_duplicate_is_still_counted_once(db):
    roster = read_roster("r.csv", b"Number,First,Last\n7,Al,Bee\n7,Al,Bee\n")
    assert [(d.line, d.of_line) for d in roster.duplicates] == [(3, 2)]
    assert not roster.replaced and len(roster.rows) == 1


def test_the_dates_are_read_again_from_what_the_session_kept(db):
    roster = Roster.from_json(read_roster("r.csv", ROSTER.encode()).to_json())
    roster.reread("mdy")
    rows = {row.membership_number: row for row in roster.rows}
    assert rows["1002"].joined == dt.date(2021, 3, 4)
    assert (roster.dates.order, roster.dates.how) == ("mdy", "chosen")
    # Row 2's 25/12/2019 cannot be month first: refused; row 5 (the same number) stays.
    assert [r.line for r in roster.refused] == [2] and "does not fit" in roster.refused[0].reason
    assert rows["1001"].line == 5 and not roster.replaced


def test_a_file_without_such_dates_keeps_no_cells(db):
    roster = read_roster("r.csv", b"Number,First,Last,Joined\n7,Al,Bee,2021-04-03\n")
    assert not roster.dates.asks and roster.records == []


# ----------------------------------------------------------------------------- the page


def _upload(client, text):
    data = {"file": SimpleUploadedFile("r.csv", text.encode(), "text/csv"), "date_order": "auto"}
    return client.post(reverse("members:import"), data)


def test_the_preview_shows_the_date_order_as_a_choice_and_reads_again(officer_client):
    response = _upload(officer_client, ROSTER)
    page = response.content.decode()
    assert "How are the dates in this file written?" in page
    assert "Read day first (DD/MM/YYYY)" in page
    assert "Row 2: 25/12/2019" in page and "Row 3: 03/04/2021, read as 3 April 2021" in page
    assert response.context["date_form"].initial == {"date_order": "dmy"}
    assert "Rows with the same membership number (read as one person)" in page
    assert Person.objects.count() == 0

    url = reverse("members:import")
    token = response.context["token"]
    response = officer_client.post(
        url, {"action": "dates", "token": token, "dates-date_order": "mdy"}
    )
    page = response.content.decode()
    assert "Read month first (MM/DD/YYYY)" in page and ", as you chose." in page
    assert "Row 3: 03/04/2021, read as 4 March 2021" in page
    assert Person.objects.count() == 0

    new_token = response.context["token"]
    assert new_token != token
    officer_client.post(url, {"action": "confirm", "token": new_token})
    assert Person.objects.get(membership_number="1002").joined == dt.date(2021, 3, 4)


def test_reading_the_dates_again_needs_a_live_preview(officer_client):
    response = officer_client.post(
        reverse("members:import"),
        {"action": "dates", "token": "stale", "dates-date_order": "mdy"},
        follow=True,
    )
    assert "expired or was already imported" in response.content.decode()


# ----------------------------------------------------------------------------- door, form


def test_a_guest_typed_at_the_door_is_tidied(day, ann):
    record = add_guest(day, "mary", "NEWCOMER", ann)
    assert record.person.full_name == "Mary Newcomer"
    record = add_guest(day, "Jo", "van der Berg", ann)
    assert record.person.full_name == "Jo van der Berg"


def _person_data(**values):
    data = {
        "kind": "member",
        "membership_number": "77",
        "first_name": "ann",
        "last_name": "ADAMS",
        "email": "",
        "phone": "",
        "status": "active",
        "joined": "",
        "notes": "",
    }
    return {**data, **values}


def test_the_person_form_tidies_a_name_as_typed(db):
    form = PersonForm(_person_data())
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["first_name"], form.cleaned_data["last_name"]) == ("Ann", "Adams")


def test_the_person_form_leaves_a_name_on_file_alone(db):
    person = MemberFactory(membership_number="77", first_name="ann", last_name="ADAMS")
    data = _person_data(phone="555-1234")
    del data["kind"]
    form = PersonForm(data, instance=person)
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["first_name"], form.cleaned_data["last_name"]) == ("ann", "ADAMS")
    form = PersonForm({**data, "last_name": "SMITH"}, instance=person)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["last_name"] == "Smith"


def test_an_xlsx_keeps_its_date_cells_through_the_session(db):
    import io
    import json

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Number", "First", "Last", "Joined"])
    ws.append([1, "Al", "Bee", dt.datetime(2020, 5, 17)])  # a real date cell
    ws.append([2, "Cy", "Dee", "03/04/2021"])  # a text date that reads both ways
    buffer = io.BytesIO()
    wb.save(buffer)
    roster = read_roster("r.xlsx", buffer.getvalue())
    assert roster.dates.asks and len(roster.records) == 2
    kept = Roster.from_json(json.loads(json.dumps(roster.to_json())))
    assert kept.records == roster.records
    kept.reread("dmy")
    joined = {row.first_name: row.joined for row in kept.rows}
    assert joined == {"Al": dt.date(2020, 5, 17), "Cy": dt.date(2021, 4, 3)}
