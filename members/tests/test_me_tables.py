"""A member's own page lists their recent tables with the others who sat there, in
their seats' order, and never themselves."""

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    SignInFactory,
    TableFactory,
)

pytestmark = pytest.mark.django_db


def test_my_recent_tables_name_the_others_in_seat_order(client, django_user_model):
    ann, bob, cat, dan = (
        MemberFactory(first_name=name, last_name="Zed") for name in ("Ann", "Bob", "Cat", "Dan")
    )
    ann.user = django_user_model.objects.create_user("ann-zed")
    ann.save()
    TableFactory(seated=[dan, ann, bob, cat])
    client.force_login(ann.user)
    page = client.get(reverse("members:me")).content.decode()
    assert "with Dan Zed, Bob Zed, Cat Zed" in page


def _lists(page: str) -> str:
    return page[page.index("My club days") : page.index("csrfmiddlewaretoken")]


def _ann_logged_in(client, django_user_model):
    ann, bob, cat, dan = (
        MemberFactory(first_name=name, last_name="Zed") for name in ("Ann", "Bob", "Cat", "Dan")
    )
    ann.user = django_user_model.objects.create_user("ann-zed")
    ann.save()
    client.force_login(ann.user)
    return ann, bob, cat, dan


def test_the_lists_drawn_again_read_no_seat_sign_in_or_name(
    client, django_user_model, django_assert_max_num_queries
):
    """Kept drawn under a stamp of the member's sign-ins and seats (issue 32): the page
    drawn again reads the member with the stamp, and the kept lists."""
    ann, bob, cat, dan = _ann_logged_in(client, django_user_model)
    TableFactory(seated=[dan, ann, bob, cat])
    SignInFactory(person=ann)
    first = client.get(reverse("members:me")).content.decode()
    # 8, and the club's booking settings with its next days to book (issue 34): 10, less
    # the person the bookings' part takes from the page, less the login's person read
    # with the lists' stamp (one read, shared with the page's menu and footer); the
    # bookings' settings, days and bookings kept in the shared cache: one read, 7.
    with django_assert_max_num_queries(7) as captured:
        again = client.get(reverse("members:me")).content.decode()
    assert _lists(again) == _lists(first) and "with Dan Zed, Bob Zed, Cat Zed" in again
    reads = [q["sql"] for q in captured.captured_queries]
    lists = ('SELECT "members_seat"', 'SELECT "members_signin"')
    assert not [sql for sql in reads if sql.startswith(lists)]


def test_a_new_seat_or_sign_in_shows_at_once(client, django_user_model):
    ann, bob, cat, dan = _ann_logged_in(client, django_user_model)
    TableFactory(seated=[dan, ann, bob, cat])
    page = client.get(reverse("members:me")).content.decode()
    assert "1 club day" not in page
    day = ClubDayFactory(title="Autumn cup")
    SignInFactory(person=ann, day=day)
    TableFactory(seated=[ann, cat])
    page = client.get(reverse("members:me")).content.decode()
    assert "Autumn cup" in page and "with Cat Zed" in page


def test_a_seat_moved_to_another_table_shows_at_once(client, django_user_model):
    ann, bob, cat, dan = _ann_logged_in(client, django_user_model)
    first = TableFactory(seated=[ann, bob])
    other = TableFactory(round=first.round, seated=[cat, dan])
    assert "with Bob Zed" in client.get(reverse("members:me")).content.decode()
    seat = first.seats.get(person=ann)
    seat.table = other
    seat.position = 3
    seat.save()
    page = client.get(reverse("members:me")).content.decode()
    assert "with Cat Zed, Dan Zed" in page and "with Bob Zed" not in page


def test_a_login_of_a_merged_away_record_sees_the_record_kept(client, django_user_model):
    """The login's own record was merged into another (a login left on it): the page is
    the kept record's, with its club days and tables, read with its lists' stamp."""
    ann, bob, cat, dan = _ann_logged_in(client, django_user_model)
    kept = MemberFactory(first_name="Annie", last_name="Kept")
    ann.merged_into = kept
    ann.save()
    TableFactory(seated=[kept, bob, cat, dan])
    SignInFactory(person=kept)
    page = client.get(reverse("members:me")).content.decode()
    assert "Annie Kept" in page and "with Bob Zed, Cat Zed, Dan Zed" in page
    assert "1 club day attended" in " ".join(strip_tags(page).split())
