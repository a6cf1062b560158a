"""The bookings app's part of the site-wide matrices: the world's bookings
(``clubsite/tests/test_personas.build_world`` adds them), the persona table's cases,
and the CSRF table's forms (``clubsite/tests/test_csrf_and_leaks``)."""

from __future__ import annotations

import datetime

from django.urls import reverse

from members.bookings.models import Announcement, Booking, Substitute
from members.bookings.services.choices import token
from members.models import ClubDay

LOGIN = "login"
REDIRECT = "redirect"


def booking_world(w) -> dict:
    """Mary booked next week; Olga too, looking for a partner; Bob booked today with a
    guest; Walt is a substitute; an announcement of next week; a day in two weeks
    nobody booked yet (today's may have started: it takes no bookings then)."""
    return {
        "later": ClubDay.objects.create(
            date=w["next_week"].date + datetime.timedelta(days=7), title="Later"
        ),
        "mary_booking": Booking.objects.create(day=w["next_week"], person=w["mary"]),
        "olga_booking": Booking.objects.create(
            day=w["next_week"], person=w["olga"], looking_for_partner=True
        ),
        "guest_booking": Booking.objects.create(
            day=w["day"], person=w["bob"], guest_name="Gina Guestly", places=2
        ),
        "substitute": Substitute.objects.create(person=w["walt"]),
        "news": Announcement.objects.create(
            title="Closed for the holidays", first_day=w["next_week"].date, key="world"
        ),
    }


def booking_cases(Case, E) -> dict:
    def r(name, *args):
        return reverse(name, args=args)

    officers = E(200, 403, LOGIN, LOGIN)
    officers_405 = E(405, 403, LOGIN, LOGIN)
    officers_redirect = E(REDIRECT, 403, LOGIN, LOGIN)
    # The officer persona has no member record: the members' pages refuse it.
    members = E(403, 200, LOGIN, LOGIN)
    members_405 = E(403, 405, LOGIN, LOGIN)
    members_redirect = E(403, REDIRECT, LOGIN, LOGIN)
    return {
        "bookings:days": Case(lambda w: r("bookings:days"), members, members_405),
        "bookings:book": Case(
            lambda w: r("bookings:book", w.later.pk), members_405, members_redirect, changes=True
        ),
        "bookings:cancel": Case(
            lambda w: r("bookings:cancel", w.next_week.pk),
            members_405,
            members_redirect,
            changes=True,
        ),
        "bookings:looking": Case(
            lambda w: r("bookings:looking", w.next_week.pk),
            members_405,
            members_redirect,
            lambda w: {"looking": "on"},
            changes=True,
        ),
        "bookings:partners": Case(
            lambda w: r("bookings:partners", w.next_week.pk), members, members, changes=True
        ),
        "bookings:choices": Case(
            lambda w: r("bookings:choices"),
            members_405,
            members_redirect,
            lambda w: {"announcements": "on"},
            changes=True,
        ),
        # The signed link in an e-mail is the permission: no login.
        "bookings:unsubscribe": Case(
            lambda w: r("bookings:unsubscribe", token(w.mary, "announcements")),
            E(200, 200, 200, 200),
            E(200, 200, 200, 200),
        ),
        "bookings:hub": Case(lambda w: r("bookings:hub"), officers, officers_405),
        "bookings:settings": Case(
            lambda w: r("bookings:settings"), officers, officers, changes=True
        ),
        "bookings:day_list": Case(
            lambda w: r("bookings:day_list", w.next_week.pk), officers, officers_405
        ),
        "bookings:day_print": Case(
            lambda w: r("bookings:day_print", w.next_week.pk), officers, officers_405
        ),
        "bookings:add": Case(
            lambda w: r("bookings:add", w.next_week.pk),
            officers_405,
            officers_redirect,
            lambda w: {"person": w.walt.pk},
            changes=True,
        ),
        "bookings:remove": Case(
            lambda w: r("bookings:remove", w.next_week.pk, w.mary_booking.pk),
            officers_405,
            officers_redirect,
            changes=True,
        ),
        "bookings:no_show": Case(
            lambda w: r("bookings:no_show", w.day.pk, w.guest_booking.pk),
            officers_405,
            officers_redirect,
            lambda w: {"no_show": "on"},
            changes=True,
        ),
        "bookings:door_guest": Case(
            lambda w: r("bookings:door_guest", w.day.pk, w.guest_booking.pk),
            officers_405,
            officers_redirect,
            changes=True,
        ),
        "bookings:call": Case(
            lambda w: r("bookings:call", w.next_week.pk),
            officers_405,
            officers_redirect,
            lambda w: {"key": "persona-call"},
            changes=True,
        ),
        "bookings:substitutes": Case(
            lambda w: r("bookings:substitutes"), officers, officers, changes=True
        ),
        "bookings:substitute_remove": Case(
            lambda w: r("bookings:substitute_remove", w.substitute.pk),
            officers_405,
            officers_redirect,
            changes=True,
        ),
        "bookings:announcements": Case(
            lambda w: r("bookings:announcements"), officers, officers, changes=True
        ),
        "bookings:withdraw": Case(
            lambda w: r("bookings:withdraw", w.news.pk),
            officers_405,
            officers_redirect,
            changes=True,
        ),
    }


def booking_forms() -> dict:
    """name -> (persona, page with the form, htmx?, outcome), as the CSRF table has."""

    def days(w):
        return reverse("bookings:days")

    def day_list(w):
        return reverse("bookings:day_list", args=[w.next_week.pk])

    return {
        "bookings:book": ("member", days, False, REDIRECT),
        "bookings:cancel": ("member", days, False, REDIRECT),
        "bookings:looking": ("member", days, False, REDIRECT),
        "bookings:choices": ("member", days, False, REDIRECT),
        "bookings:partners": (
            "member",
            lambda w: reverse("bookings:partners", args=[w.next_week.pk]),
            False,
            REDIRECT,
        ),
        "bookings:settings": ("officer", lambda w: reverse("bookings:settings"), False, REDIRECT),
        "bookings:add": ("officer", day_list, False, REDIRECT),
        "bookings:remove": ("officer", day_list, False, REDIRECT),
        "bookings:no_show": (
            "officer",
            lambda w: reverse("bookings:day_list", args=[w.day.pk]),
            False,
            REDIRECT,
        ),
        "bookings:call": ("officer", day_list, False, REDIRECT),
        "bookings:door_guest": (
            "officer",
            lambda w: reverse("members:signin", args=[w.day.pk]),
            True,
            200,
        ),
        "bookings:substitutes": (
            "officer",
            lambda w: reverse("bookings:substitutes"),
            False,
            REDIRECT,
        ),
        "bookings:substitute_remove": (
            "officer",
            lambda w: reverse("bookings:substitutes"),
            False,
            REDIRECT,
        ),
        "bookings:announcements": (
            "officer",
            lambda w: reverse("bookings:announcements"),
            False,
            REDIRECT,
        ),
        "bookings:withdraw": (
            "officer",
            lambda w: reverse("bookings:announcements"),
            False,
            REDIRECT,
        ),
    }


def booking_typed() -> dict:
    return {
        "bookings:partners": lambda w: {"text": "I would like to play with you."},
        "bookings:add": lambda w: {"person": w.walt.pk},
        "bookings:substitutes": lambda w: {"person": w.sid.pk},
        "bookings:announcements": lambda w: {
            "title": "A rule change",
            "first_day": w.next_week.date.isoformat(),
        },
    }


def form_targets(name, world) -> str | None:
    """The address a form of the CSRF table posts to, where it has ids of its own."""
    if name == "bookings:remove":
        return reverse("bookings:remove", args=[world.next_week.pk, world.mary_booking.pk])
    if name == "bookings:no_show":
        return reverse("bookings:no_show", args=[world.day.pk, world.guest_booking.pk])
    if name == "bookings:cancel":
        return reverse("bookings:cancel", args=[world.next_week.pk])
    if name == "bookings:looking":
        return reverse("bookings:looking", args=[world.next_week.pk])
    return None


def booking_data_texts() -> list[str]:
    """Texts of the bookings' rows that are data, not the site's words (the catalogs'
    pseudo-language test): announcements, guests' names, notes."""
    texts = []
    for item in Announcement.objects.all():
        texts += [item.title, item.body]
    texts += list(Booking.objects.values_list("guest_name", flat=True))
    texts += list(Substitute.objects.values_list("note", flat=True))
    return texts
