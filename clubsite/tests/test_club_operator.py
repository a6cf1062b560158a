"""The platform operator (a superuser) manages clubs in the admin: finds them, suspends
and reopens them, renames them and moves them to another slug, whose old one then
redirects for good. A suspended club shows nothing to anyone, its own officers and
table phones included; the admin still shows the operator its data. Only superusers
reach the clubs in the admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from members.clubs.scope import in_club
from members.clubs.services import create_club, move_club
from members.models import Club, ClubSlugRedirect, Person
from members.permissions import make_officer
from members.tests.factories import MemberFactory, TableFactory

CHANGELIST = "/admin/members/club/"
MARK = "Zelqwyn"


pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def south(other_club):
    """Club B with a member (named MARK, so a leak shows) and a table of today."""
    with in_club(other_club):
        MemberFactory(first_name=MARK, last_name="Quist", membership_number="77")
        other_club.table = TableFactory()
    return other_club


def change_data(club, **changes) -> dict:
    """The admin change form of ``club``, as a browser sends it."""
    data = {
        "name": club.name,
        "slug": club.slug,
        "host": club.host or "",
        "time_zone": club.time_zone,
        "language_code": club.language_code,
        "paper": club.paper,
        "results_sender_name": club.results_sender_name,
        "results_reply_to": club.results_reply_to,
        "slug_redirects-TOTAL_FORMS": "0",
        "slug_redirects-INITIAL_FORMS": "0",
        "slug_redirects-MIN_NUM_FORMS": "0",
        "slug_redirects-MAX_NUM_FORMS": "1000",
    }
    if club.is_active:
        data["is_active"] = "on"
    if club.root_links:
        data["root_links"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_the_operator_lists_and_searches_clubs(admin_client, south):
    page = admin_client.get(CHANGELIST, {"q": "sou"}).content.decode()
    assert "South Club" in page
    assert "South Club" not in admin_client.get(CHANGELIST, {"q": "nomatch"}).content.decode()


def test_suspending_and_reopening_with_the_admin_actions(admin_client, south):
    response = admin_client.post(
        CHANGELIST, {"action": "suspend_clubs", "_selected_action": [south.pk]}
    )
    assert response.status_code == 302
    south.refresh_from_db()
    assert not south.is_active
    assert Client().get("/south/").status_code == 403
    admin_client.post(CHANGELIST, {"action": "reopen_clubs", "_selected_action": [south.pk]})
    south.refresh_from_db()
    assert south.is_active and Client().get("/south/").status_code == 200


def test_renaming_a_club(admin_client, south):
    url = f"{CHANGELIST}{south.pk}/change/"
    response = admin_client.post(url, change_data(south, name="South Hills Club"))
    assert response.status_code == 302
    south.refresh_from_db()
    assert south.name == "South Hills Club" and south.slug == "south"
    assert "South Hills Club" in Client().get("/south/").content.decode()


def test_moving_a_club_redirects_its_old_addresses_for_good(admin_client, south):
    url = f"{CHANGELIST}{south.pk}/change/"
    response = admin_client.post(url, change_data(south, slug="south-hills"))
    assert response.status_code == 302
    south.refresh_from_db()
    assert south.slug == "south-hills"
    assert ClubSlugRedirect.objects.get(old_slug="south").club == south

    visitor = Client()
    moved = visitor.get("/south/days/?week=2")
    assert moved.status_code == 301 and moved["Location"] == "/south-hills/days/?week=2"
    assert visitor.get("/south")["Location"] == "/south-hills/"
    token = south.table.token
    table_link = visitor.get(f"/south/t/{token}/")
    assert table_link.status_code == 301
    assert table_link["Location"] == f"/south-hills/t/{token}/"
    posted = visitor.post("/south/room/", {"room_code": "ABCDEFGH"})
    assert posted.status_code == 308 and posted["Location"] == "/south-hills/room/"
    assert visitor.get("/south-hills/").status_code == 200


def test_an_old_slug_cannot_be_taken_by_another_club(admin_client, club, south):
    move_club(south, "south-hills")
    url = f"{CHANGELIST}{club.pk}/change/"
    page = admin_client.post(url, change_data(club, slug="south"))
    assert page.status_code == 200
    assert "was another club&#x27;s address" in page.content.decode()
    club.refresh_from_db()
    assert club.slug != "south"
    with pytest.raises(ValidationError):
        create_club("south", "Another South")


@pytest.mark.parametrize("slug", ["admin", "accounts", "days", "Bad Slug"])
def test_a_reserved_or_bad_slug_is_refused_in_the_admin(admin_client, south, slug):
    url = f"{CHANGELIST}{south.pk}/change/"
    page = admin_client.post(url, change_data(south, slug=slug))
    assert page.status_code == 200 and 'class="errorlist' in page.content.decode()
    south.refresh_from_db()
    assert south.slug == "south"


def test_a_club_in_use_keeps_its_slug(admin_client, club, south):
    page = admin_client.post(f"{CHANGELIST}{south.pk}/change/", change_data(south, slug=club.slug))
    assert "Another club has the address" in page.content.decode()


def test_a_club_can_move_back_to_its_own_old_slug(south):
    move_club(south, "south-hills")
    move_club(south, "south")
    assert list(ClubSlugRedirect.objects.values_list("old_slug", flat=True)) == ["south-hills"]
    assert Client().get("/south-hills/days/")["Location"] == "/south/days/"
    assert Client().get("/south/").status_code == 200


def test_two_moves_both_lead_to_the_slug_now(south):
    move_club(south, "second")
    move_club(south, "third")
    assert Client().get("/south/x/")["Location"] == "/third/x/"
    assert Client().get("/second/")["Location"] == "/third/"


# A suspended club shows nothing, to anyone.


@pytest.fixture
def suspended(south, django_user_model):
    officer = django_user_model.objects.create_user("south-officer", password="pw-12345-x")
    make_officer(officer, south)
    member = django_user_model.objects.create_user("south-member", password="pw-12345-x")
    with in_club(south):
        Person.objects.filter(first_name=MARK).update(user=member)
    south.is_active = False
    south.save()
    south.people = {"officer": officer, "member": member}
    return south


@pytest.mark.parametrize("who", ["anonymous", "officer", "member", "superuser"])
def test_a_suspended_club_shows_everyone_only_that_it_is_suspended(suspended, who, admin_user):
    browser = Client()
    user = {"anonymous": None, "superuser": admin_user, **suspended.people}[who]
    if user is not None:
        browser.force_login(user)
    token = suspended.table.token
    for path in [
        "/south/",
        "/south/people/",
        "/south/days/",
        "/south/settings/",
        f"/south/t/{token}/",
    ]:
        response = browser.get(path)
        body = response.content.decode()
        assert response.status_code == 403, path
        assert "suspended" in body and MARK not in body and "South Club" in body


def test_a_table_phone_typing_a_suspended_clubs_room_code_is_told_it_is_suspended(
    client, club, suspended
):
    response = client.post(
        f"/{club.slug}/room/", {"room_code": suspended.table.room_code}, follow=True
    )
    assert response.status_code == 403 and "suspended" in response.content.decode()


def test_a_suspended_club_is_not_listed_nor_offered_after_login(suspended, settings):
    settings.CLUBS_SHARED_SITE = True
    assert "South Club" not in Client().get("/").content.decode()
    member = Client()
    member.force_login(suspended.people["member"])
    assert "South Club" not in member.get("/accounts/clubs/").content.decode()


def test_the_operator_still_sees_a_suspended_clubs_data_in_the_admin(admin_client, suspended):
    page = admin_client.get("/admin/members/person/", {"q": MARK})
    assert page.status_code == 200 and MARK in page.content.decode()


def test_a_suspended_single_club_site_still_lets_the_operator_log_in(client, club):
    club.is_active = False
    club.save()
    assert client.get("/").status_code == 403
    assert client.get("/accounts/login/").status_code == 200


# Only superusers reach the clubs in the admin.


def test_an_officer_is_sent_to_the_login_page_and_changes_nothing(club, south, django_user_model):
    officer = django_user_model.objects.create_user("a-officer", password="pw-12345-x")
    make_officer(officer, club)
    browser = Client()
    browser.force_login(officer)
    response = browser.get(CHANGELIST)
    assert response.status_code == 302 and "login" in response["Location"]
    browser.post(f"{CHANGELIST}{south.pk}/change/", change_data(south, name="Taken over"))
    browser.post(CHANGELIST, {"action": "suspend_clubs", "_selected_action": [south.pk]})
    south.refresh_from_db()
    assert south.name == "South Club" and south.is_active


def test_staff_with_the_models_permissions_but_not_superuser_cannot_touch_clubs(
    club, south, django_user_model
):
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("staff", password="pw-12345-x", is_staff=True)
    make_officer(staff, club)
    staff.user_permissions.set(Permission.objects.filter(content_type__model="club"))
    browser = Client()
    browser.force_login(staff)
    for url in (CHANGELIST, f"{CHANGELIST}{south.pk}/change/", "/admin/"):
        response = browser.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    browser.post(f"{CHANGELIST}{south.pk}/change/", change_data(south, slug="mine"))
    south.refresh_from_db()
    assert south.slug == "south"


def test_staff_with_view_rights_on_people_and_games_get_no_admin(club, south, django_user_model):
    """The admin shows every club (it runs with the scope disabled): a staff login that
    is not a superuser gets none of it, whatever rights it was given."""
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user("viewer", password="pw-12345-x", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    browser = Client()
    browser.force_login(staff)
    for url in ("/admin/", "/admin/members/person/", "/admin/scoring/hand/"):
        response = browser.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/?next="), url


def test_the_admin_login_leads_to_the_sites_login(client):
    response = client.get(CHANGELIST)
    assert response.status_code == 302
    followed = client.get(response["Location"])
    assert followed.status_code == 302
    assert followed["Location"].startswith("/accounts/login/?next=")


def test_clubs_are_made_by_the_command_not_the_admin(admin_client):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}add/", {"name": "X", "slug": "x"}).status_code == 403
    assert not Club.objects.filter(slug="x").exists()


def test_the_change_page_shows_the_old_addresses_and_deleting_one_frees_the_slug(
    admin_client, south
):
    move_club(south, "south-hills")
    page = admin_client.get(f"{CHANGELIST}{south.pk}/change/").content.decode().lower()
    assert 'value="south-hills"' in page and "old addresses (they redirect here)" in page
    old = ClubSlugRedirect.objects.get(old_slug="south")
    response = admin_client.post(
        f"/admin/members/clubslugredirect/{old.pk}/delete/", {"post": "yes"}
    )
    assert response.status_code == 302
    assert Client().get("/south/").status_code != 301  # no longer the club's old address
    create_club("south", "A New South")
    assert Client().get("/south/").status_code == 200


def test_the_admins_history_pages_show_every_clubs_history(admin_client, club, south):
    """The admin runs with the scope disabled, so the scoped history managers show a
    superuser any club's history there."""
    ours = MemberFactory(first_name="Ours")
    with in_club(south):
        theirs = MemberFactory(first_name="Theirs")
    for person in (ours, theirs):
        response = admin_client.get(f"/admin/members/person/{person.pk}/history/")
        assert response.status_code == 200
        assert person.first_name in response.content.decode()
