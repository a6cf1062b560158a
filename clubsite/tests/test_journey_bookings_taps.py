"""Journey: the bookings' links a member taps on a phone are at least 44 pixels tall
(the front page's "with a partner or a guest" and "members look for a partner", the
officers' days by name), at 320 pixels wide."""

import datetime

import pytest

from members.bookings.services import bookings
from members.bookings.services.rules import today as club_today
from members.models import ClubDay
from members.tests.factories import MemberFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _login(journey, username, password):
    page = journey.page
    page.context.clear_cookies()
    journey.goto("/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()


def _heights(page, selector: str) -> list[float]:
    links = page.locator(selector)
    assert links.count(), selector
    return [links.nth(i).bounding_box()["height"] for i in range(links.count())]


def test_bookings_links_are_tall_enough_to_tap(journey, club, django_user_model, officer_user):
    day = ClubDay.objects.create(date=club_today() + datetime.timedelta(days=7), title="Jueves")
    user = django_user_model.objects.create_user("ana", password="pass-123-secret")
    MemberFactory(first_name="Ana", last_name="Socia", user=user)
    bea = MemberFactory(first_name="Bea", last_name="Socia")
    bookings.set_looking(bookings.book(day, bea).booking, True)
    page = journey.page
    page.set_viewport_size({"width": 320, "height": 700})

    _login(journey, "ana", "pass-123-secret")
    journey.goto("/")
    for height in _heights(page, f"#book-day-{day.pk} a"):
        assert height >= 44

    _login(journey, "officer", "officer-pass-123")
    journey.goto("/bookings/")
    for height in _heights(page, "main .book-days a"):
        assert height >= 44
