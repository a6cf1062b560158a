"""CSRF on every POST (htmx included), no contact details on any page a non-officer can
reach, and the security headers.

The world and the table of every view (`CASES`) come from test_personas.
"""

from __future__ import annotations

import json
from collections import deque
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from clubsite.tests import test_personas as personas
from clubsite.tests.test_personas import (
    CASES,
    LOGIN,
    PERSONAS,
    REDIRECT,
    SECRETS,
    check_outcome,
    db_state,
    persona_client,
)
from members.bookings.tests.personas import booking_forms, booking_typed, form_targets
from members.models import Table
from members.money.tests.persona_cases import money_forms, money_typed
from scoring.models import ClubSettings
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL

# The same world as test_personas (built once per module), and its autouse fixture.
world_keys = personas.world_keys
world = personas.world
_fast = personas._fast

# ---------------------------------------------------------------------------------------
# Reading pages


class Page(HTMLParser):
    """The parts of a page these tests need: forms (with their fields), links, the
    body's hx-headers and the elements that post with htmx."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.links: list[str] = []
        self.body_hx_headers: str | None = None
        self.has_body = False
        self.htmx_posts: list[str] = []
        self._form: dict | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        for verb in ("hx-post", "hx-put", "hx-patch", "hx-delete"):
            if verb in a:
                self.htmx_posts.append(a[verb])
        if tag == "body":
            self.has_body = True
            self.body_hx_headers = a.get("hx-headers")
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            self._form = {
                "method": a.get("method", "get").lower(),
                "action": a.get("action", ""),
                "hx_post": a.get("hx-post"),
                "fields": {},
                "csrf": None,
            }
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input":
            name, kind = a.get("name"), a.get("type", "text").lower()
            if name == "csrfmiddlewaretoken":
                self._form["csrf"] = a.get("value", "")
            elif name and kind not in ("submit", "button", "image", "file", "reset"):
                if kind in ("checkbox", "radio") and "checked" not in a:
                    return
                self._form["fields"][name] = a.get("value", "on" if kind == "checkbox" else "")
        elif tag == "select":
            self._select, self._select_first, self._select_chosen = a.get("name"), None, False
        elif tag == "option" and self._select:
            value = a.get("value", "")
            if self._select_first is None:
                self._select_first = value
            if "selected" in a:
                self._form["fields"][self._select] = value
                self._select_chosen = True
        elif tag == "textarea":
            self._textarea = a.get("name")
            if self._textarea:
                self._form["fields"][self._textarea] = ""

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select" and self._select and self._form is not None:
            if not self._select_chosen and self._select_first is not None:
                self._form["fields"][self._select] = self._select_first
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea and self._form is not None:
            self._form["fields"][self._textarea] += data

    def htmx_token(self) -> str:
        assert self.body_hx_headers, "the page's <body> has no hx-headers"
        return json.loads(self.body_hx_headers)["X-CSRFToken"]

    def form_posting_to(self, page_url: str, target: str) -> dict | None:
        for form in self.forms:
            if form["method"] != "post":
                continue
            action = urlsplit(urljoin(page_url, form["action"] or page_url)).path
            if target in (action, form["hx_post"]):
                return form
        return None


def html_of(response) -> str:
    return response.content.decode(response.charset or "utf-8")


def is_html(response) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


# ---------------------------------------------------------------------------------------
# CSRF: every POST endpoint refuses a POST without the token, htmx or not


def _succeeds(expected) -> bool:
    return expected == REDIRECT or expected == 200


def _best_persona(name: str) -> str:
    """The persona whose POST to ``name`` would get furthest: refused only by CSRF."""
    post = CASES[name].post
    for persona in ("officer", "keeper", "member", "outsider"):
        if _succeeds(post[persona]):
            return persona
    return "officer"


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
@pytest.mark.parametrize("name", list(CASES))
def test_post_without_the_token_is_refused(world, name, htmx):
    persona = _best_persona(name)
    client = persona_client(world, persona, enforce_csrf_checks=True)
    case = CASES[name]
    url = case.url(world)
    client.get(url)  # a page visit first: the client holds a CSRF cookie
    before = db_state()
    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{url}"} if htmx else {}
    response = client.post(url, case.post_data(world), headers=headers)
    assert response.status_code == 403, f"POST {url} as {persona} without a CSRF token"
    assert db_state() == before


@pytest.mark.parametrize("name", list(CASES))
def test_post_with_a_foreign_token_is_refused(world, name):
    """A token from another browser (the attacker's own session) does not work."""
    persona = _best_persona(name)
    attacker = Client(enforce_csrf_checks=True)
    token = Page(html_of(attacker.get(reverse("login")))).forms[0]["csrf"]
    client = persona_client(world, persona, enforce_csrf_checks=True)
    case = CASES[name]
    url = case.url(world)
    client.get(reverse("home"))
    before = db_state()
    response = client.post(url, {**case.post_data(world), "csrfmiddlewaretoken": token})
    assert response.status_code == 403
    response = client.post(url, case.post_data(world), headers={"X-CSRFToken": token})
    assert response.status_code == 403
    assert db_state() == before


# name -> (persona, page with the form (world -> url), htmx?, expected outcome)
# With htmx the token comes from the body's hx-headers and goes in the X-CSRFToken
# header (as htmx sends it); otherwise the form's own fields and token are posted.
FORMS = {
    "login": ("outsider", lambda w: reverse("login"), False, 200),
    "logout": ("member", lambda w: reverse("home"), False, REDIRECT),
    "password_change": ("member", lambda w: reverse("password_change"), False, 200),
    "club_settings": ("officer", lambda w: reverse("club_settings"), False, REDIRECT),
    "members:days": ("officer", lambda w: reverse("members:days"), False, REDIRECT),
    "members:day": ("officer", lambda w: reverse("members:day", args=[w.day.pk]), False, REDIRECT),
    "members:signin_person": (
        "officer",
        lambda w: reverse("members:signin", args=[w.day.pk]) + "?q=Walt",
        True,
        200,
    ),
    "members:signin_guest": (
        "officer",
        lambda w: reverse("members:signin", args=[w.day.pk]),
        True,
        200,
    ),
    "members:signin_undo": (
        "officer",
        lambda w: reverse("members:signin", args=[w.day.pk]),
        True,
        200,
    ),
    "members:seating_draw": (
        "officer",
        lambda w: reverse("members:seating", args=[w.day.pk]),
        False,
        REDIRECT,
    ),
    "members:person_new": ("officer", lambda w: reverse("members:person_new"), False, REDIRECT),
    "members:import": ("officer", lambda w: reverse("members:import"), False, 200),
    "members:merge": (
        "officer",
        lambda w: reverse("members:merge") + f"?a={w.walt.pk}&b={w.sid.pk}",
        False,
        REDIRECT,
    ),
    "members:person_edit": (
        "officer",
        lambda w: reverse("members:person_edit", args=[w.olga.pk]),
        False,
        REDIRECT,
    ),
    "members:person_convert": (
        "officer",
        lambda w: reverse("members:person_convert", args=[w.gus.pk]),
        False,
        REDIRECT,
    ),
    "members:person_login": (
        "officer",
        lambda w: reverse("members:person", args=[w.walt.pk]),
        False,
        200,
    ),
    "scoring:room": ("outsider", lambda w: reverse("home"), False, REDIRECT),
    "scoring:board_entry": ("outsider", lambda w: reverse("scoring:board_entry"), False, REDIRECT),
    "members:me_results_mail": ("member", lambda w: reverse("members:me"), False, REDIRECT),
    "members:me_language": ("member", lambda w: reverse("members:me"), False, REDIRECT),
    "scoring:work": ("officer", lambda w: reverse("scoring:work"), False, REDIRECT),
    "scoring:send_results": (
        "officer",
        lambda w: reverse("members:day", args=[w.last_week.pk]),
        False,
        REDIRECT,
    ),
    "scoring:game_start": (
        "officer",
        lambda w: reverse("scoring:game_start", args=[w.table2.pk]),
        False,
        REDIRECT,
    ),
    "scoring:hand_new": (
        "keeper",
        lambda w: reverse("scoring:table", args=[w.table1.pk]),
        False,
        REDIRECT,
    ),
    "scoring:hand_preview": (
        "keeper",
        lambda w: reverse("scoring:table", args=[w.table1.pk]),
        True,
        200,
    ),
    "scoring:hand_undo": (
        "keeper",
        lambda w: reverse("scoring:hand_undo", args=[w.playing.pk]),
        False,
        REDIRECT,
    ),
    "scoring:hand_edit": (
        "keeper",
        lambda w: reverse("scoring:hand_edit", args=[w.playing.pk, 1]),
        False,
        REDIRECT,
    ),
    "scoring:day_rules": (
        "officer",
        lambda w: reverse("scoring:day_rules", args=[w.day.pk]),
        False,
        REDIRECT,
    ),
    "scoring:ruleset_new": ("officer", lambda w: reverse("scoring:ruleset_new"), False, REDIRECT),
    "scoring:ruleset_edit": (
        "officer",
        lambda w: reverse("scoring:ruleset_edit", args=[w.house_rules.pk]),
        False,
        REDIRECT,
    ),
    "scoring:ruleset_default": (
        "officer",
        lambda w: reverse("scoring:rulesets"),
        False,
        REDIRECT,
    ),
    "scoring:standings_settings": (
        "officer",
        lambda w: reverse("scoring:standings_settings"),
        False,
        REDIRECT,
    ),
    "scoring:season_new": ("officer", lambda w: reverse("scoring:season_new"), False, REDIRECT),
    "scoring:season_edit": (
        "officer",
        lambda w: reverse("scoring:season_edit", args=[w.season.pk]),
        False,
        REDIRECT,
    ),
}

# What the form's defaults lack (what a person would type or tap).
TYPED = {
    "login": lambda w: {"username": "nobody", "password": "wrong"},
    "members:days": lambda w: {"date": "2025-04-03", "title": "Extra day"},
    "members:day": lambda w: {"action": "close"},
    "members:signin_person": lambda w: {"person": w.walt.pk, "card_shown": "true"},
    "members:signin_guest": lambda w: {
        "first_name": "Greta",
        "last_name": "Newguest",
        "brought_by": w.olga.pk,
    },
    "members:signin_undo": lambda w: {},
    "members:person_new": lambda w: {
        "kind": "member",
        "membership_number": "7777",
        "first_name": "Pat",
        "last_name": "Newman",
    },
    "members:merge": lambda w: {"keep": "a"},
    "members:person_edit": lambda w: {"last_name": "Private-Smith"},
    "members:person_convert": lambda w: {"membership_number": "8888"},
    "scoring:room": lambda w: {"room_code": w.table1.room_code},
    "scoring:board_entry": lambda w: {"board_code": w.day.board_code},
    "scoring:hand_new": lambda w: quick_post([BIG, SMALL], 3),
    "scoring:hand_preview": lambda w: quick_post([BIG, SMALL], 3, action="preview"),
    "scoring:hand_edit": lambda w: quick_post([SMALL, BIG], 1, version=w.hand1.version),
    "scoring:ruleset_new": lambda w: {"name": "Copied rules"},
    "scoring:season_new": lambda w: {"name": "2026", "start": "2026-01-01", "end": "2026-12-31"},
}
FORMS.update(booking_forms())
TYPED.update(booking_typed())

# The money forms (issue 34): members/money/tests/persona_cases.py.
FORMS.update(money_forms(REDIRECT))
TYPED.update(money_typed())

# The event's clock (issue 35): the world's event has not started, so its page offers
# "Start round 1" (_target); the other clock buttons show once a round runs.
FORMS["scoring:event_action"] = (
    "officer",
    lambda w: reverse("scoring:event", args=[w.next_week.pk]),
    False,
    REDIRECT,
)


def _target(name, world) -> str:
    if form_targets(name, world):
        return form_targets(name, world)
    if name == "members:signin_undo":
        return reverse("members:signin_undo", args=[world.day.pk, world.sid_signin.pk])
    if name == "scoring:ruleset_default":
        return reverse("scoring:ruleset_default", args=[world.house_rules.pk])
    if name == "scoring:game_start":
        return reverse("scoring:game_start", args=[world.table2.pk])
    if name == "scoring:event_action":
        return reverse("scoring:event_action", args=[world.event.pk, "start"])
    return CASES[name].url(world)


def test_every_form_endpoint_is_in_the_csrf_table():
    """Each view that takes a form (``changes`` in CASES) is tried with its token."""
    with_form = {name for name, case in CASES.items() if case.changes}
    no_page_form = {
        # Their forms appear only in states the world is not in (a round not started,
        # a finished last game): test_post_without_the_token_is_refused covers them.
        "members:seating_start",
        "members:seating_move",
        "members:seating_swap",
        "scoring:next_game",
        # Hands waiting for the other team's OK: the world's day does not ask for it
        # (tests/play/test_confirmations.py posts them from the table and day pages).
        "scoring:hand_confirm",
        "scoring:hand_settle",
        # "Who keeps the score?" is asked only while such a hand has no known side
        # (tests/play/test_confirmation_keeper.py posts it from the table page).
        "scoring:game_keeper",
        # Buttons of the table page's hand form that post it to their own address
        # (formaction): the form and its token are hand_new's, tried above; "replace"
        # shows only while two phones disagree, "undo a failed meld" only after one.
        "scoring:hand_replace",
        "scoring:failed_meld",
        "scoring:failed_meld_back",
        # "Settle all" shows only while hands wait for the other team's OK.
        "scoring:game_settle_all",
        # "We are here" shows on a table phone only after an event's round has ended
        # (scoring/tests/tourney posts it from the table page).
        "scoring:event_arrive",
    }
    missing = sorted(with_form - set(FORMS) - no_page_form)
    assert not missing, f"POST endpoints without a CSRF-with-token test: {missing}"
    assert set(FORMS) <= set(CASES)


@pytest.mark.parametrize("name", list(FORMS))
def test_post_with_the_token_from_the_page_succeeds(world, name):
    persona, page_url, htmx, expected = FORMS[name]
    client = persona_client(world, persona, enforce_csrf_checks=True)
    source = page_url(world)
    response = client.get(source)
    assert response.status_code == 200, source
    page = Page(html_of(response))
    target = _target(name, world)
    form = page.form_posting_to(source, target)
    assert form is not None, f"no form on {source} posts to {target}"
    assert form["csrf"], f"the form on {source} posting to {target} has no CSRF token"
    data = {**form["fields"], **TYPED.get(name, lambda w: {})(world)}
    if htmx:
        assert form["hx_post"] == target
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"http://testserver{source}",
            "X-CSRFToken": page.htmx_token(),
        }
        response = client.post(target, data, headers=headers)
    else:
        response = client.post(target, {**data, "csrfmiddlewaretoken": form["csrf"]})
    assert response.status_code != 403, f"POST {target} with the page's token was refused"
    check_outcome(response, expected, target)
    if response.status_code == 200 and is_html(response):
        # The reply (a page, or htmx's partial) carries tokens in its forms too.
        for reply_form in Page(html_of(response)).forms:
            if reply_form["method"] == "post":
                assert reply_form["csrf"], f"the reply to {target} has a form without a token"


def test_htmx_sign_in_at_the_door_with_the_header_token(world):
    client = persona_client(world, "officer", enforce_csrf_checks=True)
    door = reverse("members:signin", args=[world.day.pk])
    token = Page(html_of(client.get(door))).htmx_token()
    url = reverse("members:signin_person", args=[world.day.pk])
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{door}"}
    data = {"person": world.walt.pk, "card_shown": "true"}
    assert client.post(url, data, headers=htmx).status_code == 403
    response = client.post(url, data, headers={**htmx, "X-CSRFToken": token})
    assert response.status_code == 200
    assert "Walt Walkin signed in" in html_of(response)
    assert world.day.signins.filter(person=world.walt).exists()


def test_htmx_hand_preview_with_the_header_token(world):
    client = persona_client(world, "keeper", enforce_csrf_checks=True)
    table = reverse("scoring:table", args=[world.table1.pk])
    page = Page(html_of(client.get(table)))
    url = reverse("scoring:hand_preview", args=[world.playing.pk])
    assert url in page.htmx_posts
    htmx = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{table}"}
    data = quick_post([BIG, SMALL], 3, action="preview")
    assert client.post(url, data, headers=htmx).status_code == 403
    response = client.post(url, data, headers={**htmx, "X-CSRFToken": page.htmx_token()})
    assert response.status_code == 200
    assert "<body" not in html_of(response)  # the partial, not a whole page


def _pages_for(world, persona):
    """Every page ``persona`` may GET (from CASES), plus the door's htmx partials."""
    urls = [case.url(world) for case in CASES.values() if case.get[persona] == 200]
    if persona == "officer":
        door = reverse("members:signin", args=[world.day.pk])
        urls += [door + "?q=Walt", door + "?q=Gus", reverse("members:merge") + "?a=1&b=2"]
    return urls


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_post_form_carries_a_csrf_token(world, persona):
    client = persona_client(world, persona)
    checked = 0
    for url in _pages_for(world, persona):
        for headers in ({}, {"HX-Request": "true", "HX-Target": "results"}):
            response = client.get(url, headers=headers)
            if response.status_code != 200 or not is_html(response):
                continue
            page = Page(html_of(response))
            for form in page.forms:
                if form["method"] == "post":
                    checked += 1
                    assert form["csrf"], f"{url}: a POST form to {form['action']!r} has no token"
            if page.has_body:
                assert page.body_hx_headers, f"{url}: <body> lacks hx-headers"
                assert page.htmx_token(), f"{url}: hx-headers has an empty X-CSRFToken"
            elif page.htmx_posts:
                # A partial is swapped into a page whose body carries the token.
                pass
    assert checked, f"no POST form seen for {persona}"


# ---------------------------------------------------------------------------------------
# No contact details for non-officers


def _other_secrets(world, persona):
    """Contact details of other people, and the table links and room codes of tables
    the viewer has no business with."""
    found = list(SECRETS)
    for table in Table.objects.all():
        if persona == "keeper" and table.pk == world.table1.pk:
            continue
        found += [table.token, table.room_code]
    return found


SKIP_PREFIXES = ("/admin/", "/static/", "/accounts/logout/", "/t/")
CRAWL_LIMIT = 400


def crawl(client, seeds, limit=CRAWL_LIMIT):
    """Breadth-first over the site's links from ``seeds`` (sort and page links apart);
    yields (url, response)."""
    seen, queue = set(), deque(seeds)
    while queue and len(seen) < limit:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code != 500, url
        yield url, response
        if response.status_code != 200 or not is_html(response):
            continue
        for href in Page(html_of(response)).links:
            parts = urlsplit(urljoin(url, href))
            if parts.netloc not in ("", "testserver") or parts.scheme not in ("", "http"):
                continue
            if parts.path.startswith(SKIP_PREFIXES):
                continue
            # Sorting and paging show the same rows again (the world fits on one page).
            query = urlencode(
                [
                    (key, value)
                    for key, value in parse_qsl(parts.query, keep_blank_values=True)
                    if not key.endswith(("sort", "page"))
                ]
            )
            link = parts.path + (f"?{query}" if query else "")
            if link not in seen:
                queue.append(link)


def _seeds(world, persona):
    seeds = [case.url(world) for case in CASES.values() if case.get[persona] == 200]
    player = reverse("scoring:player", args=[world.olga.pk])
    for url in (
        reverse("scoring:standings"),
        reverse("scoring:partnerships"),
        reverse("scoring:day_results"),
        reverse("scoring:day_result", args=[world.day.pk]),
        reverse("scoring:day_result", args=[world.last_week.pk]),
        player,
        reverse("scoring:player", args=[world.gus.pk]),
    ):
        seeds += [url, url + "?_export=csv"]
    seeds += [player + "?_export=csv&table=partners", player + "?_export=csv&table=opponents"]
    for name in ("scoring:standings", "scoring:partnerships", "scoring:day_results"):
        for season in ("all", str(world.season.pk)):
            seeds += [
                f"{reverse(name)}?season={season}",
                f"{reverse(name)}?season={season}&_export=csv",
            ]
    seeds += [reverse("scoring:records") + f"?_export=csv&table={t}" for t in ("highest_hand",)]
    if persona == "keeper":
        seeds += [
            reverse("scoring:game", args=[world.finished.pk]),
            reverse("scoring:hand_edit", args=[world.finished.pk, 1]),
        ]
    return seeds


@pytest.mark.parametrize(
    ("persona", "public_standings"),
    [("member", False), ("keeper", False), ("outsider", False), ("outsider", True)],
    ids=["member", "keeper", "outsider", "outsider-public-standings"],
)
def test_no_contact_details_on_any_page_a_non_officer_reaches(world, persona, public_standings):
    ClubSettings.objects.update_or_create(defaults={"public_standings": public_standings})
    if persona == "outsider":
        # The results bodies are cached: a member's views (with links to players'
        # pages) must not be served to a visitor.
        member = persona_client(world, "member")
        for url in _seeds(world, "outsider"):
            member.get(url)
    client = persona_client(world, persona)
    secrets = _other_secrets(world, persona)
    pages = names_seen = 0
    for url, response in crawl(client, _seeds(world, persona)):
        if response.status_code != 200:
            continue
        pages += 1
        text = response.content.decode("utf-8", errors="replace")
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"{persona} sees {leaked} on {url}"
        names_seen += "Olga" in text
        if persona == "outsider" and is_html(response):
            players = [h for h in Page(text).links if h.startswith("/players/")]
            assert not players, f"a visitor gets links to players' pages on {url}: {players}"
    least = 3 if persona == "outsider" and not public_standings else 10
    assert pages >= least, f"the crawl for {persona} reached only {pages} pages"
    if persona in ("member", "keeper") or public_standings:
        # Olga's games are on the pages crawled, so a leak would have been seen.
        assert names_seen, "the crawl never reached a page naming the other member"


def test_member_sees_own_contact_details_only(world):
    """The positive control: the member's own email and phone are on their page."""
    client = persona_client(world, "member")
    text = html_of(client.get(reverse("members:me")))
    assert world.mary.email in text and world.mary.phone in text
    assert not [s for s in SECRETS if s in text]


def test_officers_do_see_contact_details(world):
    """The control for the crawl: the details are in the data, and officers see them."""
    client = persona_client(world, "officer")
    text = html_of(client.get(reverse("members:person", args=[world.olga.pk])))
    assert all(s in text for s in SECRETS[:3])


# ---------------------------------------------------------------------------------------
# Security headers


HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

REPRESENTATIVE = [
    ("outsider", lambda w: reverse("home"), 200),
    ("outsider", lambda w: reverse("login"), 200),
    ("outsider", lambda w: reverse("healthz"), 200),
    ("outsider", lambda w: reverse("members:people"), LOGIN),
    ("outsider", lambda w: reverse("scoring:table", args=[w.table1.pk]), 404),
    ("outsider", lambda w: reverse("scoring:table_link", args=[w.closed_table.token]), 410),
    ("member", lambda w: reverse("members:me"), 200),
    ("member", lambda w: reverse("members:days"), 403),
    ("member", lambda w: reverse("scoring:standings"), 200),
    ("member", lambda w: reverse("scoring:standings") + "?_export=csv", 200),
    ("member", lambda w: reverse("scoring:player", args=[w.olga.pk]), 200),
    ("keeper", lambda w: reverse("scoring:table", args=[w.table1.pk]), 200),
    ("officer", lambda w: reverse("members:people"), 200),
    ("officer", lambda w: reverse("members:people") + "?format=csv", 200),
    ("officer", lambda w: reverse("scoring:table_cards", args=[w.day.pk]), 200),
    ("officer", lambda w: reverse("scoring:league_workbook"), 200),
    ("officer", lambda w: "/admin/login/?next=/admin/", LOGIN),  # the admin's login is ours
]


@pytest.mark.parametrize(
    ("persona", "url", "expected"),
    REPRESENTATIVE,
    ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(REPRESENTATIVE)],
)
def test_security_headers(world, persona, url, expected):
    path = url(world)
    response = persona_client(world, persona).get(path)
    check_outcome(response, expected, path)
    for header, value in HEADERS.items():
        assert response.get(header) == value, f"{path}: {header} is {response.get(header)!r}"


def test_static_files_have_the_content_headers(world):
    response = Client().get("/static/css/site.css")
    assert response.status_code == 200
    for header, value in HEADERS.items():
        assert response.get(header) == value, f"{header} is {response.get(header)!r}"


def test_htmx_partial_has_security_headers(world):
    client = persona_client(world, "keeper", enforce_csrf_checks=False)
    response = client.post(
        reverse("scoring:hand_preview", args=[world.playing.pk]),
        quick_post([BIG, SMALL], 3, action="preview"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    for header, value in HEADERS.items():
        assert response.get(header) == value, header
