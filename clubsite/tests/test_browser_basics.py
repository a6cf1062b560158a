"""The front page and the login page in a real browser, on a phone-sized screen."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_front_page_and_login_on_a_phone(journey, officer_user):
    page = journey.goto("/")
    journey.step("front page")
    assert page.get_by_role("heading", level=1).is_visible()
    journey.login("officer", "wrong password")
    assert page.get_by_text("Please enter a correct username and password").is_visible()
    journey.step("login refused")
    journey.login("officer", "officer-pass-123")
    assert page.get_by_text("Signed in as Olive Officer").is_visible()
    journey.step("logged in")
