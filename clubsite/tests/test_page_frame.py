"""The frame every page draws (base.html): the menu (includes/nav.html) marks the page
you are on and shows an officer's links only to officers, the header and footer link home
and out, and the home page's room-code box is the box of includes/code_box.html."""

import pytest
from django.template import engines
from django.test import RequestFactory
from django.urls import reverse

from members.clubs.context_processors import club as club_context

pytestmark = pytest.mark.django_db


def test_the_menu_marks_the_current_page(rf: RequestFactory, officer_user, club):
    request = rf.get(reverse("scoring:standings"))
    request.user = officer_user
    request.club = club  # as the clubs middleware sets it
    context = club_context(request)
    current = [item["label"] for item in context["nav_items"] if item["current"]]
    assert current == ["Standings"]
    assert "People" in [item["label"] for item in context["nav_items"]]  # an officer's menu


def test_the_menu_is_drawn_with_its_links(officer_client):
    page = officer_client.get(reverse("scoring:standings")).content.decode()
    standings = reverse("scoring:standings")
    assert f'<li><a href="{standings}" aria-current="page">Standings</a></li>' in page
    assert f'<li><a href="{reverse("members:people")}">People</a></li>' in page


def test_a_members_menu_has_no_officer_links(member_client):
    page = member_client.get(reverse("home")).content.decode()
    assert f'<li><a href="{reverse("members:me")}">My page</a></li>' in page
    assert "People" not in page


def _box(name, label, value, error) -> str:
    template = engines["django"].get_template("includes/code_box.html")
    return template.render({"name": name, "label": label, "value": value, "error": error})


@pytest.mark.parametrize("code, error", [("", ""), ('AB<"C&', "Not a room & <code>")])
def test_the_home_page_box_is_the_code_box(rf, code, error):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/")
    request.user = AnonymousUser()
    context = {"room_code": code, "room_error": error}
    page = engines["django"].get_template("home.html").render(context, request)
    assert _box("room_code", "Room code", code, error) in page


def test_the_frame_links_home_and_out(officer_client):
    page = officer_client.get(reverse("home")).content.decode()
    assert f'<a class="brand" href="{reverse("home")}">' in page
    assert f'action="{reverse("logout")}"' in page
    assert f'href="{reverse("password_change")}"' in page
