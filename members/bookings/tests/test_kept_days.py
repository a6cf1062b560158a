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

from members.bookings import reads
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
    start = page.index('id="next-days-heading"')
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


def test_a_booking_shows_at_once_on_the_members_page_and_on_the_others(
    people, rules, soon, django_capture_on_commit_callbacks
):
    ann, bob = _client(people[0]), _client(people[1])
    assert "4 places left." in _days(_me(ann)) and "4 places left." in _days(_me(bob))
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(reverse("bookings:book", args=[soon.pk]))
    assert "Booked." in _days(_me(ann)) and "3 places left." in _days(_me(ann))
    assert "3 places left." in _days(_me(bob)) and "Booked." not in _days(_me(bob))
    with django_capture_on_commit_callbacks(execute=True):
        ann.post(reverse("bookings:cancel", args=[soon.pk]))
    assert "Booked." not in _days(_me(ann)) and "4 places left." in _days(_me(bob))


def test_the_copies_are_retired_when_the_change_commits(
    people, rules, soon, django_capture_on_commit_callbacks
):
    """Not before (a write inside the booking's transaction would lock the version's
    row there): a page drawn meanwhile is drawn again after the commit."""
    ann = _client(people[0])
    _me(ann)
    key = reads.VERSION_KEY.format(club=soon.club_id)
    before = cache.get(key)
    with django_capture_on_commit_callbacks() as callbacks:
        bookings.book(soon, people[1])
        assert cache.get(key) == before
    assert "4 places left." in _days(_me(ann))  # the copy of the uncommitted moment
    for callback in callbacks:
        callback()
    assert cache.get(key) != before and "3 places left." in _days(_me(ann))


def test_a_partners_new_name_and_the_settings_show_at_once(
    people, rules, soon, django_capture_on_commit_callbacks
):
    ann = _client(people[0])
    with django_capture_on_commit_callbacks(execute=True):
        bookings.book(soon, people[0], partner=people[1])
    assert "Booked, with Bob Player." in _days(_me(ann))
    with django_capture_on_commit_callbacks(execute=True):
        people[1].first_name = "Robert"
        people[1].save()
    assert "Booked, with Robert Player." in _days(_me(ann))
    with django_capture_on_commit_callbacks(execute=True):
        settings_row = booking_settings()
        settings_row.table_cap = 2
        settings_row.save()
    assert "6 places left." in _days(_me(ann))


def test_a_day_closed_or_added_shows_at_once(
    people, rules, soon, django_capture_on_commit_callbacks
):
    ann = _client(people[0])
    assert f"book-day-{soon.pk}" in _days(_me(ann))
    with django_capture_on_commit_callbacks(execute=True):
        later = ClubDayFactory(date=soon.date + datetime.timedelta(days=1), title="Cup final")
    assert "Cup final" in _days(_me(ann))
    with django_capture_on_commit_callbacks(execute=True):
        soon.status = ClubDay.Status.CLOSED
        soon.save()
        later.delete()
    assert "Book a club day" not in _me(ann)


def test_play_starting_takes_the_day_off_without_any_change_saved(
    people, rules, club, django_assert_max_num_queries
):
    """The kept copy (five minutes) still holds the day when play starts: the day is
    left out at the read, not when the copy was made."""
    ann = _client(people[0])
    today = timezone.localtime(timezone.now(), club.zone).date()
    day = ClubDayFactory(date=today)  # the login's session outlives both moments
    starts = datetime.datetime.combine(day.date, rules.play_time, tzinfo=club.zone)
    with freeze_time(starts - datetime.timedelta(minutes=2)):
        assert f"book-day-{day.pk}" in _days(_me(ann))
    later = freeze_time(starts + datetime.timedelta(minutes=1))
    with later, django_assert_max_num_queries(8) as captured:
        page = _me(ann)
    assert "Book a club day" not in page
    assert not [q["sql"] for q in captured.captured_queries if q["sql"].startswith(KEPT_ROWS)]


def test_the_version_evicted_the_copy_is_read_again(people, rules, soon):
    """A booking written behind the signals' back (a script's update), then the
    version lost (Redis restarted, the cache culled): the copy is not trusted."""
    ann = _client(people[0])
    assert "4 places left." in _days(_me(ann))
    Booking.objects.bulk_create([Booking(day=soon, person=people[2])])  # no signal
    assert "4 places left." in _days(_me(ann))  # the kept copy, as it was
    cache.delete(reads.VERSION_KEY.format(club=soon.club_id))
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


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "You can cancel here until "), ("es", "Puede cancelar aquí hasta el ")],
)
def test_the_cut_off_sentence_ends_with_one_full_stop(people, rules, soon, language, sentence):
    """ "… until Sat 6 Dec, 1:59 p.m." (the time's own full stop ends it), "… 13:59."."""
    people[0].language = language
    people[0].save()
    ann = _client(people[0])
    bookings.book(soon, people[0])
    days = _days(_me(ann))
    start = days.index(sentence)
    line = days[start : days.index("</p>", start)]
    assert line.endswith(".") and not line.endswith("..")
    assert line.count(".") <= 3  # "p.m." and the end, nothing doubled
