"""Journey: a whole club night in real Chromium, in each of the three languages (issue 33).

A browser that speaks the language (and sits in a time zone of a country that does)
starts a club through "Start a club": the form asks the language and the time zone, each
already the browser's, and the new club is in them from its first page. Its officer
opens the day with the other team's OK on, signs people in at the door and draws the
round (a table of four and a table of three). Starting the game of four asks who keeps
the score. The table's phone is asked its name once ("Whose phone is this?"); hands are
typed at a 2-team table and a 3-player table; a second phone saves the same hand and is
told which phone saved it first and when; a hand is corrected and undone and the game's
history tells the story; the officer settles the table's waiting hands from one screen
and closes the day with games still in play.

The phones are measured at 320, 360, 390 and 414 px with the "Larger" and "High
contrast" switches off and on: no page scrolls sideways, every control is at least 44 px
(48 with "Larger"), and no English word is left on a Spanish or Portuguese page. The
officer's pages are seen at 1280 × 800 too. Every step is photographed (and checked by
axe) into ``artifacts/screenshots/<test>/``. Set-up that is not the point (the people of
the club, most sign-ins) is made through the services.
"""

from __future__ import annotations

import re
import zoneinfo
from pathlib import Path

import pytest
from django.core.cache import cache
from django.utils import timezone, translation
from playwright.sync_api import expect

from members import services as members_services
from members.clubs.scope import in_club
from members.models import Club, ClubDay, Person, Seat, Table
from scoring.models import Game, Hand, HandConfirmation, RuleSet
from scoring.play.services.games import start_game
from scoring.play.services.rulesets import set_day_rules
from testsupport.browser import Journey

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The browser's language and time zone, for each of the club's languages.
BROWSERS = {
    "en": ("en-US", "America/Denver"),
    "es": ("es-AR", "America/Argentina/Cordoba"),
    "pt-br": ("pt-BR", "America/Recife"),
}
WIDTHS = (320, 360, 390, 414)
DESK = {"width": 1280, "height": 800}
PASSWORD = "a-long-pass-42"

#: The club's people (their names are data: none is an English word of the site's).
PEOPLE = [
    ("Rosa", "Ruiz"),
    ("Tito", "Teixeira"),
    ("Lucía", "Lima"),
    ("Mauro", "Motta"),
    ("Nilza", "Nunes"),
    ("Olavo", "Ortiz"),
    ("Pilar", "Prado"),
]

#: English words of the site that are not also Spanish or Portuguese words: any of them
#: on a Spanish or Portuguese page is a word left untranslated.
_ENGLISH_WORDS = """
the and of to is was by at with this that your you who what which when whose hand
hands save saved team teams player players score keeper phone phones game games table
tables round rounds undo undone correct corrected history close closed open settle
settled right more went out points melded threes mixed next back larger high contrast
day days sign door seating draw drawn settings help language waiting confirm confirmed
dispute type choose keep replace mine name names left still play playing yet one all
they stand it not none new start started guest guests member members card shown in on
off log logout results board
"""
ENGLISH = frozenset(_ENGLISH_WORDS.split())
_WORD = re.compile(r"[^\W\d_]{2,}")

#: The page's measures (testsupport/measure.js).
MEASURE = (Path(__file__).resolve().parents[2] / "testsupport" / "measure.js").read_text()


def measure(page, name, *args):
    return page.evaluate(f"(args) => ({MEASURE}).{name}(...args)", list(args))


def tr(language, message, plural=None, count=None, **values):
    """``message`` as the club's language says it (the site's own catalogs)."""
    with translation.override(language):
        if plural is None:
            text = translation.gettext(message)
        else:
            text = translation.ngettext(message, plural, count)
    return text % values if values else text


class Night:
    """The night's state: the language, the club, its address, the journey."""

    def __init__(self, journey, language, club):
        self.journey = journey
        self.language = language
        self.club = club
        self.prefix = f"/{club.slug}"

    def t(self, message, **values):
        return tr(self.language, message, **values)

    def url(self, path):
        return f"{self.journey.base_url}{self.prefix}{path}"


def english_words(page, data: set[str]) -> list[str]:
    """The English words a person reads on the page (its text and the attributes read
    aloud), the data (names, the club's) aside."""
    text = page.evaluate(
        """() => {
          const parts = [document.title, document.body.innerText];
          for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]'))
            parts.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '',
                       e.getAttribute('placeholder') || '');
          return parts.join(' ');
        }"""
    )
    text = re.sub(r"https?://\S+|\S*/\S*", " ", text)
    return sorted(
        {w for w in _WORD.findall(text) if w.lower() in ENGLISH and w.lower() not in data}
    )


def check_page(night, page, where, *, larger=False, width=None, data=frozenset(), axe=True):
    """Photograph the page and check what every page of the night must be."""
    width = width or page.viewport_size["width"]
    night.journey.step_on(page, where, check_accessibility=axe)
    wider = measure(page, "wider", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (where, wider[:10])
    least = 47.5 if larger else 43.5
    small = [
        f"{c['w']:.0f} × {c['h']:.0f} {c['what']}"
        for c in measure(page, "controls")
        if min(c["w"], c["h"]) < least
    ]
    assert not small, f"{where}: controls under {least + 0.5:.0f} px:\n" + "\n".join(small)
    if night.language != "en":
        left = english_words(page, {w.lower() for w in data})
        assert not left, f"{where}: English words on a {night.language} page: {left}"


def at_widths(night, page, label, *, larger=False, data=frozenset()):
    """The phone's page at each phone width (axe once, at the narrowest)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(80)
        check_page(
            night,
            page,
            f"{label}, {width} px{', larger, high contrast' if larger else ''}",
            larger=larger,
            width=width,
            data=data,
            axe=width == WIDTHS[0],
        )
    page.set_viewport_size({"width": 390, "height": 844})


def switches_on(page):
    """Tap "Larger" and "High contrast" (forms that post; remembered by this phone)."""
    for name in ("larger", "contrast"):
        button = page.locator(f".display-switch button[name={name}]")
        expect(button).to_have_attribute("aria-pressed", "false")
        button.click()
        page.wait_for_load_state()
        expect(page.locator(f".display-switch button[name={name}]")).to_have_attribute(
            "aria-pressed", "true"
        )
    expect(page.locator("html")).to_have_class(re.compile(r"\blarger\b.*\bcontrast\b"))


def switches_off(page):
    for name in ("larger", "contrast"):
        page.locator(f".display-switch button[name={name}]").click()
        page.wait_for_load_state()
        expect(page.locator(f".display-switch button[name={name}]")).to_have_attribute(
            "aria-pressed", "false"
        )


def type_hand(page, sides):
    """A hand: side 1 goes out with two canastas, the others hold cards."""
    for index, values in enumerate(sides):
        box = page.locator(f"#entry-team-{index}")
        for key, value in values.items():
            if key == "out":
                box.locator(".went-out label").nth(1 if value else 0).click()
            else:
                box.locator(f"input[name=t{index}-{key}]").fill(str(value))


WIN = {"melded_points": 300, "natural_canastas": 1, "mixed_canastas": 1, "out": True}
LOSE = {"melded_points": 120, "hand_points": 40, "out": False}


# ---------------------------------------------------------------------------------------


def start_the_club(journey, new_context, mailoutbox, language) -> tuple[Club, object]:
    """ "Start a club" in a browser that speaks ``language``: the form asks the language
    and the time zone, each already the browser's; the club is made in them."""
    locale, zone = BROWSERS[language]
    context = new_context(locale=locale, timezone_id=zone, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{journey.base_url}/accounts/start-club/")
    expect(page.get_by_role("heading", level=1)).to_have_text(tr(language, "Start a club"))
    expect(page.locator("#id_language_code")).to_have_value(language)
    expect(page.locator("#id_time_zone")).to_have_value(zone)
    slug = f"noche-{language}"
    page.locator("#id_club_name").fill(f"Club Canasta {language.upper()}")
    page.locator("#id_slug").fill(slug)
    page.locator("#id_your_name").fill("Olga Osorio")
    page.locator("#id_email").fill(f"olga.{language}@example.org")
    journey.step_on(page, "start a club: the language and time zone the browser's")
    page.locator("form.stack button[type=submit]").click()
    expect(page.get_by_text(f"olga.{language}@example.org")).to_be_visible()
    [mail] = mailoutbox
    link = re.search(r"https?://[^/\s]+(/accounts/start-club/\S+/)", mail.body).group(1)
    page.goto(journey.base_url + link)
    page.get_by_role("button", name=tr(language, "Make the club")).click()
    page.locator("#id_new_password1").fill(PASSWORD)
    page.locator("#id_new_password2").fill(PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(f"**/{slug}/")
    club = Club.objects.get(slug=slug)
    assert (club.language_code, club.time_zone) == (language, zone)
    assert club.paper == ("Letter" if language == "en" else "A4")
    # The club's first page is in its language.
    expect(page.locator("html")).to_have_attribute("lang", language)
    return club, page


def phone(night, new_context, path):
    """A phone of the club's country that opened a table's link (nobody logged in)."""
    locale, zone = BROWSERS[night.language]
    page = new_context(
        locale=locale, timezone_id=zone, viewport={"width": 390, "height": 844}
    ).new_page()
    page.set_default_timeout(15_000)
    page.goto(night.url(path))
    return page


def name_the_phone(night, page, name, *, default):
    """ "Whose phone is this?": asked once, the keeper's name to start with."""
    box = page.get_by_label(night.t("Whose phone is this?"))
    expect(box).to_have_value(default)
    box.fill(name)
    page.get_by_role("button", name=night.t("Save the name")).click()
    expect(
        page.get_by_text(night.t("This is %(name)s's phone: its changes say so.", name=name))
    ).to_be_visible()
    page.reload()
    expect(page.get_by_label(night.t("Whose phone is this?"))).to_have_count(0)


def save(night, page, number):
    page.get_by_role("button", name=night.t("Save hand %(number)s", number=number)).click()
    expect(
        page.get_by_role("button", name=night.t("Save hand %(number)s", number=number + 1))
    ).to_be_visible()


def make_people(club, day, how_many):
    people = []
    for number, (first, last) in enumerate(PEOPLE[:how_many], start=101):
        people.append(
            Person.objects.create(
                kind=Person.Kind.MEMBER,
                membership_number=str(number),
                first_name=first,
                last_name=last,
            )
        )
    return people


@pytest.mark.parametrize("language", list(BROWSERS))
def test_a_whole_club_night(live_server, new_context, mailoutbox, settings, request, language):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CLUBS_SHARED_SITE = True
    settings.CLUB_SIGNUP = True
    cache.clear()  # the sign-up's limits per address
    officer_page = None
    journey = Journey(
        new_context(viewport={"width": 390, "height": 844}).new_page(),
        live_server.url,
        request.node.name,
    )
    for old in journey.folder.glob("*.png"):  # this run's photographs only
        old.unlink()
    # The English-word check sees an English word (it can fail).
    journey.page.set_content("<main><p>Rosa: Save hand 3</p><button aria-label='Undo'>x</button>")
    assert english_words(journey.page, {"rosa"}) == ["Save", "Undo", "hand"]
    club, officer_page = start_the_club(journey, new_context, mailoutbox, language)
    journey.page = officer_page
    night = Night(journey, language, club)
    check_page(night, officer_page, "the new club's first page")
    officer = officer_page
    names = {w for first, last in PEOPLE for w in (first, last)} | {"Olga", "Osorio", "Canasta"}

    # The club's day, with the other team's OK of every hand; its people (services).
    with in_club(club):
        # Today where the club is (its own time zone, not the site's: near midnight the
        # two are different days, and a day not the club's today closes its tables).
        today = timezone.localdate(timezone=zoneinfo.ZoneInfo(club.time_zone))
        day = members_services.open_day(today, "Noche")
        people = make_people(club, day, len(PEOPLE))
        for person in people[:5]:
            members_services.sign_in(day, person, card_shown=True)
        set_day_rules(day, RuleSet.objects.get(slug="club"), confirm_hands=True)

    # The door: the last two are signed in by the officer's phone.
    officer.goto(night.url(f"/days/{day.pk}/door/"))
    search = officer.get_by_label(night.t("Membership number or name"))
    for person in people[5:]:
        search.fill(person.last_name)
        # "Find" too: a search box just swapped in may not be wired by htmx yet.
        officer.locator("#door-search button[type=submit]").click()
        card = officer.locator("#results .result", has_text=person.full_name)
        card.get_by_role(
            "button", name=re.compile("^" + re.escape(night.t("Sign in · card shown")))
        ).click()
        expect(officer.locator("#who-is-in")).to_contain_text(person.full_name)
        # The door is ready for the next person: its search box emptied (htmx swaps it).
        expect(officer.locator("#door-message")).to_contain_text(person.full_name)
        expect(search).to_have_value("")
        expect(officer.locator("#results .result")).to_have_count(0)
    for width in (320, 390):
        officer.set_viewport_size({"width": width, "height": 844})
        check_page(night, officer, f"the door, {width} px", data=names, axe=width == 320)
    # The door with "Larger" and "High contrast" on (this phone remembers them), a name
    # found: every control 48 px.
    switches_on(officer)
    search = officer.get_by_label(night.t("Membership number or name"))
    search.fill(people[0].last_name)
    # "Find" too: a search box just swapped in may not be wired by htmx yet.
    officer.locator("#door-search button[type=submit]").click()
    expect(officer.locator("#results .result", has_text=people[0].full_name)).to_be_visible()
    at_widths(night, officer, "the door, a name found", larger=True, data=names)
    switches_off(officer)

    # The draw: a table of four and a table of three.
    officer.set_viewport_size(DESK)
    officer.goto(night.url(f"/days/{day.pk}/seating/"))
    officer.get_by_role("button", name=night.t("Draw round 1")).click()
    expect(officer.locator(".table-card")).to_have_count(2)
    check_page(night, officer, "the draw, 1280 px", data=names)
    with in_club(club):
        four, three = Table.objects.filter(round__day=day).order_by("number")
        seated = {
            table.pk: [s.person for s in Seat.objects.filter(table=table).order_by("position")]
            for table in (four, three)
        }
    assert (len(seated[four.pk]), len(seated[three.pk])) == (4, 3)

    # Starting the game of four asks who keeps the score (the OK is on today).
    officer.goto(night.url(f"/tables/{four.pk}/start/"))
    start = officer.get_by_role("button", name=night.t("Start the game"))
    start.click()
    expect(officer.locator("#id_score_keeper")).to_be_visible()
    expect(officer.locator(".field-error, .errorlist").first).to_be_visible()
    check_page(night, officer, "start a game: who keeps the score?", data=names)
    keeper = seated[four.pk][0]
    officer.locator("#id_score_keeper").select_option(label=keeper.full_name)
    officer.get_by_role("button", name=night.t("Start the game")).click()
    with in_club(club):
        game = Game.objects.get(table=four)
        assert game.score_keeper == keeper

    # The table's phone: asked its name once; the pad at every width, switches off.
    first = phone(night, new_context, f"/t/{four.token}/")
    name_the_phone(night, first, "Rosita", default=keeper.first_name)
    names |= {"Rosita", "Tito"}
    at_widths(night, first, "table of four: the pad", data=names)
    type_hand(first, [WIN, LOSE])
    save(night, first, 1)

    # Hand 2 on two phones: the second is told which phone saved it first, and when.
    second = phone(night, new_context, f"/t/{four.token}/")
    name_the_phone(night, second, "Tito", default=keeper.first_name)
    type_hand(first, [WIN, LOSE])
    type_hand(second, [dict(WIN, melded_points=250), LOSE])
    save(night, first, 2)
    second.get_by_role("button", name=night.t("Save hand %(number)s", number=2)).click()
    conflict = second.locator("#conflict")
    expect(conflict).to_contain_text("Rosita")
    expect(conflict).to_contain_text(re.compile(r"\b\d{1,2}:\d{2}\b"))
    # The bar says what to do while the choice is open: its note sends the keeper to the
    # choice above. (The preview beside it may already show the typed numbers: the page
    # asks for it as it loads, and its answer replaces the first "saved already" line.)
    note = second.locator("#hand-bar .bar-note")
    expect(note.locator("a[href='#conflict']")).to_be_visible()
    expect(second.locator("#hand-bar button.save")).to_have_count(0)
    at_widths(night, second, "second phone: hand 2 saved by Rosita's phone", data=names)
    second.get_by_role("link", name=night.t("Keep the saved hand")).click()
    expect(
        second.get_by_role("button", name=night.t("Save hand %(number)s", number=3))
    ).to_be_visible()

    # Hand 2 corrected, then undone: the history tells the story.
    first.reload()
    first.locator("#hand-2 .hand-meta-line a").click()
    first.locator("input[name=t0-melded_points]").fill("200")
    first.get_by_role("button", name=night.t("Save the correction")).click()
    expect(
        first.get_by_text(
            night.t("Hand %(number)s corrected; the totals after it were recomputed.", number=2)
        )
    ).to_be_visible()
    first.get_by_role("link", name=night.t("Undo hand %(number)s", number=2)).click()
    check_page(night, first, "first phone: undo hand 2?", data=names)
    first.get_by_role("button", name=night.t("Yes, undo hand %(number)s", number=2)).click()
    expect(
        first.get_by_role("button", name=night.t("Save hand %(number)s", number=2))
    ).to_be_visible()
    officer.goto(night.url(f"/games/{game.pk}/"))
    history = officer.locator(".history")
    for action in ("entered", "corrected", "undone"):
        expect(history).to_contain_text(
            night.t("Hand %(number)s %(action)s", number=2, action=night.t(action))
        )
    expect(history).to_contain_text("Rosita")
    check_page(night, officer, "the game's history: hand 2 corrected and undone", data=names)

    # Hand 2 again, with "Larger" and "High contrast" on this phone: hands 1 and 2 wait
    # for the other team's OK.
    type_hand(first, [LOSE, WIN])
    save(night, first, 2)
    switches_on(first)
    expect(first.locator("#confirm")).to_be_visible()
    at_widths(night, first, "table of four: two hands wait for an OK", larger=True, data=names)

    # The officer settles the table's waiting hands from one screen.
    officer.goto(night.url(f"/tables/{four.pk}/"))
    officer.locator("#confirm summary").first.click()
    officer.get_by_role(
        "button",
        name=tr(
            language,
            "Settle the hand as it stands",
            "Settle all %(hands)s hands as they stand",
            2,
            hands=2,
        ),
    ).click()
    with in_club(club):
        states = list(
            HandConfirmation.objects.filter(game=game)
            .order_by("hand__number")
            .values_list("status", flat=True)
        )
    assert states == ["settled", "settled"]
    check_page(night, officer, "the officer settled the waiting hands", data=names)

    # The table of three, on its own phone: the pad at every width, switches off then on.
    with in_club(club):
        a, b, c = seated[three.pk]
        start_game(
            three,
            [[a], [b], [c]],
            rule_set=RuleSet.objects.get(slug="three-player"),
            score_keeper=a,
            first_dealer=a,
        )
    third = phone(night, new_context, f"/t/{three.token}/")
    name_the_phone(night, third, "Nilza", default=a.first_name)
    type_hand(third, [WIN, LOSE, LOSE])
    expect(third.locator("#preview .bar-score")).to_have_count(3)  # the bar's preview
    at_widths(night, third, "table of three: a hand typed", data=names)
    switches_on(third)
    # The page drawn again (larger): the hand typed is kept and previewed at once.
    expect(third.locator("input[name=t0-melded_points]")).to_have_value("300")
    expect(third.locator("#preview .bar-score")).to_have_count(3)
    at_widths(night, third, "table of three: a hand typed", larger=True, data=names)
    save(night, third, 1)

    # The day closed with both games in play.
    officer.goto(night.url(f"/days/{day.pk}/"))
    officer.get_by_role("link", name=night.t("Close this day")).click()
    expect(
        officer.get_by_role(
            "heading",
            name=tr(
                language,
                "Still in play: %(games)s game",
                "Still in play: %(games)s games",
                2,
                games=2,
            ),
        )
    ).to_be_visible()
    check_page(night, officer, "close the day: two games in play", data=names)
    # The table of three's game ends as it stands (its leader wins); the level one stays
    # unfinished (its only choice).
    officer.locator("fieldset.closing-choice").nth(1).locator("input[type=radio]").first.check()
    officer.get_by_role("button", name=night.t("Close the day anyway")).click()
    expect(officer.locator(".message-success")).to_be_visible()
    with in_club(club):
        assert not ClubDay.objects.get(pk=day.pk).is_open
        assert Hand.objects.filter(game=game).count() == 2
    check_page(night, officer, "the day closed", data=names)
