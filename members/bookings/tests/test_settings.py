"""The club's booking settings page: bad input is told in plain words, never a 500 or
the database's own message; the hours of a cut-off matter only to a cut-off in hours."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from members.bookings.services.rules import booking_settings
from members.permissions import make_officer

pytestmark = pytest.mark.django_db


@pytest.fixture
def officer(client):
    user = get_user_model().objects.create_user("olive", password="x")
    make_officer(user)
    client.force_login(user)
    return client


def _form(**changes) -> dict:
    data = {
        "table_cap": "2",
        "play_time": "14:00",
        "cutoff": "none",
        "cutoff_weekday": "4",
        "cutoff_hours": "24",
        "cutoff_message": "",
        "guests_allowed": "on",
        "seat_partners_together": "on",
    }
    data.update(changes)
    return data


def test_a_cap_of_no_tables_is_refused_in_plain_words(officer, rules):
    response = officer.post(reverse("bookings:settings"), _form(table_cap="0"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "A day takes at least one table; leave it empty for no limit." in page
    assert "bookingsettings_cap_positive" not in page
    assert booking_settings().table_cap == 1  # unchanged


def test_an_empty_cap_means_no_limit(officer, rules):
    response = officer.post(reverse("bookings:settings"), _form(table_cap=""))
    assert response.status_code == 302
    assert booking_settings().table_cap is None


@pytest.mark.parametrize("cutoff", ["none", "weekday"])
def test_no_hours_needed_unless_the_cut_off_is_in_hours(officer, rules, cutoff):
    response = officer.post(reverse("bookings:settings"), _form(cutoff=cutoff, cutoff_hours=""))
    assert response.status_code == 302
    saved = booking_settings()
    assert saved.cutoff == cutoff and saved.cutoff_hours == 24  # the hours kept as they were


def test_a_cut_off_in_hours_needs_its_hours(officer, rules):
    response = officer.post(reverse("bookings:settings"), _form(cutoff="hours", cutoff_hours=""))
    assert response.status_code == 200
    assert "Type a number of hours from 0 to 336." in response.content.decode()
    assert booking_settings().cutoff == "none"
    response = officer.post(reverse("bookings:settings"), _form(cutoff="hours", cutoff_hours="6"))
    assert response.status_code == 302
    assert booking_settings().cutoff_hours == 6
