"""The bookings pages: one test per permission boundary (anonymous, member, another
member, officer, another club's officer), double taps, bad input, query budgets."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from members.bookings.models import Announcement, Booking, Notice
from members.bookings.services import bookings
from members.bookings.services.choices import token
from members.clubs.scope import in_club
from members.permissions import make_officer
from members.tests.factories import ClubDayFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def login(client_factory):
    User = get_user_model()

    def make(person=None, officer=False, club=None, name=None):
        user = User.objects.create_user(name or f"user{User.objects.count()}", password="x")
        if person is not None:
            person.user = user
            person.save()
        if officer:
            make_officer(user, club)
        return client_factory(user)

    return make


@pytest.fixture
def client_factory(db):
    from django.test import Client

    def make(user=None):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


def at(club, url: str) -> str:
    """``url`` of ``club`` on a site of several clubs (``/<slug>/…``)."""
    return f"/{club.slug}{url}"


def text(response) -> str:
    return response.content.decode()


def test_anonymous_goes_to_the_login_page(client, soon):
    for url in (reverse("bookings:days"), reverse("bookings:hub")):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(reverse("bookings:book", args=[soon.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Booking.objects.exists()


def test_member_books_in_one_tap_from_the_front_page(login, soon, people, rules):
    member = login(people[0])
    front = text(member.get(reverse("home")))
    book_url = reverse("bookings:book", args=[soon.pk])
    assert f'action="{book_url}"' in front  # the "Book" button is on the front page
    response = member.post(book_url, follow=True)
    assert "Booked:" in text(response)
    assert Booking.objects.get(day=soon).person == people[0]


def test_double_tap_books_once_and_says_so(login, soon, people, rules):
    member = login(people[0])
    url = reverse("bookings:book", args=[soon.pk])
    member.post(url)
    response = member.post(url, follow=True)
    assert "on the list for" in text(response)
    assert Booking.objects.filter(day=soon).count() == 1


def test_double_tap_on_cancel_cancels_once_and_promotes_once(login, soon, people, rules):
    """Two presses of "Cancel my booking": one cancellation, the first waiting promoted
    and e-mailed once; the second press is told there is nothing to cancel."""
    from django.core import mail

    for person in people[:5]:  # a cap of four places: the fifth waits
        bookings.book(soon, person)
    mail.outbox.clear()
    member = login(people[0])
    url = reverse("bookings:cancel", args=[soon.pk])
    member.post(url)
    response = member.post(url, follow=True)
    assert "not on the list" in text(response)
    assert Booking.objects.filter(day=soon, status=Booking.Status.CANCELLED).count() == 1
    assert Booking.objects.get(day=soon, person=people[4]).status == Booking.Status.BOOKED
    assert [m.to for m in mail.outbox] == [[people[4].email]]
    assert Notice.objects.filter(person=people[4]).count() == 1


def test_member_cannot_cancel_another_members_booking(login, soon, people, rules):
    theirs = bookings.book(soon, people[1]).booking
    other = login(people[0])
    response = other.post(reverse("bookings:cancel", args=[soon.pk]), follow=True)
    assert "not on the list" in text(response)
    assert Booking.objects.get(pk=theirs.pk).status == Booking.Status.BOOKED
    # The officers' remove is officers' only.
    response = other.post(reverse("bookings:remove", args=[soon.pk, theirs.pk]))
    assert response.status_code == 403
    assert Booking.objects.get(pk=theirs.pk).status == Booking.Status.BOOKED


def test_member_sees_no_officer_page(login, soon, people):
    member = login(people[0])
    for url in (
        reverse("bookings:hub"),
        reverse("bookings:day_list", args=[soon.pk]),
        reverse("bookings:settings"),
        reverse("bookings:announcements"),
        reverse("bookings:substitutes"),
    ):
        assert member.get(url).status_code == 403, url


def test_officer_without_a_record_cannot_book_but_manages(login, soon, people, rules):
    officer = login(officer=True)
    assert officer.get(reverse("bookings:days")).status_code == 403
    response = officer.post(
        reverse("bookings:add", args=[soon.pk]), {"person": people[0].pk}, follow=True
    )
    assert "is booked" in text(response)
    booking = Booking.objects.get(day=soon)
    page = text(officer.get(reverse("bookings:day_list", args=[soon.pk])))
    assert people[0].full_name in page
    assert officer.get(reverse("bookings:day_print", args=[soon.pk])).status_code == 200
    officer.post(reverse("bookings:remove", args=[soon.pk, booking.pk]))
    booking.refresh_from_db()
    assert booking.status == Booking.Status.CANCELLED and booking.changed_by is not None


def test_other_clubs_officer_reaches_nothing_here(login, soon, people, club, other_club):
    theirs = login(officer=True, club=other_club)
    booking = bookings.book(soon, people[0]).booking
    assert theirs.get(at(club, reverse("bookings:day_list", args=[soon.pk]))).status_code == 403
    response = theirs.post(at(club, reverse("bookings:remove", args=[soon.pk, booking.pk])))
    assert response.status_code == 403
    assert Booking.objects.get(pk=booking.pk).status == Booking.Status.BOOKED


def test_a_day_of_another_club_is_not_found(login, people, club, other_club):
    with in_club(other_club):
        elsewhere = ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=3))
    member = login(people[0])
    url = at(club, reverse("bookings:book", args=[elsewhere.pk]))
    assert member.post(url).status_code == 404
    officer = login(officer=True)
    url = at(club, reverse("bookings:day_list", args=[elsewhere.pk]))
    assert officer.get(url).status_code == 404


def test_bad_input_gets_plain_words(login, people, rules, club, other_club):
    member = login(people[0])
    past = ClubDayFactory(date=timezone.localdate() - datetime.timedelta(days=2))
    response = member.post(at(club, reverse("bookings:book", args=[past.pk])), follow=True)
    assert "in the past" in text(response)
    soon = ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=2))
    with in_club(other_club):
        stranger = MemberFactory(first_name="Zed")
    response = member.post(
        at(club, reverse("bookings:book", args=[soon.pk])), {"partner": stranger.pk}, follow=True
    )
    assert "Choose your partner from the club" in text(response)
    response = member.post(
        at(club, reverse("bookings:book", args=[soon.pk])),
        {"partner": people[1].pk, "guest_name": "Gina"},
        follow=True,
    )
    assert "not both" in text(response)
    assert not Booking.objects.exists()


def test_a_full_day_puts_the_member_on_the_waiting_list(login, soon, people, rules):
    for person in people[1:5]:
        bookings.book(soon, person)
    member = login(people[0])
    response = member.post(reverse("bookings:book", args=[soon.pk]), follow=True)
    assert "waiting list" in text(response)
    page = text(member.get(reverse("bookings:days")))
    assert "On the waiting list: number 1." in page


def test_late_cancel_refused_with_the_clubs_message(login, people, rules):
    rules.cutoff = rules.Cutoff.HOURS
    rules.cutoff_hours = 72
    rules.cutoff_message = "Ring Olive to cancel now."
    rules.save()
    tomorrow = ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=1))
    bookings.book(tomorrow, people[0])
    member = login(people[0])
    response = member.post(reverse("bookings:cancel", args=[tomorrow.pk]), follow=True)
    assert "Ring Olive to cancel now." in text(response)
    assert Booking.objects.get(day=tomorrow).status == Booking.Status.BOOKED


def test_member_days_page_query_budget(login, people, rules, django_assert_max_num_queries):
    for offset in range(1, 7):
        day = ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=offset))
        for person in people[1:6]:
            bookings.book(day, person)
    member = login(people[0])
    with django_assert_max_num_queries(16):
        assert member.get(reverse("bookings:days")).status_code == 200


def test_officer_day_list_query_budget(login, soon, people, rules, django_assert_max_num_queries):
    for person in people:
        bookings.book(soon, person)
    officer = login(officer=True)
    with django_assert_max_num_queries(14):
        assert officer.get(reverse("bookings:day_list", args=[soon.pk])).status_code == 200


def test_partner_messages_relayed_without_addresses(login, soon, people, rules):
    looking = bookings.book(soon, people[1]).booking
    bookings.set_looking(looking, True)
    member = login(people[0])
    page = text(member.get(reverse("bookings:partners", args=[soon.pk])))
    assert people[1].full_name in page and people[1].email not in page
    data = {"key": "k-partner-1", "to": people[1].pk, "text": "Shall we play together?"}
    url = reverse("bookings:partners", args=[soon.pk])
    member.post(url, data)
    member.post(url, data)  # a double tap
    notice = Notice.objects.get(person=people[1])
    assert "Shall we play together?" in notice.body and people[0].email not in notice.body
    # She answers from the page; he gets it.
    her = login(people[1])
    page = text(her.get(url))
    assert "Shall we play together?" in page
    her.post(url, {"key": "k-answer", "to": people[0].pk, "text": "Yes!"})
    assert Notice.objects.filter(person=people[0], kind=Notice.Kind.PARTNER).count() == 1


def test_partner_page_is_members_only(login, soon, club, other_club, client):
    url = at(club, reverse("bookings:partners", args=[soon.pk]))
    assert client.get(url).status_code == 302
    with in_club(other_club):
        theirs = MemberFactory(first_name="Zed")
    outsider = login(theirs)  # a member of the other club is nobody here
    assert outsider.get(url).status_code == 403


def test_announcement_shown_and_mailed_once_to_those_who_asked(login, people, client):
    from members.bookings.services.choices import set_choice

    set_choice(people[0], "announcements", True)
    officer = login(officer=True)
    first_day = timezone.localdate() + datetime.timedelta(days=10)
    data = {
        "key": "news-1",
        "kind": "closure",
        "title": "Closed for painting",
        "body": "The room is painted.",
        "first_day": first_day.isoformat(),
        "mail": "on",
    }
    officer.post(reverse("bookings:announcements"), data)
    officer.post(reverse("bookings:announcements"), data)  # a double tap
    assert Announcement.objects.count() == 1
    assert list(Notice.objects.values_list("person", flat=True)) == [people[0].pk]
    assert "Closed for painting" in text(client.get(reverse("home")))


def test_announcement_bad_dates_refused(login):
    officer = login(officer=True)
    today = timezone.localdate()
    response = officer.post(
        reverse("bookings:announcements"),
        {
            "key": "news-2",
            "kind": "event",
            "title": "Party",
            "first_day": today.isoformat(),
            "last_day": (today - datetime.timedelta(days=1)).isoformat(),
        },
    )
    assert "The last date comes on or after the first." in text(response)
    assert not Announcement.objects.exists()


def test_unsubscribe_link_works_without_login(client, people):
    from members.bookings.services.choices import choices_of, set_choice

    set_choice(people[0], "announcements", True)
    url = reverse("bookings:unsubscribe", args=[token(people[0], "announcements")])
    assert "Stop sending" in text(client.get(url))
    assert choices_of(people[0]).announcements  # a GET (a mail scanner) changes nothing
    client.post(url)
    assert not choices_of(people[0]).announcements
    bad = client.get(reverse("bookings:unsubscribe", args=["forged"]))
    assert bad.status_code == 400


def test_unsubscribe_link_of_another_club_does_nothing_here(client, club, other_club):
    with in_club(other_club):
        theirs = MemberFactory(first_name="Zed")
        link = token(theirs, "announcements")
    url = at(club, reverse("bookings:unsubscribe", args=[link]))
    assert client.post(url).status_code == 400


def test_substitutes_called_once_per_press(login, soon, people):
    officer = login(officer=True)
    for person in people[:3]:
        officer.post(reverse("bookings:substitutes"), {"person": person.pk})
    data = {"key": "call-1", "message": "Two places free."}
    officer.post(reverse("bookings:call", args=[soon.pk]), data)
    officer.post(reverse("bookings:call", args=[soon.pk]), data)  # a double tap
    assert Notice.objects.filter(kind=Notice.Kind.SUBSTITUTES).count() == 3


@pytest.mark.parametrize(
    "lang, booked, waiting",
    [
        ("en", "Booked: 3 people (2 bookings)", "Waiting list: 3 people (2 bookings)"),
        ("es", "Con reserva: 3 personas (2 reservas)", "Lista de espera: 3 personas (2 reservas)"),
        ("pt-br", "Com reserva: 3 pessoas (2 reservas)", "Lista de espera: 3 pessoas (2 reservas)"),
    ],
)
def test_officer_list_counts_people_not_bookings(login, soon, people, rules, lang, booked, waiting):
    """A booking with a partner holds two places: the headings count the people (what
    the tables take), and say how many bookings when that is another number."""
    import re

    from django.conf import settings

    bookings.book(soon, people[0], partner=people[1])
    bookings.book(soon, people[2])
    bookings.book(soon, people[3], partner=people[4])  # two places: one left, it waits
    bookings.book(soon, people[5])
    officer = login(officer=True)
    officer.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = text(officer.get(reverse("bookings:day_list", args=[soon.pk])))

    def heading(name):
        found = re.search(rf'<h2 id="{name}">(.*?)</h2>', page, re.S).group(1)
        return " ".join(re.sub(r"<[^>]+>", "", found).split())

    assert heading("booked-heading") == booked
    assert heading("waiting-heading") == waiting
