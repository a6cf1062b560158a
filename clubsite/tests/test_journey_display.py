"""Journeys: the "Larger" and "High contrast" switches, tapped on a phone, in all three
languages (clubsite/display.py).

With a hand typed (its preview in the bar), every control of the table page is at least
44 × 44 CSS px with the switches off. With "Larger" on, every control (buttons, boxes,
lists, links drawn as buttons, the went-out choices, "More", each side's "How" in the
bar, each hand's "Correct") is at least 48 × 48 CSS px with 8 px between any two, nothing
at the foot of the page stays hidden under the bar, and the running totals and the meld
requirement are at least 32 px. With "High contrast" on, every word is at 7:1 against
what is behind it and the controls' borders at 4.5:1. Both on, a 360 px phone at 200%
zoom (180 CSS px) scrolls no page sideways. The door has the switches too. axe passes at
every step; screenshots in ``artifacts/screenshots/<test>/``.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubsite.tests.test_journey_pad import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "es", "pt-br")
SAVE = {"en": "Save hand 4", "es": "Guardar mano 4", "pt-br": "Salvar mão 4"}

#: The page's measures (testsupport/measure.js): controls(), colours(), wider(width).
MEASURE = (Path(__file__).resolve().parents[2] / "testsupport" / "measure.js").read_text()


def measure(page, name, *args):
    return page.evaluate(f"(args) => ({MEASURE}).{name}(...args)", list(args))


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def apart(a, b):
    """How far apart two boxes are (the larger of the gaps across and down)."""
    across = max(b["x"] - (a["x"] + a["w"]), a["x"] - (b["x"] + b["w"]))
    down = max(b["y"] - (a["y"] + a["h"]), a["y"] - (b["y"] + b["h"]))
    return max(across, down)


def assert_large_controls(page, where, least=48):
    """Every control ``least`` × ``least`` px or more; with "Larger" (48), 8 px apart."""
    controls = measure(page, "controls")
    assert len(controls) > 5, where
    small = [c for c in controls if c["w"] < least - 0.5 or c["h"] < least - 0.5]
    assert not small, f"{where}: controls under {least} × {least} px:\n" + "\n".join(
        f"{c['w']:.0f} × {c['h']:.0f} {c['what']}" for c in small
    )
    if least < 48:
        return
    close = [
        (a, b, apart(a, b))
        for i, a in enumerate(controls)
        for b in controls[i + 1 :]
        if a["fixed"] == b["fixed"] and apart(a, b) < 7.5
    ]
    assert not close, f"{where}: controls less than 8 px apart:\n" + "\n".join(
        f"{gap:.1f} px: {a['what']} / {b['what']}" for a, b, gap in close
    )


def assert_high_contrast(page, where):
    colours = measure(page, "colours")
    low = [t for t in colours["texts"] if contrast(t["fg"], t["bg"]) < 7]
    assert not low, f"{where}: text under 7:1:\n" + "\n".join(
        f"{contrast(t['fg'], t['bg']):.2f} {t['fg']} on {t['bg']}: {t['what']}" for t in low
    )
    faint = [b for b in colours["borders"] if contrast(b["fg"], b["bg"]) < 4.5]
    assert not faint, f"{where}: borders under 4.5:1:\n" + "\n".join(
        f"{contrast(b['fg'], b['bg']):.2f} {b['what']}" for b in faint
    )


def no_sideways_scroll(page, width, where):
    """No page scrolls sideways (a table may scroll in its own box)."""
    wider = measure(page, "wider", width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (
        f"{where}: wider than {width} px:\n" + "\n".join(wider[:15])
    )


def type_a_hand(page, sides):
    """Melded points for every side: the bar shows each side's figures and its "How"."""
    for index in range(sides):
        page.locator(f"input[name=t{index}-melded_points]").fill(str(300 - 50 * index))
    expect(page.locator("#preview details.lines summary")).to_have_count(sides)


def assert_measured(page, sides, hands, where):
    """The measure counts each side's "How" in the bar and each hand's "Correct"."""
    controls = measure(page, "controls")
    how = [c for c in controls if c["fixed"] and c["what"].startswith("<summary")]
    correct = [c for c in controls if re.search(r'<a href="/games/\d+/hands/\d+/edit/"', c["what"])]
    assert len(how) == sides, (where, how)
    assert len(correct) == hands, (where, correct)


def assert_nothing_under_the_bar(page, where):
    """Scrolled to its foot, the page shows its last controls above the bar."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(50)
    hidden = page.evaluate(
        """() => {
          const bar = document.getElementById("hand-bar").getBoundingClientRect();
          return [...document.querySelectorAll("main a, main button, main summary, footer a")]
            .filter((e) => !e.closest("#hand-bar, .sr-only") && e.checkVisibility())
            .filter((e) => {
              const r = e.getBoundingClientRect();
              return r.height > 0 && r.bottom > bar.top + 0.5 && r.top < innerHeight;
            })
            .map((e) => e.outerHTML.slice(0, 90));
        }"""
    )
    page.evaluate("window.scrollTo(0, 0)")
    assert not hidden, f"{where}: under the bar at the foot of the page:\n" + "\n".join(hidden)


def speak(page, base_url, code):
    page.context.add_cookies([{"name": "club_language", "value": code, "url": base_url}])


def switch_on(page, name):
    """Tap a switch (a form that posts: no JavaScript needed) and see it marked."""
    button = page.locator(f".display-switch button[name={name}]")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    page.wait_for_load_state()
    expect(page.locator(f".display-switch button[name={name}]")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(page.locator("html")).to_have_class(re.compile(name))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("sides", [2, 3])
def test_larger_and_high_contrast_at_the_table(journey, language, sides):
    game = make_game(sides)
    page = journey.page
    speak(page, journey.base_url, language)
    page.set_viewport_size({"width": 390, "height": 844})
    journey.goto(f"/t/{game.table.token}/")
    expect(page.get_by_role("button", name=SAVE[language])).to_be_visible()
    type_a_hand(page, sides)
    for width in (390, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(100)
        where = f"table, {language}, {sides} sides, switches off, {width} px"
        journey.step(where)
        assert_measured(page, sides, 3, where)
        assert_large_controls(page, where, least=44)
    page.set_viewport_size({"width": 390, "height": 844})

    switch_on(page, "larger")
    # The typed hand is kept on the phone: its preview is back in the bar.
    expect(page.locator("#preview details.lines summary")).to_have_count(sides)
    for width in (390, 360, 320):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(100)
        where = f"larger, {language}, {sides} sides, {width} px"
        journey.step(where)
        no_sideways_scroll(page, width, where)
        assert_measured(page, sides, 3, where)
        assert_large_controls(page, where)
        assert_nothing_under_the_bar(page, where)
        for figure in page.locator(".team-card .total, .team-card .minimum strong").all():
            size = float(figure.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
            assert size >= 32, (where, figure.inner_text(), size)

    switch_on(page, "contrast")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(100)
    where = f"larger and high contrast, {language}, {sides} sides"
    journey.step(where)
    assert_high_contrast(page, where)
    # "More" open: the rare items are measured too.
    page.locator("details.more-items summary").click()
    assert_large_controls(page, where + ", More open")
    assert_high_contrast(page, where + ", More open")
    journey.step(where + ", More open")

    # A 360 px phone at 200% zoom: 180 CSS px.
    page.set_viewport_size({"width": 180, "height": 422})
    page.wait_for_timeout(100)
    where = f"200% zoom on a 360 px phone, {language}, {sides} sides"
    page.screenshot(path=str(journey.folder / f"table-200-percent-{sides}.png"), caret="initial")
    journey.step(where)
    no_sideways_scroll(page, 180, where)

    # Remembered by this phone: the next page is drawn the same way, from the server.
    body = page.request.get(f"{journey.base_url}/tables/{game.table_id}/").text()
    assert f'<html lang="{language}" class="larger contrast">' in body


@pytest.fixture
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.usefixtures("_fast_password_hashing")
def test_larger_and_high_contrast_at_the_door(journey, officer_user):
    from django.utils import timezone

    from members import services as members_services
    from members.tests.factories import MemberFactory

    day = members_services.open_day(timezone.localdate(), "Thursday")
    for number, (first, last) in enumerate((("Harold", "Hughes"), ("Harriet", "Holt"))):
        MemberFactory(first_name=first, last_name=last, membership_number=str(1234 + number))
    ann = MemberFactory(first_name="Ann", last_name="Able")
    members_services.sign_in(day, ann, card_shown=True)
    page = journey.page
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/door/")
    switch_on(page, "larger")
    switch_on(page, "contrast")
    page.get_by_label("Membership number or name").fill("har")
    expect(page.locator("#results").get_by_text("Harold Hughes", exact=True)).to_be_visible()
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(100)
        where = f"the door, larger and high contrast, {width} px"
        journey.step(where)
        no_sideways_scroll(page, width, where)
        assert_large_controls(page, where)
        assert_high_contrast(page, where)
    page.set_viewport_size({"width": 180, "height": 422})
    page.wait_for_timeout(100)
    page.screenshot(path=str(journey.folder / "door-200-percent.png"), caret="initial")
    journey.step("the door at 200% zoom on a 360 px phone")
    no_sideways_scroll(page, 180, "the door at 200% zoom on a 360 px phone")
