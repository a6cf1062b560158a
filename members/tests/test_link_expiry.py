"""Table links and room codes end when the day is closed or at the end of its date (the
club's time zone), unless an officer kept them working longer (issue 13)."""

import datetime
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.models import ClubDay, Round, Table
from members.services import DayRefused
from members.services.days import close_day, extend_links, links_end, links_open

DATE = datetime.date(2026, 11, 19)


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def at(hour, minute=0, days=0):
    """A moment of the club day's date (or ``days`` after), in the club's time zone."""
    zone = timezone.get_default_timezone()
    return datetime.datetime.combine(
        DATE + datetime.timedelta(days=days), datetime.time(hour, minute), tzinfo=zone
    )


@pytest.fixture
def table(day):
    return Table.objects.create(round=Round.objects.create(day=day, number=1), number=1)


def open_link(client, table, now):
    with mock.patch("django.utils.timezone.now", return_value=now):
        return client.get(reverse("scoring:table_link", args=[table.token]), follow=True)


def type_code(client, table, now):
    with mock.patch("django.utils.timezone.now", return_value=now):
        return client.post(reverse("scoring:room"), {"room_code": table.room_code.lower()})


def test_links_end_at_midnight_in_the_club_time_zone(day):
    assert day.date == DATE
    assert links_end(day) == at(0, days=1)
    assert links_open(day, at(23, 59))
    assert not links_open(day, at(0, days=1))


def test_link_works_during_the_day_and_not_after(table):
    assert open_link(Client(), table, at(14)).status_code == 200
    ended = open_link(Client(), table, at(0, 5, days=1))
    assert ended.status_code == 410
    assert b"Ask an officer" in ended.content


def test_a_device_let_in_earlier_is_stopped_after_the_date(table):
    phone = Client()
    assert open_link(phone, table, at(22)).status_code == 200
    with mock.patch("django.utils.timezone.now", return_value=at(8, days=1)):
        page = phone.get(reverse("scoring:table", args=[table.pk]))
    assert page.status_code == 410 and b"stopped working" in page.content


def test_room_code_after_the_date_says_ask_an_officer(table):
    assert type_code(Client(), table, at(15)).status_code == 302
    response = type_code(Client(), table, at(1, days=1))
    assert response.status_code == 200 and b"Ask an officer" in response.content


def test_officer_extension_runs_past_midnight(day, table, officer_user):
    extend_links(day, 2, by=officer_user, now=at(21))
    assert links_end(day) == at(2, days=1)
    assert open_link(Client(), table, at(1, 30, days=1)).status_code == 200
    assert open_link(Client(), table, at(2, 1, days=1)).status_code == 410


def test_closing_the_day_ends_extended_links(day, table):
    extend_links(day, 2, now=at(21))
    close_day(day)
    assert not links_open(day, at(15))
    assert b"scores are final" in open_link(Client(), table, at(15)).content


def test_extension_refused_for_a_closed_day_or_silly_hours(day):
    for hours in (0, 13, "x", None):
        with pytest.raises(DayRefused):
            extend_links(day, hours)
    close_day(day)
    with pytest.raises(DayRefused):
        extend_links(day, 2)


def test_day_page_button_extends_for_officers(officer_client, day):
    url = reverse("members:day", args=[day.pk])
    page = officer_client.get(url)
    assert b"Keep table links working for 2 more hours" in page.content
    with mock.patch("django.utils.timezone.now", return_value=at(21)):
        response = officer_client.post(url, {"action": "extend", "hours": "2"}, follow=True)
    assert response.status_code == 200 and b"Table links now work until" in response.content
    assert ClubDay.objects.get(pk=day.pk).links_until == at(2, days=1)


def test_a_double_tap_on_the_extend_button_extends_once(officer_client, day):
    url = reverse("members:day", args=[day.pk])
    with mock.patch("django.utils.timezone.now", return_value=at(21)):
        seen = officer_client.get(url).context["links_end_at"]
        form = {"action": "extend", "hours": "2", "seen_end": seen}
        officer_client.post(url, form)
        officer_client.post(url, form)  # the second tap, or the form sent again
        officer_client.post(url, {**form, "seen_end": "2026-13-45T99:00:00"})  # odd: extends
    assert ClubDay.objects.get(pk=day.pk).links_until == at(4, days=1)


def test_day_page_button_needs_an_officer(client, member_client, day):
    url = reverse("members:day", args=[day.pk])
    assert member_client.post(url, {"action": "extend", "hours": "2"}).status_code == 403
    member_client.logout()
    assert client.post(url, {"action": "extend", "hours": "2"}).status_code == 302
    assert ClubDay.objects.get(pk=day.pk).links_until is None


def test_a_seen_end_without_its_time_zone_is_not_an_error_page(officer_client, day):
    url = reverse("members:day", args=[day.pk])
    form = {"action": "extend", "hours": "2", "seen_end": "2026-11-24T23:00"}
    assert officer_client.post(url, form).status_code == 302


def test_the_day_page_shows_an_extended_end_to_the_minute(officer_client, day):
    extend_links(day, 2, now=at(23))
    page = officer_client.get(reverse("members:day", args=[day.pk])).content.decode()
    assert "2 a.m. on 20 Nov" in page  # 23:00 + 2 hours past midnight, not 1:59


def test_links_end_at_midnight_in_the_clubs_own_time_zone_not_the_sites(club, day):
    """A club in Denver on a site set to New York: its table links work until midnight
    in Denver (before, they stopped at midnight in New York, 10 p.m. at the tables)."""
    import zoneinfo

    club.time_zone = "America/Denver"
    club.save()
    denver = zoneinfo.ZoneInfo("America/Denver")
    ten_pm = datetime.datetime.combine(DATE, datetime.time(22, 30), tzinfo=denver)
    assert timezone.get_default_timezone_name() != "America/Denver"
    assert links_open(day, ten_pm)
    assert links_end(day) == datetime.datetime.combine(
        DATE + datetime.timedelta(days=1), datetime.time.min, tzinfo=denver
    )
    assert not links_open(day, links_end(day))
