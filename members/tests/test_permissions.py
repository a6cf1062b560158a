"""One test per permission boundary, for every members page: outsiders go to the login
page, members get 403 (they only have their own page), officers get in."""

import pytest
from django.urls import reverse

from members.models import SignIn
from members.tests.factories import RoundFactory, SignInFactory


@pytest.fixture
def world(day, ann):
    """A day with Ann signed in and a round, so every page has something."""
    record = SignInFactory(day=day, person=ann)
    RoundFactory(day=day, number=1)
    return {"day": day, "person": ann, "signin": record}


# (url name, args from the world, method, post data)
OFFICER_PAGES = [
    ("members:days", lambda w: [], "get", None),
    ("members:days", lambda w: [], "post", {"date": "2026-12-01"}),
    ("members:day", lambda w: [w["day"].pk], "get", None),
    ("members:day", lambda w: [w["day"].pk], "post", {"action": "close"}),
    ("members:signin", lambda w: [w["day"].pk], "get", None),
    ("members:signin_list", lambda w: [w["day"].pk], "get", None),
    ("members:signin_person", lambda w: [w["day"].pk], "post", {"person": "1"}),
    ("members:signin_guest", lambda w: [w["day"].pk], "post", {"first_name": "G"}),
    ("members:signin_undo", lambda w: [w["day"].pk, w["signin"].pk], "post", {}),
    ("members:seating", lambda w: [w["day"].pk], "get", None),
    ("members:seating_draw", lambda w: [w["day"].pk], "post", {"remainder": "sit_out"}),
    ("members:seating_start", lambda w: [w["day"].pk], "post", {"round": "1"}),
    ("members:seating_move", lambda w: [w["day"].pk], "post", {"round": "1"}),
    ("members:seating_swap", lambda w: [w["day"].pk], "post", {"round": "1"}),
    ("members:seating_display", lambda w: [w["day"].pk], "get", None),
    ("members:people", lambda w: [], "get", None),
    ("members:person", lambda w: [w["person"].pk], "get", None),
    ("members:person_new", lambda w: [], "get", None),
    ("members:person_edit", lambda w: [w["person"].pk], "get", None),
    ("members:person_convert", lambda w: [w["person"].pk], "get", None),
    ("members:person_login", lambda w: [w["person"].pk], "post", {"action": "create"}),
    ("members:merge", lambda w: [], "get", None),
    ("members:import", lambda w: [], "get", None),
    ("members:import", lambda w: [], "post", {"action": "cancel"}),
]
IDS = [f"{name}-{method}" for name, _, method, _ in OFFICER_PAGES]


def call(client, name, args, method, data):
    url = reverse(name, args=args)
    return url, getattr(client, method)(url, data or {})


@pytest.mark.parametrize(("name", "args", "method", "data"), OFFICER_PAGES, ids=IDS)
def test_outsider_is_sent_to_login(outsider_client, world, name, args, method, data):
    url, response = call(outsider_client, name, args(world), method, data)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login") + "?next=")


@pytest.mark.parametrize(("name", "args", "method", "data"), OFFICER_PAGES, ids=IDS)
def test_member_is_refused(member_client, world, name, args, method, data):
    _, response = call(member_client, name, args(world), method, data)
    assert response.status_code == 403
    assert SignIn.objects.count() == 1  # nothing changed


@pytest.mark.parametrize(("name", "args", "method", "data"), OFFICER_PAGES, ids=IDS)
def test_officer_gets_in(officer_client, world, name, args, method, data):
    _, response = call(officer_client, name, args(world), method, data)
    assert response.status_code in (200, 302)
    if response.status_code == 302:
        assert not response.url.startswith(reverse("login"))


def test_me_outsider_goes_to_login(outsider_client):
    response = outsider_client.get(reverse("members:me"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_me_member_sees_only_their_own_page(member_client, member_person):
    response = member_client.get(reverse("members:me"))
    assert response.status_code == 200 and response.context["person"] == member_person


def test_me_officer_without_a_person(officer_client):
    assert officer_client.get(reverse("members:me")).status_code == 200


def test_unknown_ids_are_404_for_officers(officer_client):
    for name in ("members:day", "members:signin", "members:seating", "members:seating_display"):
        assert officer_client.get(reverse(name, args=[424242])).status_code == 404
    for name in ("members:person", "members:person_edit", "members:person_convert"):
        assert officer_client.get(reverse(name, args=[424242])).status_code == 404
