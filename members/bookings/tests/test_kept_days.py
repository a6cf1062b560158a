"""A member's next days (their own page, the front page) are kept in the shared cache,
one copy per club and date (members.bookings.reads.kept_next_days): drawn again they
read no booking, day or settings row, and whatever changes what they show is seen at
once, at that club only."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from members.bookings.models import Booking
from members.bookings.services import bookings
from members.bookings.services.rules import booking_settings
from members.clubs.scope import in_club
from members.models import ClubDay
from members.tests.factories import ClubDayFactory, MemberFactory

pytestmark = pytest.mark.django_db

KEPT_ROWS = (
    'SELECT "bookings_booking"',
    'SELECT "members_clubday"',
    'SELECT "bookings_bookingsettings"',
)


def _client(person) -> Client:
    person.user = get_user_model().objects.create_user(f"login-{person.pk}")
    person.save()
    client = Client()
    client.force_login(person.user)
    return client


def _me(client, prefix: str = "") -> str:
    return client.get(prefix + reverse("members:me")).content.decode()


def _days(page: str) -> str:
    """The page's "Book a club day" part."""
    start = page.index("Book a club day")
    return page[start : page.index("</section>", start)]


def test_drawn_again_the_next_days_read_no_booking_day_or_settings_row(
    people, rules, soon, django_assert_max_num_queries
):
    ann = _client(people[0])
    first = _me(ann)
    with django_assert_max_num_queries(7) as captured:
        again = _me(ann)
    assert f'action="{reverse("bookings:book", args=[soon.pk])}"' in _days(again)
    assert _days(again).replace("\n", "").count("book-day-") == _days(first).count("book-day-")
    assert not [q["sql"] for q in captured.captured_queries if q["sql"].startswith(KEPT_ROWS)]


def test_a_booking_shows_at_once_on_the_members_page_and_on_the_others(people, rules, soon):
    ann, bob = _client(people[0]), _client(people[1])
    assert "4 places left." in _days(_me(ann)) and "4 places left." in _days(_me(bob))
    ann.post(reverse("bookings:book", args=[soon.pk]))
    assert "Booked." in _days(_me(ann)) and "3 places left." in _days(_me(ann))
    assert "3 places left." in _days(_me(bob)) and "Booked." not in _days(_me(bob))
    ann.post(reverse("bookings:cancel", args=[soon.pk]))
    assert "Booked." not in _days(_me(ann)) and "4 places left." in _days(_me(bob))


def test_a_partners_new_name_and_the_settings_show_at_once(people, rules, soon):
    ann = _client(people[0])
    bookings.book(soon, people[0], partner=people[1])
    assert "Booked, with Bob Player." in _days(_me(ann))
    people[1].first_name = "Robert"
    people[1].save()
    assert "Booked, with Robert Player." in _days(_me(ann))
    settings_row = booking_settings()
    settings_row.table_cap = 2
    settings_row.save()
    assert "6 places left." in _days(_me(ann))


def test_a_day_closed_or_added_shows_at_once(people, rules, soon):
    ann = _client(people[0])
    assert f"book-day-{soon.pk}" in _days(_me(ann))
    later = ClubDayFactory(date=soon.date + datetime.timedelta(days=1), title="Cup final")
    assert "Cup final" in _days(_me(ann))
    soon.status = ClubDay.Status.CLOSED
    soon.save()
    later.delete()
    assert "Book a club day" not in _me(ann)


def test_play_starting_takes_the_day_off_without_any_change_saved(people, rules, club):
    ann = _client(people[0])
    today = timezone.localtime(timezone.now(), club.zone).date()
    day = ClubDayFactory(date=today)  # the login's session outlives both moments
    starts = datetime.datetime.combine(day.date, rules.play_time, tzinfo=club.zone)
    with freeze_time(starts - datetime.timedelta(hours=1)):
        assert f"book-day-{day.pk}" in _days(_me(ann))
    with freeze_time(starts + datetime.timedelta(minutes=1)):
        assert "Book a club day" not in _me(ann)


def test_the_version_evicted_the_copy_is_read_again(people, rules, soon):
    ann = _client(people[0])
    _me(ann)
    Booking.objects.create(day=soon, person=people[2])  # as a script would, then:
    cache.clear()
    assert "3 places left." in _days(_me(ann))


def test_each_club_sees_its_own_days_on_the_same_date(people, rules, club, other_club, soon):
    with in_club(other_club):
        theirs = ClubDayFactory(date=soon.date, title="Their night")
        zoe = MemberFactory(first_name="Zoe", last_name="Other")
        zoe_client = _client(zoe)
    ann = _client(people[0])
    ours = _days(_me(ann, f"/{club.slug}"))
    assert f"book-day-{soon.pk}" in ours and "Their night" not in ours
    other = _days(_me(zoe_client, f"/{other_club.slug}"))
    assert "Their night" in other and f"book-day-{soon.pk}" not in other
    assert f"book-day-{theirs.pk}" in other
