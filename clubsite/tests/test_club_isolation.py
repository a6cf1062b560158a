"""Two clubs on one site, tested as an attacker would: nothing of club B ever reaches
club A's officer, member, table phone or outsider, and nothing they send ever writes to
club B.

Both clubs get the whole world of ``test_personas`` (two club days, tables, games in
play and finished, a season, a house rule set); club B's names, titles and e-mail
addresses are then marked ("Qzzyx"), so any of them on a page of club A is a leak.

- **B's ids at A's addresses**: every URL pattern of the site (the table of
  ``test_personas.CASES``, which fails when a pattern is missing) with club B's real
  ids, tokens and codes, under club A's ``/club/…``, GET and POST, for each persona of
  A. Allowed answers: 403, 404, 405, 400, 410, the login page, a page of A's own (with
  nothing of B on it), or, for B's secret table link, room code or board code, a
  redirect to that code's own club's address (``/south/…``: the code is the key; codes
  are unique across the site and always lead to their own club).
- **B's ids in A's forms**: every form of club A, at A's addresses with A's ids, sent
  with club B's ids in its fields (people, rule sets, seats, versions, keys).

After each persona's run, club B's rows are exactly as they were, and no row of either
club points at a row of the other (:func:`cross_club_links`). A violation is listed,
not stopped at: the test reports them all.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import F
from django.test import Client
from django_scopes import scopes_disabled

from clubsite.tests.test_personas import CASES, PERSONAS, build_world, db_state
from members.clubs.scope import in_club
from members.clubs.services import create_club
from members.models import ClubDay, Person
from members.money.tests.persona_cases import MONEY_OWN_PAGES
from scoring.models import Hand, HandConfirmation, RuleSet
from testsupport import first_club

#: No random token of a page (CSRF, codes) holds it by chance.
MARK = "Qzzyx"
#: Where each club's pages are on the shared site.
A, B = "/club", "/south"
ALLOWED_REFUSALS = {400, 403, 404, 405, 410}


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _mark_club_b():
    """Club B's people, days and rule sets carry MARK in every text a page shows, and
    so does their history: each is saved (``save()`` writes a history row, as an
    officer's edit would), and the reasons of B's hand and confirmation history rows
    say MARK, so a page or query of club A that reads B's history shows it."""
    for person in Person.objects.all():
        person.first_name += MARK
        person.last_name += MARK
        person.email = MARK.lower() + person.email
        person._change_reason = MARK
        person.save()
    for day in ClubDay.objects.all():
        day.title += MARK
        day.save()
    for rule_set in RuleSet.objects.filter(club__isnull=False):
        rule_set.name += MARK
        rule_set._change_reason = MARK
        rule_set.save()
    for model in (Hand, HandConfirmation):
        model.history.update(history_change_reason=MARK)


@pytest.fixture(scope="module")
def worlds_keys(django_db_setup, django_db_blocker):
    """Club A (the first club) and club B ("south"), each with the personas' world,
    built once per module inside a transaction rolled back at the end."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        club_a = first_club()
        club_b = create_club("south", "South Club")
        with in_club(club_a):
            world_a = build_world(prefix="a-")
        with in_club(club_b):
            world_b = build_world(prefix="b-")
            _mark_club_b()
    yield {
        "a": {key: (type(obj), obj.pk) for key, obj in vars(world_a).items()},
        "b": {key: (type(obj), obj.pk) for key, obj in vars(world_b).items()},
        "clubs": (club_a.pk, club_b.pk),
    }
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


def _load(keys) -> SimpleNamespace:
    with scopes_disabled():
        return SimpleNamespace(
            **{key: model._default_manager.get(pk=pk) for key, (model, pk) in keys.items()}
        )


@pytest.fixture
def worlds(worlds_keys, db):
    from members.models import Club

    club_a, club_b = (Club.objects.get(pk=pk) for pk in worlds_keys["clubs"])
    return SimpleNamespace(
        a=_load(worlds_keys["a"]), b=_load(worlds_keys["b"]), club_a=club_a, club_b=club_b
    )


def a_persona(worlds, persona: str) -> Client:
    """A fresh client for one of club A's personas (the keeper opened A's table 1)."""
    client = Client()
    if persona == "officer":
        client.force_login(worlds.a.officer)
    elif persona == "member":
        client.force_login(worlds.a.mary.user)
    elif persona == "keeper":
        response = client.get(f"{A}/t/{worlds.a.table1.token}/")
        assert response["Location"] == f"{A}/tables/{worlds.a.table1.pk}/"
    return client


def club_b_state(worlds) -> dict:
    """Everything of club B a request at club A must leave as it was."""
    with in_club(worlds.club_b):
        state = db_state()
        state["users"] = [
            u
            for u in state["users"]
            if u[1] in {worlds.b.officer.username, worlds.b.mary.user.username}
        ]
        return state


def cross_club_links() -> list[str]:
    """Rows whose foreign key points at a row of another club (any club-owned model)."""
    found = []
    with scopes_disabled():
        for model in apps.get_models():
            names = {f.name for f in model._meta.concrete_fields}
            if "club" not in names or model._meta.model_name.startswith("historical"):
                continue
            for field in model._meta.concrete_fields:
                target = field.related_model
                if not isinstance(field, models.ForeignKey) or field.name == "club":
                    continue
                if "club" not in {f.name for f in target._meta.concrete_fields}:
                    continue
                bad = (
                    model._default_manager.filter(**{f"{field.name}__isnull": False})
                    .exclude(**{f"{field.name}__club": F("club")})
                    .exclude(**{f"{field.name}__club__isnull": True})  # shared presets
                )
                if bad.exists():
                    found.append(f"{model.__name__}.{field.name} points into another club")
    return found


def leaks(response) -> str | None:
    """What of club B a response shows, if anything."""
    body = b"".join(response) if response.streaming else response.content
    for mark in (MARK.encode(), MARK.lower().encode()):
        at = body.find(mark)
        if at >= 0:
            return body[max(0, at - 60) : at + 20].decode(errors="replace")
    return None


def judge(response, method, url, *, may_lead_to_b: bool) -> str | None:
    """A violation in words, or None."""
    where = f"{method} {url}"
    status = response.status_code
    if status >= 500:
        return f"{where}: {status}"
    shown = leaks(response)
    if shown:
        return f"{where}: shows club B's data ({shown!r})"
    if status in (301, 302, 303, 307, 308):
        target = response["Location"]
        if target.startswith(f"{B}/"):
            if not may_lead_to_b:
                return f"{where}: sent to club B's pages ({target})"
        elif not target.startswith(f"{A}/"):
            return f"{where}: sent outside club A ({target})"
    return None


#: The URL names whose B secret (a table link, a room code, a board code) leads to
#: club B's own address, by design.
LEADS_TO_ITS_CLUB = {
    "scoring:room",
    "scoring:table_link",
    "scoring:board_entry",
    "scoring:board_link",
}


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_club_b_ids_at_club_a_addresses(worlds, persona, method):
    """Every URL of the site with club B's ids, under club A's address."""
    violations = []
    before = club_b_state(worlds)
    for name, case in CASES.items():
        url = A + case.url(worlds.b)
        client = a_persona(worlds, persona)
        if method == "GET":
            response = client.get(url)
        else:
            response = client.post(url, case.post_data(worlds.b))
        problem = judge(response, method, url, may_lead_to_b=name in LEADS_TO_ITS_CLUB)
        if problem:
            violations.append(problem)
        elif response.status_code == 200 and name not in OWN_PAGES:
            violations.append(f"{method} {url}: answered 200 for club B's ids")
    assert club_b_state(worlds) == before, "a request at club A changed club B's rows"
    violations += cross_club_links()
    assert violations == [], "\n".join(violations)


#: Pages whose address has no id of a club's row (lists, forms, the login): at club A
#: they are A's own pages, and 200 is right for whoever may see them.
OWN_PAGES = {
    "home",
    "healthz",
    "manifest",
    "service_worker",
    "login",
    "password_change",
    "password_change_done",
    "my_clubs",
    "club_settings",
    "members:days",
    "members:people",
    "members:person_new",
    "members:import",
    "members:merge",
    "members:me",
    "scoring:rulesets",
    "scoring:ruleset_new",
    "scoring:standings",
    "scoring:partnerships",
    "scoring:standings_settings",
    "scoring:league_workbook",
    "scoring:day_results",
    "scoring:work",
    "scoring:records",
    "scoring:seasons",
    "scoring:season_new",
    "scoring:board_entry",
    "scoring:ladders",
    "scoring:ladder_new",
    # The unsubscribe page answers any link; club B's is refused there (400).
    "scoring:results_unsubscribe",
    "bookings:unsubscribe",
    # The bookings' lists and forms of the club at the address.
    "bookings:days",
    "bookings:hub",
    "bookings:settings",
    "bookings:substitutes",
    "bookings:announcements",
}
OWN_PAGES |= MONEY_OWN_PAGES  # issue 34: members/money/tests/persona_cases.py


#: A member's signed link in an e-mail: it opens that member's choice at their club.
UNSUBSCRIBE_LINKS = {"scoring:results_unsubscribe", "bookings:unsubscribe"}


@pytest.mark.parametrize("persona", PERSONAS)
def test_club_a_people_at_club_b_addresses(worlds, persona):
    """Every URL of club B, at B's own address with B's real ids, GET, for each persona
    of club A (a login of A is a visitor at B: logged in is not enough to read B's
    standings, results, records or players' pages). Nothing of B is shown, except
    what B's own secrets open by design (its table link, room code, board code, a
    member's signed unsubscribe link)."""
    violations = []
    for name, case in CASES.items():
        if name in LEADS_TO_ITS_CLUB or name in UNSUBSCRIBE_LINKS:
            continue
        url = B + case.url(worlds.b)
        response = a_persona(worlds, persona).get(url)
        if response.status_code >= 500:
            violations.append(f"GET {url}: {response.status_code}")
        shown = leaks(response)
        if shown:
            violations.append(f"GET {url}: shows club B's data to A's {persona} ({shown!r})")
    assert violations == [], "\n".join(violations)


def test_club_b_public_standings_give_club_a_people_no_players_pages(worlds):
    """With B's standings public, A's member reads them as a visitor does: B's names,
    but no link to a player's page, and the player's page itself refused."""
    from scoring.models import ClubSettings

    with in_club(worlds.club_b):
        ClubSettings.objects.update(public_standings=True)
    member = a_persona(worlds, "member")
    for path in ("/standings/", "/records/", f"/results/{worlds.b.last_week.pk}/"):
        page = member.get(B + path)
        assert page.status_code == 200, path
        assert f'href="{B}/players/' not in page.content.decode(), path
    assert member.get(f"{B}/players/{worlds.b.mary.pk}/").status_code == 403
    assert f'href="{B}/me/"' not in member.get(f"{B}/standings/").content.decode()  # no menu


def test_a_refusal_at_club_b_is_in_its_language_and_leads_to_its_front_page(worlds):
    """A's officer at B's people page: refused in B's language (Portuguese here), with
    a link to B's own front page, not the site's list of clubs."""
    worlds.club_b.language_code = "pt-br"
    worlds.club_b.save(update_fields=["language_code"])
    page = a_persona(worlds, "officer").get(f"{B}/people/")
    assert page.status_code == 403
    body = page.content.decode()
    assert "Só os organizadores do clube podem fazer isto." in body
    assert f'<a href="{B}/">' in body
    assert "Only club officers" not in body


@pytest.mark.parametrize("persona", PERSONAS)
def test_club_b_ids_in_club_a_forms(worlds, persona):
    """Every form of club A (A's addresses, A's ids) sent with club B's ids in its
    fields: refused or done within club A, never reaching club B."""
    violations = []
    before = club_b_state(worlds)
    for name, case in CASES.items():
        if case.data is None:
            continue
        url = A + case.url(worlds.a)
        response = a_persona(worlds, persona).post(url, case.post_data(worlds.b))
        problem = judge(response, "POST", url, may_lead_to_b=name in LEADS_TO_ITS_CLUB)
        if problem:
            violations.append(f"{problem} (B's ids in A's form)")
    assert club_b_state(worlds) == before, "a form of club A changed club B's rows"
    violations += cross_club_links()
    assert violations == [], "\n".join(violations)


def test_codes_and_links_of_club_b_lead_to_club_b(worlds):
    """Room codes, table links and board codes are unique across the site: typed or
    opened at club A's address, club B's lead to club B's own pages (where its own
    checks apply), never to a page of club A."""
    b = worlds.b
    typed = Client().post(f"{A}/room/", {"room_code": b.table1.room_code})
    assert typed["Location"] == f"{B}/t/{b.table1.token}/"
    followed = Client().get(typed["Location"])
    assert followed["Location"] == f"{B}/tables/{b.table1.pk}/"
    link = Client().get(f"{A}/t/{b.table1.token}/")
    assert link["Location"] == f"{B}/t/{b.table1.token}/"
    board = Client().post(f"{A}/board/", {"board_code": b.day.board_code})
    assert board["Location"] == f"{B}/board/code/{b.day.board_code}/"


def test_a_grant_of_club_a_opens_nothing_of_club_b(worlds):
    """A table phone of club A, with club B's table and game ids at B's own address."""
    phone = a_persona(worlds, "keeper")
    b = worlds.b
    for url in (
        f"{B}/tables/{b.table1.pk}/",
        f"{B}/games/{b.playing.pk}/",
        f"{B}/board/{b.day.pk}/",
    ):
        assert phone.get(url).status_code == 404, url
    # The officer of club A is nobody at club B's address.
    officer = a_persona(worlds, "officer")
    assert officer.get(f"{B}/people/").status_code == 403
    assert officer.get(f"{B}/days/{b.day.pk}/").status_code == 403
    member = a_persona(worlds, "member")
    page = member.get(f"{B}/me/")
    assert page.status_code == 200 and leaks(page) is None  # "no record at this club"


def test_the_same_address_of_two_clubs_never_shares_a_cached_page(
    worlds, settings, django_user_model
):
    """Two clubs on host names of their own both have /results/ (the day results, a
    cached page): each is drawn and cached as its own (the cache keys carry the club)."""
    settings.ALLOWED_HOSTS = ["a.test", "b.test", "testserver"]
    worlds.club_a.host, worlds.club_b.host = "a.test", "b.test"
    worlds.club_a.save()
    worlds.club_b.save()
    operator = Client()
    operator.force_login(django_user_model.objects.create_superuser("operator"))
    first = operator.get("/results/", HTTP_HOST="b.test")
    second = operator.get("/results/", HTTP_HOST="a.test")
    assert first.status_code == second.status_code == 200
    assert leaks(first) is not None  # club B's page shows club B's names
    assert leaks(second) is None


def test_an_officer_of_both_clubs_is_each_clubs_officer(worlds, django_user_model):
    """One login, two clubs: an officer of A and a member of B chooses after logging
    in at the site's address, and is an officer at A only."""
    from members.permissions import make_officer

    user = django_user_model.objects.create_user("both", password="both-pass-123")
    make_officer(user, worlds.club_a)
    with in_club(worlds.club_b):
        Person.objects.create(first_name="Bo", last_name="Th", membership_number="77", user=user)
    client = Client()
    response = client.post("/accounts/login/", {"username": "both", "password": "both-pass-123"})
    assert response["Location"] == "/accounts/clubs/"
    page = client.get("/accounts/clubs/")
    assert f'href="{A}/"'.encode() in page.content and f'href="{B}/"'.encode() in page.content
    assert client.get(f"{A}/people/").status_code == 200
    assert client.get(f"{B}/people/").status_code == 403
    assert client.get(f"{B}/me/").context["person"].first_name == "Bo"
    assert get_user_model().objects.filter(username="both").exists()


def _marked_history(model) -> int:
    """How many of ``model``'s history rows, as the active scope shows them, carry MARK."""
    marked = models.Q(history_change_reason__contains=MARK)
    for field in ("first_name", "name", "title"):
        if any(f.name == field for f in model.history.model._meta.fields):
            marked |= models.Q(**{f"{field}__contains": MARK})
    return model.history.filter(marked).count()


def test_club_a_history_shows_nothing_of_club_b(worlds):
    """Every history manager, as club A sees it, holds none of club B's marked rows (and
    club B's own view holds them, so the mark is there to be found)."""
    from members.models import SignIn

    histories = (Person, SignIn, RuleSet, Hand, HandConfirmation)
    with in_club(worlds.club_b):
        assert all(_marked_history(m) for m in (Person, RuleSet, Hand))
    with in_club(worlds.club_a):
        assert {m.__name__: _marked_history(m) for m in histories} == dict.fromkeys(
            (m.__name__ for m in histories), 0
        )
        assert not Person.history.model.objects.filter(first_name__contains=MARK).exists()
