"""A member is named by their name, never by their login's user name: the site's
footer ("Signed in as …") on the bookings and money pages, and who made or changed a
booking on the officers' list."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from members.bookings.services import bookings
from members.money.access import make_treasurer
from members.permissions import make_officer
from members.tests.factories import MemberFactory

pytestmark = pytest.mark.django_db


def _login(username, person=None, **names):
    user = get_user_model().objects.create_user(username, password="x", **names)
    if person is not None:
        person.user = user
        person.save()
    client = Client()
    client.force_login(user)
    return user, client


def test_the_footer_names_the_member_not_the_login():
    ana = MemberFactory(first_name="Ana", last_name="Socia")
    _user, client = _login("ana", ana)
    for url in (reverse("bookings:days"), reverse("money:me"), reverse("home")):
        page = client.get(url).content.decode()
        assert "Signed in as Ana Socia." in page, url
        assert "Signed in as ana." not in page, url


def test_the_footer_of_a_treasurer_who_is_a_member_names_her():
    tess = MemberFactory(first_name="Tess", last_name="Treasure")
    user, client = _login("tess", tess)
    make_treasurer(user)
    page = client.get(reverse("money:balances")).content.decode()
    assert "Signed in as Tess Treasure." in page


def test_the_footer_of_an_officer_without_a_record_names_the_login():
    user, client = _login("olive", first_name="Olive", last_name="Officer")
    make_officer(user)
    assert "Signed in as Olive Officer." in client.get(reverse("bookings:hub")).content.decode()
    _user, bare = _login("door")
    make_officer(_user)
    assert "Signed in as door." in bare.get(reverse("bookings:hub")).content.decode()


def test_the_officers_list_names_who_booked_and_who_changed(rules, soon, people):
    officer, client = _login("olive")
    make_officer(officer)
    clerk = MemberFactory(first_name="Clara", last_name="Clerk")
    clerk_user, _client = _login("clara", clerk)
    make_officer(clerk_user)
    bookings.book(soon, people[0], partner=people[1], by=clerk_user, officer=True)
    bob_user, _bob = _login("bob", people[1])
    bookings.leave(bookings.on_day(soon, people[1]), people[1], by=bob_user)
    page = client.get(reverse("bookings:day_list", args=[soon.pk])).content.decode()
    assert "by Clara Clerk" in page and "by clara" not in page
    assert "by Bob Player" in page and "by bob" not in page
