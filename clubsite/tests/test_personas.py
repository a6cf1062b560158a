"""Every view of the site, for each of the four personas.

The personas: an **officer** (in the Officers group, not staff), a **member** (logged
in, with a Person record, seated at another table), a table's **keeper** (a device that
opened a table's secret link ``/t/<token>/``, nobody logged in) and an **outsider**
(anonymous).

`CASES` lists every named URL pattern of the site (admin apart) with the outcome each
persona must get for GET and for POST. `test_every_url_pattern_is_in_the_table` walks
the URL resolver and fails when a pattern is missing from `CASES`, so a new view cannot
ship without saying who may use it.

Outcomes: a status code, ``LOGIN`` (a redirect to the login page) or ``REDIRECT`` (a
redirect anywhere else). A refused request (403, 404, 405, 410, login) must leave the
database as it was. No persona ever gets a 500 (the test client re-raises errors).

The world (`build_world`) is built once per module and xdist worker, inside a
transaction rolled back at the end; each test runs in a savepoint inside it, so what a
test changes (an officer closing the day, say) is gone for the next one.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from clubsite.devices import GRANT_KEY
from members.bookings.tests.personas import booking_cases, booking_world
from members.clubs.scope import in_club
from members.jobs.models import ClubJob
from members.models import ClubDay, Person, Round, Seat, SignIn, Table
from members.money.tests.persona_cases import money_cases
from members.permissions import make_officer
from members.services import close_day
from members.tests.factories import (
    ClubDayFactory,
    GuestFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import ClubSettings, DayRules, Game, Hand, RuleSet, Season, WorkbookExport
from scoring.play.access import CLOSED_MESSAGE
from scoring.play.services.rulesets import set_day_rules
from scoring.results.mail import unsubscribe_token
from scoring.tests import games
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, LOSE, SMALL, WIN
from scoring.tourney.models import Ladder, LadderDay
from scoring.tourney.services.setup import create_event
from testsupport import first_club, restore_migration_data

# The other member's contact details: they must never reach a non-officer's page.
OLGA_EMAIL = "olga.private@contact-secret.test"
OLGA_PHONE = "555-867-5309"
OLGA_NOTES = "Secret note 7731: prefers the table by the window"
GUEST_EMAIL = "gus.guest@contact-secret.test"
GUEST_PHONE = "555-000-4242"
SECRETS = (OLGA_EMAIL, OLGA_PHONE, OLGA_NOTES, GUEST_EMAIL, GUEST_PHONE)

# Today: table links and room codes work only on their day's date.
DAY = timezone.localdate()
LAST_WEEK = DAY - datetime.timedelta(days=7)
NEXT_WEEK = DAY + datetime.timedelta(days=7)

PERSONAS = ("officer", "member", "keeper", "outsider")
LOGIN = "login"
REDIRECT = "redirect"


# ---------------------------------------------------------------------------------------
# The world


@pytest.fixture(autouse=True)
def _fast(settings):
    """Cheap password hashing (the login form, new logins); the shared cache is emptied
    for every test by the root ``conftest.py``."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _play(table, teams, hands, **options):
    """A game through the services, at the services' own clock (now)."""
    return games.play(table, teams, hands, on_the_day=False, **options)


def build_world(prefix: str = "") -> SimpleNamespace:
    """An open club day with a seated, started round: table 1 (Olga, Ann, Gus the guest,
    Bob) has a finished game and a game in play with two hands; table 2 (Mary the
    member, Cat, Dan, Eve) has no game yet. Last week's day is closed (with a finished
    game), next week's is open (one table). A season, the preset rule sets and a house
    rule set. Walt is a member not signed in; Sid is signed in but not seated. All in the
    active club; ``prefix`` starts the user names (two worlds, two clubs)."""
    User = get_user_model()
    officer = User.objects.create_user(f"{prefix}officer", first_name="Olive", last_name="Officer")
    make_officer(officer)
    mary = MemberFactory(
        first_name="Mary",
        last_name="Member",
        membership_number="9001",
        name_only=True,
        email="mary@example.org",
        phone="555-0101",
        user=User.objects.create_user(f"{prefix}member"),
    )
    ClubSettings.load()
    club = RuleSet.objects.get(slug="club")
    house = RuleSet.objects.create(
        name="House rules",
        slug="house",
        based_on="club",
        is_preset=False,
        settings=dict(club.settings),
    )
    olga = MemberFactory(
        first_name="Olga",
        last_name="Private",
        membership_number="3001",
        email=OLGA_EMAIL,
        phone=OLGA_PHONE,
        notes=OLGA_NOTES,
        joined=datetime.date(2019, 5, 1),
    )
    plain = [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]
    plain += [("Eve", "Early"), ("Walt", "Walkin"), ("Sid", "Sitout")]
    ann, bob, cat, dan, eve, walt, sid = (
        MemberFactory(first_name=a, last_name=b, membership_number=str(3002 + i), name_only=True)
        for i, (a, b) in enumerate(plain)
    )
    gus = GuestFactory(
        first_name="Gus",
        last_name="Guest",
        email=GUEST_EMAIL,
        phone=GUEST_PHONE,
        brought_by=olga,
    )

    # Last week: closed, with a finished game Mary and Olga played.
    last_week = ClubDayFactory(date=LAST_WEEK, title="Last week", signed_in=[mary, olga, ann, bob])
    old_round = RoundFactory(day=last_week, number=1, started=True)
    closed_table = TableFactory(round=old_round, number=1, seated=[mary, olga, ann, bob])
    closed_game = _play(closed_table, [[mary, ann], [olga, bob]], [[WIN, LOSE]] * 3)
    close_day(last_week)

    # Today: open.
    day = ClubDayFactory(date=DAY, title="Thursday")
    for p in (olga, ann, gus, bob, mary, cat, dan, eve, sid):
        SignInFactory(
            day=day, person=p, card_shown=not p.is_guest, brought_by=olga if p == gus else None
        )
    set_day_rules(day, club)
    round1 = RoundFactory(day=day, number=1, started=True)
    table1 = TableFactory(round=round1, number=1, seated=[olga, ann, gus, bob])
    table2 = TableFactory(round=round1, number=2, seated=[mary, cat, dan, eve])
    finished = _play(
        table1, [[olga, gus], [ann, bob]], [[WIN, LOSE]] * 3, score_keeper=ann, first_dealer=ann
    )
    playing = _play(
        table1, [[olga, ann], [gus, bob]], [[BIG, SMALL], [SMALL, BIG]], score_keeper=ann
    )
    assert finished.status == Game.Status.FINISHED
    assert playing.status == Game.Status.PLAYING and playing.hand_count == 2

    # Next week: open, one table without a game.
    next_week = ClubDayFactory(date=NEXT_WEEK, title="Next week")
    next_week_table = TableFactory(round__day=next_week, number=1, seated=[ann, bob, cat, dan])
    # Next week is played as an event (not started); last week counts for a ladder.
    event = create_event(next_week, name="Pairs night", rounds=1, rule_set=club)
    ladder = Ladder.objects.create(name="Autumn ladder")
    LadderDay.objects.create(ladder=ladder, day=last_week)

    season = Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    # A league workbook an officer asked for in Spanish, still waiting for the worker
    # (the officer's ask in English makes one of its own).
    workbook = WorkbookExport.objects.create(
        requested_by=officer,
        requested_at=timezone.now(),
        season=season,
        start=season.start,
        end=season.end,
        language="es",
    )
    # A club backup an officer asked for, still waiting for the worker.
    job = ClubJob.objects.create(
        kind="backup", key="persona-backup", requested_by=officer, requested_at=timezone.now()
    )
    world = SimpleNamespace(
        officer=officer,
        mary=mary,
        olga=olga,
        ann=ann,
        bob=bob,
        gus=gus,
        walt=walt,
        sid=sid,
        sid_signin=SignIn.objects.get(day=day, person=sid),
        day=day,
        round1=round1,
        table1=table1,
        table2=table2,
        finished=finished,
        playing=playing,
        hand1=Hand.objects.get(game=playing, number=1),
        last_week=last_week,
        closed_table=closed_table,
        closed_game=closed_game,
        next_week=next_week,
        next_week_table=next_week_table,
        event=event,
        ladder=ladder,
        season=season,
        workbook=workbook,
        job=job,
        club_rules=club,
        house_rules=house,
    )
    vars(world).update(booking_world(vars(world)))
    return world


@pytest.fixture(scope="module")
def world_keys(django_db_setup, django_db_blocker):
    """The world, built once per module (and per xdist worker) inside a transaction
    that is rolled back at the end; each test runs in a savepoint inside it."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        if first_club() is None:  # flushed by a transactional test this worker ran
            restore_migration_data()
        with in_club(first_club()):
            world = build_world()
    yield {key: (type(obj), obj.pk) for key, obj in vars(world).items()}
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world(world_keys, db):
    """Fresh instances of the world's objects for one test."""
    return SimpleNamespace(
        **{key: model._default_manager.get(pk=pk) for key, (model, pk) in world_keys.items()}
    )


def persona_client(world, persona: str, **client_kwargs) -> Client:
    """A fresh client for ``persona``; the keeper has opened table 1's link."""
    client = Client(**client_kwargs)
    if persona == "officer":
        client.force_login(world.officer)
    elif persona == "member":
        client.force_login(world.mary.user)
    elif persona == "keeper":
        response = client.get(reverse("scoring:table_link", args=[world.table1.token]))
        assert response.status_code == 302, response.status_code
        assert response["Location"] == reverse("scoring:table", args=[world.table1.pk])
    else:
        assert persona == "outsider"
    return client


def db_state():
    """Everything a refused request must leave as it was."""
    User = get_user_model()
    return {
        "days": list(ClubDay.objects.order_by("pk").values_list("pk", "status", "date", "title")),
        "signins": list(SignIn.objects.order_by("pk").values_list("pk", "person", "day")),
        "people": list(
            Person.objects.order_by("pk").values_list(
                "pk", "kind", "membership_number", "first_name", "email", "phone", "user"
            )
        ),
        "rounds": list(Round.objects.order_by("pk").values_list("pk", "number", "started")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "table", "person")),
        "tables": list(Table.objects.order_by("pk").values_list("pk", "round", "number")),
        "games": list(Game.objects.order_by("pk").values_list("pk", "status", "number")),
        "hands": list(Hand.objects.order_by("pk").values_list("pk", "game", "number", "version")),
        "rule_sets": list(RuleSet.objects.order_by("pk").values_list("pk", "name", "settings")),
        "day_rules": list(DayRules.objects.order_by("pk").values_list("pk", "day", "rule_set")),
        "seasons": list(Season.objects.order_by("pk").values_list("pk", "name", "start", "end")),
        "club": list(ClubSettings.objects.values_list("public_standings", "min_games_to_rank")),
        "users": list(User.objects.order_by("pk").values_list("pk", "username", "password")),
    }


# ---------------------------------------------------------------------------------------
# The table of every view


def E(officer, member, keeper, outsider) -> dict:
    return {"officer": officer, "member": member, "keeper": keeper, "outsider": outsider}


PUBLIC = E(200, 200, 200, 200)
LOGGED_IN = E(200, 200, LOGIN, LOGIN)
OFFICERS = E(200, 403, LOGIN, LOGIN)
OFFICERS_REDIRECT = E(REDIRECT, 403, LOGIN, LOGIN)
OFFICERS_405 = E(405, 403, LOGIN, LOGIN)  # officers' GET-only (or POST-only) views
TABLE = E(200, 404, 200, 404)  # table 1: the member sits at table 2
TABLE_REDIRECT = E(REDIRECT, 404, REDIRECT, 404)
BOARD = E(200, 404, 404, 404)  # without the day's board code only officers see it


@dataclass(frozen=True)
class Case:
    url: object  # world -> path
    get: dict
    post: dict
    data: object = None  # world -> POST data
    changes: bool = False  # a form that changes things (see test_csrf_and_leaks)

    def post_data(self, world) -> dict:
        return self.data(world) if self.data else {}


def _r(name, *args):
    return reverse(name, args=args)


CASES: dict[str, Case] = {
    # -- root ---------------------------------------------------------------------------
    "home": Case(lambda w: _r("home"), PUBLIC, PUBLIC),
    "healthz": Case(lambda w: _r("healthz"), PUBLIC, PUBLIC),
    "manifest": Case(lambda w: _r("manifest"), PUBLIC, E(405, 405, 405, 405)),
    "service_worker": Case(lambda w: _r("service_worker"), PUBLIC, E(405, 405, 405, 405)),
    "app_start": Case(lambda w: _r("app_start"), E(*[REDIRECT] * 4), E(405, 405, 405, 405)),
    "choose_language": Case(
        lambda w: _r("choose_language"),
        E(405, 405, 405, 405),
        E(*[REDIRECT] * 4),
        lambda w: {"language": "es", "next": "/"},
    ),
    "choose_display": Case(
        lambda w: _r("choose_display"),
        E(405, 405, 405, 405),
        E(*[REDIRECT] * 4),
        lambda w: {"larger": "1", "next": "/"},
    ),
    "login": Case(lambda w: _r("login"), PUBLIC, PUBLIC, changes=True),
    # The admin's login is the site's (nothing is tried there: clubsite/tests/test_security.py).
    "admin_login": Case(
        lambda w: _r("admin_login") + "?next=/admin/", E(*[LOGIN] * 4), E(*[LOGIN] * 4)
    ),
    "logout": Case(lambda w: _r("logout"), E(405, 405, 405, 405), E(*[REDIRECT] * 4), changes=True),
    "password_change": Case(lambda w: _r("password_change"), LOGGED_IN, LOGGED_IN, changes=True),
    "password_change_done": Case(
        lambda w: _r("password_change_done"), LOGGED_IN, E(405, 405, LOGIN, LOGIN)
    ),
    # -- clubs: a login's clubs, the club's settings (officers) --------------------------
    "my_clubs": Case(lambda w: _r("my_clubs"), LOGGED_IN, E(405, 405, LOGIN, LOGIN)),
    "club_settings": Case(
        lambda w: _r("club_settings"),
        OFFICERS,
        OFFICERS,
        lambda w: {"club-name": ""},  # refused with a message: the name is required
        changes=True,
    ),
    # A new officer's one-time link to set a password (here a link that does not work).
    "password_reset_confirm": Case(
        lambda w: _r("password_reset_confirm", "MQ", "not-a-token"),
        E(*[400] * 4),
        E(*[400] * 4),
    ),
    # "Start a club": off unless CLUB_SIGNUP (clubsite/tests/test_club_signup.py).
    "club_signup": Case(lambda w: _r("club_signup"), E(*[404] * 4), E(*[404] * 4)),
    "club_signup_sent": Case(lambda w: _r("club_signup_sent"), E(*[404] * 4), E(*[405] * 4)),
    "club_signup_confirm": Case(
        lambda w: _r("club_signup_confirm", "a:b:c"), E(*[404] * 4), E(*[404] * 4)
    ),
    # -- members: club days, the door, seating ------------------------------------------
    "members:days": Case(
        lambda w: _r("members:days"),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"date": "2025-04-03", "title": "Extra day"},
        changes=True,
    ),
    "members:day": Case(
        lambda w: _r("members:day", w.day.pk),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"action": "close"},
        changes=True,
    ),
    "members:day_close": Case(lambda w: _r("members:day_close", w.day.pk), OFFICERS, OFFICERS_405),
    "members:signin": Case(lambda w: _r("members:signin", w.day.pk), OFFICERS, OFFICERS_405),
    "members:signin_person": Case(
        lambda w: _r("members:signin_person", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"person": w.walt.pk, "card_shown": "on"},
        changes=True,
    ),
    "members:signin_guest": Case(
        lambda w: _r("members:signin_guest", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"first_name": "Greta", "last_name": "Newguest", "brought_by": w.olga.pk},
        changes=True,
    ),
    "members:signin_undo": Case(
        lambda w: _r("members:signin_undo", w.day.pk, w.sid_signin.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        changes=True,
    ),
    "members:signin_list": Case(
        lambda w: _r("members:signin_list", w.day.pk), OFFICERS, OFFICERS_405
    ),
    "members:seating": Case(lambda w: _r("members:seating", w.day.pk), OFFICERS, OFFICERS_405),
    "members:seating_draw": Case(
        lambda w: _r("members:seating_draw", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"remainder": "threes"},
        changes=True,
    ),
    "members:seating_start": Case(
        lambda w: _r("members:seating_start", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"round": "1"},
        changes=True,
    ),
    "members:seating_move": Case(
        lambda w: _r("members:seating_move", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"round": "1"},
        changes=True,
    ),
    "members:seating_swap": Case(
        lambda w: _r("members:seating_swap", w.day.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"round": "1"},
        changes=True,
    ),
    "members:seating_display": Case(
        lambda w: _r("members:seating_display", w.day.pk), OFFICERS, OFFICERS_405
    ),
    # -- members: people ----------------------------------------------------------------
    "members:people": Case(lambda w: _r("members:people"), OFFICERS, OFFICERS_405),
    "members:person_new": Case(
        lambda w: _r("members:person_new"),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {
            "kind": "member",
            "membership_number": "7777",
            "first_name": "Pat",
            "last_name": "Newman",
            "status": "active",
        },
        changes=True,
    ),
    "members:import": Case(lambda w: _r("members:import"), OFFICERS, OFFICERS, changes=True),
    "members:job": Case(lambda w: _r("members:job", w.job.pk), OFFICERS, OFFICERS_405),
    # Not made yet: nothing to download (404), for officers only.
    "members:job_file": Case(
        lambda w: _r("members:job_file", w.job.pk), E(404, 403, LOGIN, LOGIN), OFFICERS_405
    ),
    "members:merge": Case(lambda w: _r("members:merge"), OFFICERS, OFFICERS, changes=True),
    "members:person": Case(lambda w: _r("members:person", w.olga.pk), OFFICERS, OFFICERS_405),
    "members:person_edit": Case(
        lambda w: _r("members:person_edit", w.olga.pk),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {
            "kind": "member",
            "membership_number": "3001",
            "first_name": "Olga",
            "last_name": "Private-Smith",
            "email": OLGA_EMAIL,
            "phone": OLGA_PHONE,
            "status": "active",
            "joined": "2019-05-01",
            "notes": OLGA_NOTES,
        },
        changes=True,
    ),
    "members:person_convert": Case(
        lambda w: _r("members:person_convert", w.gus.pk),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"membership_number": "8888"},
        changes=True,
    ),
    "members:person_login": Case(
        lambda w: _r("members:person_login", w.walt.pk), OFFICERS_405, OFFICERS, changes=True
    ),
    "members:me": Case(lambda w: _r("members:me"), LOGGED_IN, E(405, 405, LOGIN, LOGIN)),
    "members:me_results_mail": Case(
        lambda w: _r("members:me_results_mail"),
        E(405, 405, LOGIN, LOGIN),
        E(404, REDIRECT, LOGIN, LOGIN),  # the officer has no Person record
        lambda w: {"results_by_email": "on"},
        changes=True,
    ),
    "members:me_language": Case(
        lambda w: _r("members:me_language"),
        E(405, 405, LOGIN, LOGIN),
        E(404, REDIRECT, LOGIN, LOGIN),  # the officer has no Person record
        lambda w: {"language": "es"},
        changes=True,
    ),
    # -- scoring: getting to a table (public by design: the code/token is the secret) ---
    "scoring:room": Case(
        lambda w: _r("scoring:room"),
        E(*[REDIRECT] * 4),
        E(*[REDIRECT] * 4),
        lambda w: {"room_code": w.table1.room_code},
        changes=True,
    ),
    "scoring:table_link": Case(
        lambda w: _r("scoring:table_link", w.table1.token), E(*[REDIRECT] * 4), E(*[REDIRECT] * 4)
    ),
    # -- scoring: table 1 and its games -------------------------------------------------
    "scoring:table": Case(lambda w: _r("scoring:table", w.table1.pk), TABLE, TABLE),
    "scoring:game_start": Case(
        lambda w: _r("scoring:game_start", w.table1.pk),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        changes=True,
    ),
    "scoring:phone_name": Case(
        lambda w: _r("scoring:phone_name", w.table1.pk),
        E(405, 405, 405, 405),
        TABLE_REDIRECT,
        lambda w: {"name": "Betty"},
    ),
    "scoring:game": Case(lambda w: _r("scoring:game", w.playing.pk), TABLE, TABLE),
    "scoring:hand_new": Case(
        lambda w: _r("scoring:hand_new", w.playing.pk),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        lambda w: quick_post([BIG, SMALL], 3),
        changes=True,
    ),
    "scoring:hand_replace": Case(
        lambda w: _r("scoring:hand_replace", w.playing.pk),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        lambda w: quick_post([BIG, SMALL], 3),  # no hand named: nothing is replaced
        changes=True,
    ),
    "scoring:failed_meld": Case(
        lambda w: _r("scoring:failed_meld", w.playing.pk, 0),
        TABLE_REDIRECT,
        TABLE,
        lambda w: quick_post([BIG, SMALL], 3),
        changes=True,
    ),
    "scoring:failed_meld_back": Case(
        lambda w: _r("scoring:failed_meld_back", w.playing.pk, 0),
        TABLE_REDIRECT,
        TABLE,
        lambda w: quick_post([BIG, SMALL], 3),
        changes=True,
    ),
    "scoring:hand_preview": Case(
        lambda w: _r("scoring:hand_preview", w.playing.pk),
        E(405, 405, 405, 405),
        TABLE,
        lambda w: quick_post([BIG, SMALL], 3, action="preview"),
    ),
    "scoring:hand_detail": Case(
        lambda w: _r("scoring:hand_detail", w.playing.pk, 0), TABLE, E(405, 405, 405, 405)
    ),
    "scoring:hand_undo": Case(
        lambda w: _r("scoring:hand_undo", w.playing.pk),
        TABLE,
        TABLE_REDIRECT,
        lambda w: {"hand_count": "2"},
        changes=True,
    ),
    "scoring:hand_edit": Case(
        lambda w: _r("scoring:hand_edit", w.playing.pk, 1),
        TABLE,
        TABLE_REDIRECT,
        lambda w: quick_post([SMALL, BIG], 1, version=w.hand1.version),
        changes=True,
    ),
    "scoring:hand_confirm": Case(
        lambda w: _r("scoring:hand_confirm", w.playing.pk, 1),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        lambda w: {"action": "confirm", "person": str(w.bob.pk), "version": "1"},
        changes=True,
    ),
    "scoring:game_keeper": Case(
        lambda w: _r("scoring:game_keeper", w.playing.pk),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        lambda w: {"person": str(w.bob.pk)},
        changes=True,
    ),
    "scoring:hand_settle": Case(
        lambda w: _r("scoring:hand_settle", w.playing.pk, 1),
        E(REDIRECT, 404, 403, 404),  # officers only; outsiders never learn the game exists
        E(REDIRECT, 404, 403, 404),
        lambda w: {"version": "1"},
        changes=True,
    ),
    "scoring:game_settle_all": Case(
        lambda w: _r("scoring:game_settle_all", w.playing.pk),
        E(REDIRECT, 404, 403, 404),  # officers only; outsiders never learn the game exists
        E(REDIRECT, 404, 403, 404),
        lambda w: {"version-1": "1"},
        changes=True,
    ),
    "scoring:next_game": Case(
        lambda w: _r("scoring:next_game", w.playing.pk),
        TABLE_REDIRECT,
        TABLE_REDIRECT,
        changes=True,
    ),
    # -- scoring: events ----------------------------------------------------------------
    "scoring:event": Case(lambda w: _r("scoring:event", w.next_week.pk), OFFICERS, OFFICERS_405),
    "scoring:event_edit": Case(
        lambda w: _r("scoring:event_edit", w.next_week.pk), OFFICERS, OFFICERS
    ),
    "scoring:event_action": Case(
        lambda w: _r("scoring:event_action", w.event.pk, "pause"),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"number": "1", "key": "persona-key-0123456789"},
        changes=True,
    ),
    "scoring:event_ranking": Case(
        lambda w: _r("scoring:event_ranking", w.event.pk), LOGGED_IN, E(*[405] * 4)
    ),
    "scoring:event_prizes": Case(
        lambda w: _r("scoring:event_prizes", w.event.pk), LOGGED_IN, E(*[405] * 4)
    ),
    "scoring:event_follow": Case(
        lambda w: _r("scoring:event_follow", w.table1.pk), E(*[405] * 4), TABLE_REDIRECT
    ),
    "scoring:event_arrive": Case(
        lambda w: _r("scoring:event_arrive", w.table1.pk),
        E(*[405] * 4),
        TABLE_REDIRECT,
        lambda w: {"side": "0"},
        changes=True,
    ),
    "scoring:ladders": Case(lambda w: _r("scoring:ladders"), LOGGED_IN, E(*[405] * 4)),
    "scoring:ladder": Case(lambda w: _r("scoring:ladder", w.ladder.pk), LOGGED_IN, E(*[405] * 4)),
    "scoring:ladder_new": Case(lambda w: _r("scoring:ladder_new"), OFFICERS, OFFICERS),
    "scoring:ladder_edit": Case(
        lambda w: _r("scoring:ladder_edit", w.ladder.pk), OFFICERS, OFFICERS
    ),
    # -- scoring: officers --------------------------------------------------------------
    "scoring:table_cards": Case(lambda w: _r("scoring:table_cards", w.day.pk), OFFICERS, OFFICERS),
    "scoring:day_rules": Case(
        lambda w: _r("scoring:day_rules", w.day.pk),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"rule_set": w.house_rules.pk},
        changes=True,
    ),
    "scoring:rulesets": Case(lambda w: _r("scoring:rulesets"), OFFICERS, OFFICERS),
    "scoring:ruleset_new": Case(
        lambda w: _r("scoring:ruleset_new"),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"source": w.club_rules.pk, "name": "Copied rules"},
        changes=True,
    ),
    "scoring:ruleset_edit": Case(
        lambda w: _r("scoring:ruleset_edit", w.house_rules.pk), OFFICERS, OFFICERS, changes=True
    ),
    "scoring:ruleset_default": Case(
        lambda w: _r("scoring:ruleset_default", w.house_rules.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        changes=True,
    ),
    # -- scoring: results ---------------------------------------------------------------
    "scoring:standings": Case(lambda w: _r("scoring:standings"), LOGGED_IN, LOGGED_IN),
    "scoring:partnerships": Case(lambda w: _r("scoring:partnerships"), LOGGED_IN, LOGGED_IN),
    "scoring:standings_settings": Case(
        lambda w: _r("scoring:standings_settings"), OFFICERS, OFFICERS, changes=True
    ),
    "scoring:league_workbook": Case(
        lambda w: _r("scoring:league_workbook"), OFFICERS, OFFICERS_405
    ),
    "scoring:workbook": Case(
        lambda w: _r("scoring:workbook", w.workbook.pk), OFFICERS, OFFICERS_405
    ),
    # Not ready yet: nothing to download (404), for officers only.
    "scoring:workbook_file": Case(
        lambda w: _r("scoring:workbook_file", w.workbook.pk),
        E(404, 403, LOGIN, LOGIN),
        OFFICERS_405,
    ),
    "scoring:work": Case(
        lambda w: _r("scoring:work"),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"action": "rebuild", "key": "persona-rebuild"},
        changes=True,
    ),
    "scoring:day_results": Case(lambda w: _r("scoring:day_results"), LOGGED_IN, LOGGED_IN),
    "scoring:day_result": Case(
        lambda w: _r("scoring:day_result", w.last_week.pk), LOGGED_IN, LOGGED_IN
    ),
    "scoring:records": Case(lambda w: _r("scoring:records"), LOGGED_IN, LOGGED_IN),
    "scoring:player": Case(lambda w: _r("scoring:player", w.olga.pk), LOGGED_IN, LOGGED_IN),
    "scoring:day_sheet": Case(
        lambda w: _r("scoring:day_sheet", w.last_week.pk), LOGGED_IN, E(*[405] * 4)
    ),
    "scoring:day_mail": Case(
        lambda w: _r("scoring:day_mail", w.last_week.pk), OFFICERS, OFFICERS_405
    ),
    "scoring:send_results": Case(
        lambda w: _r("scoring:send_results", w.last_week.pk),
        OFFICERS_405,
        OFFICERS_REDIRECT,
        lambda w: {"key": "persona-test"},
        changes=True,
    ),
    # The signed link in a results e-mail is the permission: no login.
    "scoring:results_unsubscribe": Case(
        lambda w: _r("scoring:results_unsubscribe", unsubscribe_token(w.mary)), PUBLIC, PUBLIC
    ),
    # -- scoring: the room board (the day's board code is the secret) -------------------
    "scoring:board_entry": Case(
        lambda w: _r("scoring:board_entry"),
        PUBLIC,
        E(*[REDIRECT] * 4),
        lambda w: {"board_code": w.day.board_code},
        changes=True,
    ),
    "scoring:board_link": Case(
        lambda w: _r("scoring:board_link", w.day.board_code), E(*[REDIRECT] * 4), E(*[405] * 4)
    ),
    "scoring:board": Case(lambda w: _r("scoring:board", w.day.pk), BOARD, E(*[405] * 4)),
    "scoring:board_live": Case(lambda w: _r("scoring:board_live", w.day.pk), BOARD, E(*[405] * 4)),
    "scoring:seasons": Case(lambda w: _r("scoring:seasons"), OFFICERS, OFFICERS),
    "scoring:season_new": Case(
        lambda w: _r("scoring:season_new"),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"name": "2026", "start": "2026-01-01", "end": "2026-12-31"},
        changes=True,
    ),
    "scoring:season_edit": Case(
        lambda w: _r("scoring:season_edit", w.season.pk),
        OFFICERS,
        OFFICERS_REDIRECT,
        lambda w: {"name": "Season 2025", "start": "2025-01-01", "end": "2025-12-31"},
        changes=True,
    ),
}
CASES.update(booking_cases(Case, E))

# The money pages (issue 34): members/money/tests/persona_cases.py.
CASES.update(money_cases(Case, E, LOGIN, REDIRECT))


def site_pattern_names() -> set[str]:
    """Every URL pattern of the site as "namespace:name" (admin apart). An unnamed
    pattern is listed by its route, so that it fails the completeness test too."""
    found: set[str] = set()

    def walk(patterns, namespaces, prefix):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace == "admin":
                    continue
                ns = [*namespaces, p.namespace] if p.namespace else namespaces
                walk(p.url_patterns, ns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                if p.name:
                    found.add(":".join([*namespaces, p.name]))
                else:
                    found.add(f"<unnamed {prefix}{p.pattern}>")

    walk(get_resolver().url_patterns, [], "")
    return found


def check_outcome(response, expected, url):
    status = response.status_code
    assert status != 500
    where = f"{response.request['REQUEST_METHOD']} {url}"
    login_url = resolve_url("login")
    if expected == LOGIN:
        assert status == 302, f"{where}: expected a login redirect, got {status}"
        assert response["Location"].startswith(f"{login_url}?next="), (
            f"{where}: redirected to {response['Location']}, not to the login page"
        )
    elif expected == REDIRECT:
        assert status == 302, f"{where}: expected a redirect, got {status}"
        assert not response["Location"].startswith(login_url), f"{where}: sent to the login page"
    else:
        assert status == expected, f"{where}: expected {expected}, got {status}"


def _refused(expected) -> bool:
    return expected == LOGIN or expected in (403, 404, 405, 410)


def _params():
    for name in CASES:
        for method in ("GET", "POST"):
            for persona in PERSONAS:
                yield pytest.param(name, method, persona, id=f"{name}-{method}-{persona}")


def test_every_url_pattern_is_in_the_table():
    """A new view without persona expectations here fails CI (and a removed one too)."""
    names = site_pattern_names()
    missing = sorted(names - set(CASES))
    stale = sorted(set(CASES) - names)
    assert not missing, f"views without a persona test (add them to CASES): {missing}"
    assert not stale, f"CASES lists patterns that no longer exist: {stale}"


@pytest.mark.parametrize(("name", "method", "persona"), list(_params()))
def test_persona(world, name, method, persona):
    case = CASES[name]
    client = persona_client(world, persona)
    url = case.url(world)
    expected = (case.get if method == "GET" else case.post)[persona]
    before = db_state()
    response = client.get(url) if method == "GET" else client.post(url, case.post_data(world))
    check_outcome(response, expected, url)
    if _refused(expected):
        assert db_state() == before, f"{method} {url} as {persona} was refused but changed data"


# ---------------------------------------------------------------------------------------
# Admin: staff only, whatever the club role


ADMIN_URLS = ["/admin/", "/admin/members/person/", "/admin/auth/user/"]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("url", ADMIN_URLS)
def test_admin_is_for_staff_only(world, persona, url):
    response = persona_client(world, persona).get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=")


@pytest.mark.parametrize("persona", PERSONAS)
def test_admin_refuses_a_post_from_non_staff(world, persona):
    before = db_state()
    url = f"/admin/members/person/{world.olga.pk}/change/"
    response = persona_client(world, persona).post(url, {"first_name": "Hacked"})
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=")
    assert db_state() == before


def test_admin_opens_for_a_superuser(world, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password=None)
    client = Client()
    client.force_login(boss)
    assert client.get("/admin/").status_code == 200


# ---------------------------------------------------------------------------------------
# Table links and room codes: one table, one day, dead once the day is closed


def _table_pages(world, game):
    return [
        reverse("scoring:table", args=[game.table_id]),
        reverse("scoring:game", args=[game.pk]),
        reverse("scoring:hand_edit", args=[game.pk, 1]),
        reverse("scoring:hand_undo", args=[game.pk]),
        reverse("scoring:game_start", args=[game.table_id]),
        reverse("scoring:next_game", args=[game.pk]),
    ]


def test_keeper_reaches_its_table_pages(world):
    keeper = persona_client(world, "keeper")
    for game in (world.playing, world.finished):
        table_page = reverse("scoring:table", args=[game.table_id])
        for url in _table_pages(world, game):
            response = keeper.get(url)
            # The page itself, or (game already started, not over yet) its table page.
            if response.status_code != 200:
                assert response.status_code == 302, url
                assert response["Location"] == table_page, url


def test_table_link_dead_once_the_day_is_closed(world):
    keeper = persona_client(world, "keeper")
    officer = persona_client(world, "officer")
    response = officer.post(reverse("members:day", args=[world.day.pk]), {"action": "close"})
    assert response.status_code == 302
    world.day.refresh_from_db()
    assert not world.day.is_open

    for url in _table_pages(world, world.playing):
        response = keeper.get(url)
        assert response.status_code == 410, url
        assert CLOSED_MESSAGE in response.content.decode(), url

    hands = Hand.objects.count()
    game_pk = world.playing.pk
    response = keeper.post(reverse("scoring:hand_new", args=[game_pk]), quick_post([BIG, SMALL], 3))
    assert response.status_code == 410
    response = keeper.post(
        reverse("scoring:hand_preview", args=[game_pk]),
        quick_post([BIG, SMALL], 3),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 410
    response = keeper.post(reverse("scoring:hand_undo", args=[game_pk]), {"hand_count": "2"})
    assert response.status_code == 410
    assert Hand.objects.count() == hands

    # The link itself, on the same device or a fresh one.
    for device in (keeper, Client()):
        response = device.get(reverse("scoring:table_link", args=[world.table1.token]))
        assert response.status_code == 410
        assert CLOSED_MESSAGE in response.content.decode()

    # Nor does the table's room code.
    response = keeper.post(reverse("scoring:room"), {"room_code": world.table1.room_code})
    assert response.status_code == 200
    assert CLOSED_MESSAGE in response.content.decode()

    # The officer still sees the table (to settle a disputed hand).
    assert officer.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 200


def test_room_code_of_a_closed_day_is_refused(world):
    client = Client()
    response = client.post(reverse("scoring:room"), {"room_code": world.closed_table.room_code})
    assert response.status_code == 200
    assert CLOSED_MESSAGE in response.content.decode()
    assert GRANT_KEY not in client.session
    assert client.get(reverse("scoring:table", args=[world.closed_table.pk])).status_code == 404


def test_table_link_of_a_closed_day_is_refused(world):
    client = Client()
    response = client.get(reverse("scoring:table_link", args=[world.closed_table.token]))
    assert response.status_code == 410
    assert CLOSED_MESSAGE in response.content.decode()
    assert GRANT_KEY not in client.session
    assert client.get(reverse("scoring:game", args=[world.closed_game.pk])).status_code == 404


def test_room_code_opens_only_its_table(world):
    client = Client()
    response = client.post(reverse("scoring:room"), {"room_code": world.table1.room_code.lower()})
    assert response.status_code == 302
    assert client.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 200
    assert client.get(reverse("scoring:table", args=[world.table2.pk])).status_code == 404


def test_table_link_cannot_reach_another_table_or_day(world):
    keeper = persona_client(world, "keeper")
    for table in (world.table2, world.next_week_table, world.closed_table):
        for name in ("scoring:table", "scoring:game_start"):
            response = keeper.get(reverse(name, args=[table.pk]))
            assert response.status_code == 404, (name, table)
        response = keeper.post(reverse("scoring:game_start", args=[table.pk]), {})
        assert response.status_code == 404
    game = world.closed_game
    for name in ("scoring:game", "scoring:hand_undo", "scoring:next_game", "scoring:hand_new"):
        assert keeper.get(reverse(name, args=[game.pk])).status_code == 404, name
    before = db_state()
    response = keeper.post(
        reverse("scoring:hand_edit", args=[game.pk, 1]), quick_post([SMALL, BIG], 1, version=1)
    )
    assert response.status_code == 404
    response = keeper.post(
        reverse("scoring:hand_preview", args=[game.pk]),
        quick_post([BIG, SMALL], 4, action="preview"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 404
    assert db_state() == before


def test_a_second_link_replaces_the_first(world):
    """A device holds one grant: opening table 2's link loses table 1."""
    keeper = persona_client(world, "keeper")
    keeper.get(reverse("scoring:table_link", args=[world.table2.token]))
    assert keeper.get(reverse("scoring:table", args=[world.table2.pk])).status_code == 200
    assert keeper.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 404


def test_logging_out_drops_the_grant(world):
    keeper = persona_client(world, "keeper")
    keeper.post(reverse("logout"))
    assert keeper.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 404


def test_seated_member_sees_own_table_and_only_reads_it_once_closed(world):
    member = persona_client(world, "member")
    table2 = reverse("scoring:table", args=[world.table2.pk])
    assert member.get(table2).status_code == 200
    close_day(world.day)
    assert member.get(table2).status_code == 200
    before = db_state()
    response = member.post(reverse("scoring:game_start", args=[world.table2.pk]), {})
    assert response.status_code == 410
    assert db_state() == before
    # Still nothing of table 1.
    assert member.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 404


def test_public_standings_open_results_but_never_players_or_tables(world):
    ClubSettings.objects.update_or_create(defaults={"public_standings": True})
    outsider = Client()
    for name in ("scoring:standings", "scoring:partnerships", "scoring:day_results"):
        assert outsider.get(reverse(name)).status_code == 200, name
    assert outsider.get(reverse("scoring:records")).status_code == 200
    day_result = reverse("scoring:day_result", args=[world.last_week.pk])
    assert outsider.get(day_result).status_code == 200
    response = outsider.get(reverse("scoring:player", args=[world.olga.pk]))
    assert response.status_code == 302 and response["Location"].startswith(resolve_url("login"))
    assert outsider.get(reverse("scoring:table", args=[world.table1.pk])).status_code == 404
    assert outsider.get(reverse("members:me")).status_code == 302


# ---------------------------------------------------------------------------------------
# Odd input: a 4xx or a friendly page, never a 500


ODD_URLS = [
    lambda w: "/standings/?start=2025-13-45",
    lambda w: "/standings/?season=abc",
    lambda w: "/standings/?season=99999&guests=maybe",
    lambda w: "/standings/?start=2025-05-01&end=2025-01-01",
    lambda w: "/standings/?page=abc&sort=nonexistent",
    lambda w: "/standings/league.xlsx?season=abc",
    lambda w: "/results/?season=-1&page=0",
    lambda w: "/records/?_export=csv&table=nope",
    lambda w: "/results/999999/",
    lambda w: "/players/999999/",
    lambda w: f"/players/{w.olga.pk}/?_export=csv&table=zzz&page=x&p-page=y&o-page=z",
    lambda w: "/people/?format=csv&kind=bogus&status=zzz&page=abc",
    lambda w: f"/days/{w.day.pk}/seating/?round=abc",
    lambda w: f"/days/{w.day.pk}/seating/?round=99",
    lambda w: f"/days/{w.day.pk}/door/?q={'x' * 500}",
    lambda w: "/days/99999/door/",
    lambda w: f"/people/merge/?a=abc&b={w.olga.pk}",
    lambda w: "/rules/new/?from=abc",
    lambda w: f"/tables/{w.table1.pk}/start/?rule_set=99999999999999",
    lambda w: f"/tables/{w.table2.pk}/start/?rule_set=abc",
    lambda w: f"/games/{w.playing.pk}/hands/99/edit/",
    lambda w: "/games/99999/",
    lambda w: "/tables/999999/",
    lambda w: f"/t/{'x' * 300}/",
]


@pytest.mark.parametrize("url", ODD_URLS, ids=[f"odd-{i}" for i in range(len(ODD_URLS))])
def test_odd_query_strings_and_ids_are_never_a_500(world, url):
    for persona in PERSONAS:
        response = persona_client(world, persona).get(url(world))
        assert response.status_code < 500, (persona, url(world))


ODD_POSTS = [
    ("keeper", lambda w: _r("scoring:room"), {"room_code": "x" * 5000}),
    ("keeper", lambda w: _r("scoring:hand_new", w.playing.pk), {"action": "failed-9999999"}),
    ("keeper", lambda w: _r("scoring:hand_new", w.playing.pk), {"number": "abc"}),
    ("keeper", lambda w: _r("scoring:hand_undo", w.playing.pk), {"hand_count": "9" * 30}),
    ("keeper", lambda w: _r("scoring:hand_edit", w.playing.pk, 1), {"version": "abc"}),
    ("keeper", lambda w: _r("scoring:next_game", w.playing.pk), {"method": "draw"}),
    ("keeper", lambda w: _r("scoring:game_start", w.table1.pk), {"team0_player0": "abc"}),
    ("officer", lambda w: _r("members:seating_move", w.day.pk), {"round": "9" * 30}),
    ("officer", lambda w: _r("members:merge"), {"a": "abc", "b": "x", "keep": "zz"}),
    ("officer", lambda w: _r("members:import"), {"action": "confirm", "token": "x"}),
    ("officer", lambda w: _r("scoring:standings_settings"), {"min_games_to_rank": "-5"}),
    ("officer", lambda w: _r("scoring:season_new"), {"start": "2025-02-01", "end": "2025-01-01"}),
]


@pytest.mark.parametrize(
    ("persona", "url", "data"), ODD_POSTS, ids=[f"odd-post-{i}" for i in range(len(ODD_POSTS))]
)
def test_odd_posts_are_never_a_500(world, persona, url, data):
    response = persona_client(world, persona).post(url(world), data)
    assert response.status_code < 500


def test_no_open_redirect_after_login_or_choosing_the_day_rules(world, django_user_model):
    user = django_user_model.objects.create_user("redirected", password="a-long-passphrase-1")
    response = Client().post(
        _r("login") + "?next=https://evil.example/",
        {"username": user.username, "password": "a-long-passphrase-1"},
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]
    officer = persona_client(world, "officer")
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        response = officer.post(
            _r("scoring:day_rules", world.day.pk),
            {"rule_set": world.club_rules.pk, "next": target},
        )
        assert response.status_code == 302
        assert "evil.example" not in response["Location"], target
