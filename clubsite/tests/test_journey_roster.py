"""Journey: a roster import on a phone, in a real browser.

An officer uploads a roster typed carelessly ("ann,ADAMS", a membership number on two
rows, day-first dates), sees in the preview how its names and dates were read and which
rows became one person, chooses to read the dates the other way, and imports it.
"""

import datetime

import pytest
from playwright.sync_api import expect

from members.models import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSTER = (
    "Membership number,First name,Last name,Joined\n"
    "1001,ann,ADAMS,25/12/2019\n"
    "1002,JAN,van der Berg,03/04/2021\n"
    "1001,ann,ADAMS-SMITH,\n"
)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_a_roster_import_shows_names_duplicates_and_dates_before_saving(
    journey, officer_user, tmp_path
):
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER)
    page = journey.page
    journey.login("officer", "officer-pass-123")
    journey.goto("/people/import/")
    page.get_by_label("Roster file (.xlsx or .csv)").set_input_files(str(path))
    page.get_by_role("button", name="Preview").click()

    expect(
        page.get_by_role("heading", name="How are the dates in this file written?")
    ).to_be_visible()
    expect(page.get_by_text("Read day first (DD/MM/YYYY)", exact=True)).to_be_visible()
    expect(page.get_by_text("Row 2: 25/12/2019")).to_be_visible()
    expect(page.get_by_text("Row 3: 03/04/2021, read as 3 April 2021")).to_be_visible()
    expect(page.get_by_text("Row 4: Ann Adams-Smith")).to_be_visible()
    expect(page.get_by_role("cell", name="Jan van der Berg")).to_be_visible()
    journey.step("preview with the date order")

    page.get_by_label("Month first: 03/04/2021 is March 4, 2021").check()
    page.get_by_role("button", name="Read the dates this way").click()
    expect(page.get_by_text("Row 3: 03/04/2021, read as 4 March 2021")).to_be_visible()
    journey.step("dates read month first")
    assert Person.objects.count() == 0

    page.get_by_role("button", name="Import:").click()
    expect(page.get_by_text("Roster imported:")).to_be_visible()
    assert Person.objects.get(membership_number="1002").joined == datetime.date(2021, 3, 4)
    assert Person.objects.get(membership_number="1001").full_name == "Ann Adams-Smith"
