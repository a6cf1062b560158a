"""Upgrading to clubs loses nothing (members 0008-0010, scoring 0018-0020): a database
made before clubs, with a day in progress, an officer's and a member's login sessions
and a table phone's grant, is migrated into one club holding every row; the old
cookies, links, room codes and board codes go on working, at ``/`` while the site has
that one club and, once a second club is added, at ``/<slug>/`` (old root links lead
there)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone
from django_scopes import scopes_disabled

from clubsite.devices import GRANT_KEY
from members.clubs.addresses import clubs_changed
from members.clubs.scope import in_club
from members.clubs.services import create_club
from members.models import Club, ClubRole, Person, Table
from scoring.models import ClubSettings, Game, ResultsVersion, RuleSet

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("members", "0007_officers_group"), ("scoring", "0017_game_ended_early")]
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _migrate(targets=None):
    """Migrate as ``manage.py migrate`` does: outside any club's scope (inside one, a
    new club column's default would be that club)."""
    with scopes_disabled():
        executor = MigrationExecutor(connection)
        targets = targets or executor.loader.graph.leaf_nodes()
        executor.migrate(targets)
        executor.loader.build_graph()
        # What manage.py migrate's post_migrate signal does (members.apps): the club of
        # an address kept in the shared cache before the upgrade is retired.
        clubs_changed()
        return executor.loader.project_state(targets).apps


@pytest.fixture
def before_clubs():
    """The database as the code before clubs left it; every app's latest after."""
    old_apps = _migrate(BEFORE)
    try:
        yield old_apps
    finally:
        _migrate()


def _session(data: dict) -> str:
    store = SessionStore()
    store.update(data)
    store.create()
    return store.session_key


def _login(user) -> dict:
    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: MODEL_BACKEND,
        HASH_SESSION_KEY: user.get_session_auth_hash(),
    }


def _client(key) -> Client:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client


def _old_club(apps, django_user_model):
    """A club night in progress as the code before clubs stored it."""
    User = apps.get_model("auth", "User")
    Group = apps.get_model("auth", "Group")
    officer = User.objects.create_user("olive", password="officer-pass-123")
    officer.groups.add(Group.objects.get_or_create(name="Officers")[0])
    member_user = User.objects.create_user("mary", password="member-pass-123")
    Person = apps.get_model("members", "Person")
    people = [
        Person.objects.create(
            kind="member", membership_number=str(100 + i), first_name=f"P{i}", last_name="Old"
        )
        for i in range(4)
    ]
    people[0].user = member_user
    people[0].save()
    day = apps.get_model("members", "ClubDay").objects.create(date=timezone.localdate())
    round_ = apps.get_model("members", "Round").objects.create(day=day, number=1, started=True)
    table = apps.get_model("members", "Table").objects.create(round=round_, number=1)
    Seat = apps.get_model("members", "Seat")
    for position, person in enumerate(people, start=1):
        Seat.objects.create(round=round_, table=table, person=person, position=position)
    RuleSet = apps.get_model("scoring", "RuleSet")
    club_rules = RuleSet.objects.get(slug="club")
    own = RuleSet.objects.create(
        name="Our rules", slug="our-rules", based_on="club", settings=club_rules.settings
    )
    RuleSet.objects.update(is_club_default=False)
    RuleSet.objects.filter(pk=own.pk).update(is_club_default=True)
    game = apps.get_model("scoring", "Game").objects.create(
        table=table,
        day=day,
        day_date=day.date,
        number=1,
        rule_set=own,
        rules=own.settings,
        rules_name=own.name,
        started_at=timezone.now(),
    )
    GameTeam = apps.get_model("scoring", "GameTeam")
    TeamPlayer = apps.get_model("scoring", "TeamPlayer")
    for index in (0, 1):
        team = GameTeam.objects.create(game=game, index=index)
        for seat in (index + 1, index + 3):
            TeamPlayer.objects.create(team=team, game=game, person=people[seat - 1], seat=seat)
    apps.get_model("scoring", "ClubSettings").objects.update_or_create(
        pk=1, defaults={"min_games_to_rank": 3}
    )
    apps.get_model("scoring", "ResultsVersion").objects.update_or_create(
        pk=1, defaults={"number": 7}
    )
    apps.get_model("scoring", "Season").objects.create(
        name="This year", start=day.date - timedelta(days=30), end=day.date + timedelta(days=30)
    )
    return {
        "officer": django_user_model.objects.get(pk=officer.pk),
        "member": django_user_model.objects.get(pk=member_user.pk),
        "table": table,
        "day": day,
        "game": game,
        "own_rules": own,
    }


def test_an_old_database_becomes_one_club_and_every_link_and_login_goes_on(
    before_clubs, django_user_model
):
    old = _old_club(before_clubs, django_user_model)
    table, day = old["table"], old["day"]
    officer_key = _session(_login(old["officer"]))
    member_key = _session(_login(old["member"]))
    phone_key = _session({GRANT_KEY: {"table": table.pk, "day": day.pk}})

    _migrate()

    with scopes_disabled():
        club = Club.objects.get()
        assert club.slug == "club" and club.root_links and club.is_active
        for model in (Person, Table, Game, ClubSettings, ResultsVersion):
            assert model.objects.exists()
            assert set(model.objects.values_list("club", flat=True)) == {club.pk}
        assert RuleSet.objects.get(slug="our-rules").club_id == club.pk
        assert not RuleSet.objects.filter(is_preset=True).exclude(club=None).exists()
        settings_row = ClubSettings.objects.get()
        assert settings_row.default_rule_set_id == old["own_rules"].pk
        assert settings_row.min_games_to_rank == 3
        assert ResultsVersion.objects.get().number == 7  # the cached pages stay valid
        assert list(ClubRole.objects.values_list("user", "role")) == [
            (old["officer"].pk, "officer")
        ]

    # At "/", as before: nobody logged out, the phone still scores its table.
    officer = _client(officer_key)
    page = officer.get("/people/")
    assert page.status_code == 200 and b"Club days" in page.content
    assert officer.get(f"/tables/{table.pk}/").status_code == 200
    member = _client(member_key)
    assert member.get("/me/").status_code == 200
    assert member.get("/people/").status_code == 403
    phone = _client(phone_key)
    page = phone.get(f"/tables/{table.pk}/")
    assert page.status_code == 200 and page.context["user"].is_anonymous
    assert Client().get(f"/t/{table.token}/").status_code == 302
    typed = Client().post("/room/", {"room_code": table.room_code})
    assert typed.status_code == 302 and typed["Location"] == f"/tables/{table.pk}/"

    # A second club: the first one's old root links lead to /club/…, and still work.
    create_club("south", "South Club")
    moved = _client(officer_key).get("/people/?q=old")
    assert moved.status_code == 302 and moved["Location"] == "/club/people/?q=old"
    assert _client(officer_key).get("/club/people/").status_code == 200
    assert _client(member_key).get("/club/me/").status_code == 200
    page = _client(phone_key).get(f"/club/tables/{table.pk}/")
    assert page.status_code == 200
    assert f'action="/club/games/{old["game"].pk}/hands/new/"'.encode() in page.content
    qr = Client().get(f"/t/{table.token}/")
    assert qr.status_code == 302 and qr["Location"] == f"/club/t/{table.token}/"
    follow = Client().get(qr["Location"])
    assert follow.status_code == 302 and follow["Location"] == f"/club/tables/{table.pk}/"
    typed = Client().post("/room/", {"room_code": table.room_code})
    assert typed.status_code == 307 and typed["Location"] == "/club/room/"
    board = Client().get(f"/board/code/{day.board_code}/")
    assert board["Location"] == f"/club/board/code/{day.board_code}/"
    # The officer of the old club is nobody at the new one.
    with in_club(Club.objects.get(slug="south")):
        assert _client(officer_key).get("/south/people/").status_code == 403
