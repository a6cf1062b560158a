"""People: the list (filters, sorting, CSV), a person's page, adding and editing,
a guest who joins, logins, the import page and the member's own page."""

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from members.models import Person, SignIn
from members.roster.plan import plan_import
from members.roster.read import read_roster
from members.services.errors import LoginRefused
from members.services.merge import merge_people
from members.services.people import create_login
from members.tests.factories import GuestFactory, MemberFactory, SignInFactory
from members.tests.test_importer import messy_xlsx

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


# ----------------------------------------------------------------------------- the list


def test_people_list_filters_sorts_and_paginates(officer_client, ann, bob):
    GuestFactory(first_name="Gina", last_name="Guest", brought_by=ann)
    MemberFactory(first_name="Liz", last_name="Lapse", status=Person.Status.LAPSED)
    url = reverse("members:people")
    page = officer_client.get(url).content.decode()
    assert "Ann" in page and "Gina" in page and "Guest of Ann Adams" in page
    page = officer_client.get(url, {"kind": "guest"}).content.decode()
    assert "Gina" in page and "Bob" not in page
    page = officer_client.get(url, {"status": "lapsed"}).content.decode()
    assert "Liz" in page and "Bob" not in page
    page = officer_client.get(url, {"q": "1002"}).content.decode()
    assert "Bob" in page and "Ann Adams</a>" not in page
    response = officer_client.get(url, {"sort": "-name"})
    names = [p.last_name for p in response.context["table"].page.object_list.data]
    assert names == sorted(names, reverse=True)
    for _ in range(55):
        MemberFactory()
    response = officer_client.get(url, {"page": 2})
    assert response.status_code == 200 and len(response.context["table"].page) == 9


def test_people_list_hides_merged_records(officer_client, ann, bob):
    merge_people(ann, bob)
    page = officer_client.get(reverse("members:people")).content.decode()
    assert "Bob" not in page


def test_people_csv_download_can_be_imported_back(officer_client, ann, bob, day):
    SignInFactory(day=day, person=ann)
    response = officer_client.get(reverse("members:people"), {"format": "csv", "q": "adams"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Membership number", "First name", "Last name"]
    assert rows[1][:3] == ["1001", "Ann", "Adams"] and len(rows) == 2
    assert rows[1][rows[0].index("Visits")] == "1"
    roster = read_roster("people.csv", response.content)
    plan = plan_import(roster.rows)
    assert len(plan.unchanged) == 1 and not plan.refused


def test_people_list_query_budget(officer_client, django_assert_max_num_queries):
    for _ in range(3):
        GuestFactory()
    url = reverse("members:people")
    with django_assert_max_num_queries(12) as few:
        officer_client.get(url)
    for _ in range(40):
        guest = GuestFactory()
        SignInFactory(person=guest, brought_by=guest.brought_by)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = officer_client.get(url)
    assert response.status_code == 200


# ----------------------------------------------------------------------------- one person


def test_person_page_shows_visits_and_actions(officer_client, ann, day):
    SignInFactory(day=day, person=ann)
    page = officer_client.get(reverse("members:person", args=[ann.pk])).content.decode()
    assert "1 visit" in page and "Create login" in page and "Merge with another record" in page
    assert officer_client.get(reverse("members:person", args=[99999])).status_code == 404


def test_add_a_member_and_a_guest(officer_client, ann):
    url = reverse("members:person_new")
    response = officer_client.post(
        url,
        {
            "kind": "member",
            "membership_number": " 1003.0 ",
            "first_name": "Cy",
            "last_name": "Clark",
            "status": "active",
        },
    )
    cy = Person.objects.get(first_name="Cy")
    assert response.url == reverse("members:person", args=[cy.pk])
    assert cy.membership_number == "1003"
    response = officer_client.post(
        url, {"kind": "member", "membership_number": "1001", "first_name": "X", "status": "active"}
    )
    assert "already belongs to Ann Adams" in response.content.decode()
    response = officer_client.post(url, {"kind": "member", "first_name": "X", "status": "active"})
    assert "A member needs a membership number" in response.content.decode()
    response = officer_client.post(url, {"kind": "guest", "first_name": "Gus", "status": "active"})
    assert "Choose the member who brought this guest" in response.content.decode()
    response = officer_client.post(
        url,
        {
            "kind": "guest",
            "first_name": "Gus",
            "membership_number": "55",
            "brought_by": ann.pk,
            "status": "active",
        },
    )
    gus = Person.objects.get(first_name="Gus")
    assert gus.is_guest and gus.membership_number is None and gus.brought_by == ann


def test_a_number_typed_with_a_hash_is_the_same_number_as_on_the_roster(officer_client, ann):
    url = reverse("members:person_new")
    data = {"kind": "member", "first_name": "Cy", "last_name": "Clark", "status": "active"}
    officer_client.post(url, {**data, "membership_number": "#1003"})
    assert Person.objects.get(first_name="Cy").membership_number == "1003"
    response = officer_client.post(url, {**data, "first_name": "Dup", "membership_number": "#1001"})
    assert "Number 1001 already belongs to Ann Adams" in response.content.decode()
    guest = GuestFactory(first_name="Gina", last_name="Guest")
    convert = reverse("members:person_convert", args=[guest.pk])
    officer_client.post(convert, {"membership_number": "#1900"})
    guest.refresh_from_db()
    assert guest.is_member and guest.membership_number == "1900"


def test_edit_a_person(officer_client, ann):
    url = reverse("members:person_edit", args=[ann.pk])
    assert officer_client.get(url).status_code == 200
    response = officer_client.post(
        url,
        {
            "membership_number": "1001",
            "first_name": "Ann",
            "last_name": "Adams",
            "email": "new@example.org",
            "status": "lapsed",
            "joined": "2015-01-10",
        },
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.email == "new@example.org" and ann.is_lapsed
    change = ann.history.first()
    assert change.history_type == "~" and change.history_user.username == "officer"
    response = officer_client.post(url, {"first_name": "", "email": "nope"})
    assert response.status_code == 200 and "errorlist" in response.content.decode()


def test_a_guest_who_joins_keeps_their_sign_ins(officer_client, day, ann):
    guest = GuestFactory(first_name="Gina", last_name="Guest")
    SignInFactory(day=day, person=guest, brought_by=ann)
    url = reverse("members:person_convert", args=[guest.pk])
    assert "Make Gina Guest a member" in officer_client.get(url).content.decode()
    response = officer_client.post(url, {"membership_number": "1001"})
    assert "already belongs to Ann Adams" in response.content.decode()
    response = officer_client.post(url, {"membership_number": "1900", "email": "g@example.org"})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.is_member and guest.membership_number == "1900" and guest.joined
    assert SignIn.objects.get(day=day).person == guest  # same row, same history


def test_create_login_shows_the_password_once(officer_client, ann):
    url = reverse("members:person_login", args=[ann.pk])
    response = officer_client.post(url, {"action": "create"})
    assert response.status_code == 200
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"no-store", "private"} <= cache_control  # the password is kept nowhere
    password = response.context["password"]
    ann.refresh_from_db()
    assert ann.user.username == "ann.adams"
    assert ann.user.check_password(password)
    assert password in response.content.decode()
    response = officer_client.post(url, {"action": "create"}, follow=True)
    assert "already has a login" in response.content.decode()
    response = officer_client.post(url, {"action": "reset"})
    ann.user.refresh_from_db()
    assert ann.user.check_password(response.context["password"])
    assert not ann.user.check_password(password)


def test_login_usernames_do_not_clash(db):
    get_user_model().objects.create_user("ann.adams")
    twin = MemberFactory(first_name="Ann", last_name="Adams")
    user, _ = create_login(twin)
    assert user.username == "ann.adams2"
    with pytest.raises(LoginRefused, match="Guests"):
        create_login(GuestFactory())


# ----------------------------------------------------------------------------- import page


def upload(name, data, content_type="text/csv"):
    return SimpleUploadedFile(name, data, content_type=content_type)


def test_import_page_preview_then_confirm(officer_client):
    url = reverse("members:import")
    assert officer_client.get(url).status_code == 200
    response = officer_client.post(
        url, {"file": upload("roster.xlsx", messy_xlsx(), XLSX), "date_order": "auto"}
    )
    page = response.content.decode()
    assert "nothing is saved yet" in page
    assert "Shoe size" in page  # ignored column listed
    plan = response.context["plan"]
    assert (len(plan.create), len(plan.update), len(plan.refused)) == (4, 0, 4)
    assert [r.line for r in plan.refused] == [8, 9, 10, 11]
    assert "Rows with the same membership number (read as one person)" in page
    assert "Row 12: Fran Foster" in page and "Row 13: Grace Garcia" in page
    assert "The membership number is missing." in page
    assert Person.objects.count() == 0  # nothing saved before confirming

    token = response.context["token"]
    response = officer_client.post(url, {"action": "confirm", "token": token}, follow=True)
    page = response.content.decode()
    assert "Roster imported: 4 created, 0 updated, 0 unchanged, 4 refused" in page
    assert "These rows were not imported" in page
    assert Person.objects.count() == 4

    response = officer_client.post(url, {"action": "confirm", "token": token}, follow=True)
    page = response.content.decode()
    assert "This roster was already confirmed" in page
    assert "Roster imported: 4 created, 0 updated, 0 unchanged, 4 refused" in page
    assert Person.objects.count() == 4


def test_import_confirm_checks_the_database_again(officer_client):
    url = reverse("members:import")
    response = officer_client.post(
        url, {"file": upload("r.csv", b"No.,First,Last\n5,Al,Bee\n"), "date_order": "auto"}
    )
    MemberFactory(membership_number="5", first_name="Al", last_name="Old")  # meanwhile
    officer_client.post(url, {"action": "confirm", "token": response.context["token"]})
    assert Person.objects.get(membership_number="5").last_name == "Bee"
    assert Person.objects.count() == 1


def test_import_page_not_a_roster(officer_client):
    url = reverse("members:import")
    response = officer_client.post(
        url, {"file": upload("roster.csv", b"%PDF-1.5 binary"), "date_order": "auto"}
    )
    page = response.content.decode()
    message = (
        "This is a PDF document, not a roster. Open the roster in your spreadsheet "
        "program and save it as .xlsx or .csv."
    )
    assert response.context["roster_error"] == message
    assert "This file cannot be imported" in page and message in page
    assert "plan" not in response.context  # no preview


def test_import_page_cancel_and_size_limit(officer_client, monkeypatch):
    url = reverse("members:import")
    response = officer_client.post(url, {"action": "cancel"}, follow=True)
    assert "nothing was saved" in response.content.decode()
    monkeypatch.setattr("members.roster.read.MAX_UPLOAD_BYTES", 10)
    response = officer_client.post(
        url, {"file": upload("big.csv", b"x" * 100), "date_order": "auto"}
    )
    assert "too large" in response.content.decode()
    response = officer_client.post(url, {"date_order": "auto"})
    assert response.context["form"].errors["file"] == ["This field is required."]  # no file


# ----------------------------------------------------------------------------- my page


def test_member_sees_own_page_but_not_others(member_client, member_person, ann, day):
    SignInFactory(day=day, person=member_person)
    page = member_client.get(reverse("members:me")).content.decode()
    assert "Mary Member" in page and "mary@example.org" in page and "555-0101" in page
    assert "Ann Adams" not in page and ann.email not in page and ann.phone not in page
    assert member_client.get(reverse("members:person", args=[ann.pk])).status_code == 403
    assert member_client.get(reverse("members:people")).status_code == 403
    response = member_client.get(reverse("members:people"), {"format": "csv"})
    assert response.status_code == 403


def test_a_login_without_a_person_gets_a_kind_explanation(officer_client):
    page = officer_client.get(reverse("members:me")).content.decode()
    assert "not linked to a member" in page and "Create login" in page


def test_csv_download_is_safe_from_spreadsheet_formulas(officer_client):
    MemberFactory(
        first_name="=HyperLink(1)",
        last_name="Evil",
        membership_number="66",
        phone="+1 555 0100",
        email="",
    )
    response = officer_client.get(reverse("members:people"), {"format": "csv"})
    text = response.content.decode("utf-8-sig")
    assert "'=HyperLink(1)" in text and "'+1 555 0100" in text
    roster = read_roster("people.csv", response.content)
    assert roster.rows[0].first_name == "=HyperLink(1)" and roster.rows[0].phone == "+1 555 0100"


def test_notes_that_look_like_formulas_come_back_unchanged(officer_client):
    MemberFactory(membership_number="67", notes="- prefers table 1")
    response = officer_client.get(reverse("members:people"), {"format": "csv"})
    assert "'- prefers table 1" in response.content.decode("utf-8-sig")
    roster = read_roster("people.csv", response.content)
    assert roster.rows[0].notes == "- prefers table 1"
    plan = plan_import(roster.rows)
    assert len(plan.unchanged) == 1 and not plan.update


def test_save_person_writes_one_row_with_the_officer_in_its_history(officer_user):
    from members.services import save_person

    person = Person(
        kind=Person.Kind.MEMBER, membership_number="4242", first_name="Zoe", last_name="Zed"
    )
    saved = save_person(person, by=officer_user)
    assert Person.objects.filter(membership_number="4242").count() == 1
    assert saved.history.get().history_user == officer_user


def test_notes_have_a_length_cap_the_form_states(officer_client):
    url = reverse("members:person_new")
    page = officer_client.get(url).content.decode()
    assert "At most 2,000 characters." in page and 'maxlength="2000"' in page
    response = officer_client.post(
        url,
        {
            "kind": "member",
            "membership_number": "7777",
            "first_name": "Long",
            "last_name": "Notes",
            "status": "active",
            "notes": "x" * 200_000,
        },
    )
    assert response.status_code == 200
    assert "at most 2000 characters (it has 200000)" in response.content.decode()
    assert not Person.objects.filter(membership_number="7777").exists()


def test_people_csv_quotes_a_name_holding_a_separator(officer_client, ann):
    """A spreadsheet whose list separator is ';' keeps "Smith;=1+1" in one cell."""
    ann.last_name = "Smith;=1+1"
    ann.save()
    response = officer_client.get(reverse("members:people"), {"format": "csv"})
    text = response.content.decode("utf-8-sig")
    assert '"Smith;=1+1"' in text
