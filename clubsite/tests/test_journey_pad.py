"""Journeys: the score pad on the phones a club has (320, 360, 390 and 414 px wide).

One screen per hand: every box of a quick hand, "Went out" and Save above the bar at
390 × 844, for two sides and for three, with the message of the hand just saved; the
rare items behind one tap ("More"). The bar shows each side's hand score and new total
readably, five digits and negative ones too. Nothing scrolls sideways; a box holds five
digits; a name wraps between its words. A Save with nothing typed is refused, and a
hand where nobody scored is saved once the keeper says so. A refusal is said above the
pad with its box marked, and the live preview's refusal stays a few lines in the bar.
Screenshots of every step (``artifacts/screenshots/<test>/``).
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.tests.test_journey_scoring import more
from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import Hand, RuleSet
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand
from scoring.tests.samples import LOSE, WIN, quick

NEXT = 4  # the hand the pad is for: three are played

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (320, 360, 390, 414)
NAMES = [("Margaret", "Newman"), ("Bob", "Baker"), ("Catherine", "Cole"), ("Dan", "Dunn")]
QUICK = ("Melded card points", "Natural canastas", "Mixed canastas", "Points left in hand")
BOXES = (*QUICK, "Red threes")


def make_game(sides: int):
    """A game of two teams (club rules) or three players alone, three hands played:
    the first side has 4,800 (a hand more with 200 wins), the others 450."""
    day = ClubDayFactory(date=timezone.localdate(), title="Thursday")
    people = [
        MemberFactory(first_name=first, last_name=last, membership_number=str(101 + i))
        for i, (first, last) in enumerate(NAMES[: 4 if sides == 2 else 3])
    ]
    table = TableFactory(round=RoundFactory(day=day, number=1), number=1, seated=people)
    for person in people:
        SignInFactory(day=day, person=person, card_shown=False)
    teams = [[people[0], people[2]], [people[1], people[3]]] if sides == 2 else people
    game = start_game(
        table,
        teams if sides == 2 else [[p] for p in teams],
        rule_set=RuleSet.objects.get(slug="club" if sides == 2 else "three-player"),
        score_keeper=people[0],
        first_dealer=people[0],
        now=timezone.now(),
    )
    others = [LOSE] * (sides - 1)
    record_hand(game, [WIN, *others], number=1)
    record_hand(game, [WIN, *others], number=2)
    record_hand(game, [quick(melded=200, natural=1, mixed=1), *others], number=3)
    return game


def open_table(journey, game, width, height=844):
    page = journey.page
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{journey.base_url}/t/{game.table.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    return page


def side(page, index):
    return page.locator(f"#entry-team-{index}")


def box(page, index, label):
    return side(page, index).get_by_label(label, exact=True)


def look(journey, page, name):
    """A screenshot of what the phone shows (the first screen, the bar where it sits)."""
    page.screenshot(path=str(journey.folder / f"{name}.png"), caret="initial")


def no_sideways_scroll(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def fits(locator):
    """The element's text is not cut off or running out of it."""
    return locator.evaluate("e => e.scrollWidth <= e.clientWidth + 0.5")


def type_big_hand(page, sides):
    """Side 1: +5,500 (its total passes 10,000); side 2: −10,200 (an officer's penalty)."""
    for label, value in zip(BOXES, ("900", "6", "2", "", "4"), strict=True):
        box(page, 0, label).fill(value)
    box(page, 1, "Points left in hand").fill("200")
    more(page, 0).get_by_label("Went out concealed").check()
    more(page, 1).get_by_label("Other penalty: points").fill("10000")
    more(page, 1).get_by_label("Other penalty: what for").fill("Looked at the stock")
    if sides == 3:
        box(page, 2, "Melded card points").fill("50")


@pytest.mark.parametrize("sides", [2, 3])
def test_the_bar_shows_five_digit_and_negative_totals_on_every_phone(journey, sides):
    game = make_game(sides)
    page = open_table(journey, game, 390)
    type_big_hand(page, sides)
    bar = page.locator("#hand-bar")
    expect(bar).to_contain_text("This hand ends the game")
    page.locator("details.more-items summary").click()  # closed again: the pad in view
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        page.wait_for_timeout(100)
        look(journey, page, f"bar-{sides}-sides-{width}px")
        no_sideways_scroll(page, width)
        cells = page.locator("#preview .bar-side")
        expect(cells).to_have_count(sides)
        boxes = [cells.nth(i).bounding_box() for i in range(sides)]
        for left, right in zip(boxes, boxes[1:], strict=False):
            assert left["x"] + left["width"] <= right["x"] + 0.5, width  # no overlap
        save = bar.get_by_role("button", name=f"Save hand {NEXT}").bounding_box()
        assert boxes[-1]["x"] + boxes[-1]["width"] <= save["x"], width
        assert save["x"] + save["width"] <= width
        for i in range(sides):
            score, total = cells.nth(i).locator("strong"), cells.nth(i).locator(".after-short")
            expect(score).to_be_visible()
            expect(total).to_be_visible()
            assert fits(score) and fits(total), (width, i)
            # Within its own side of the bar.
            for part in (score, total):
                b = part.bounding_box()
                assert boxes[i]["x"] - 0.5 <= b["x"]
                assert b["x"] + b["width"] <= boxes[i]["x"] + boxes[i]["width"] + 0.5
        expect(cells.nth(0).locator("strong")).to_have_text("+5,500")
        expect(cells.nth(0).locator(".after-short")).to_have_text(re.compile("10,300"))
        expect(cells.nth(1).locator("strong")).to_have_text("-10,200")
        expect(cells.nth(1).locator(".after-short")).to_have_text(re.compile("-9,750"))
    # For a screen reader, the whole sentence stays: "Total 4,800 → 10,300".
    expect(page.locator("#preview .after").first).to_have_text(
        re.compile(r"^Total 4,800 → 10,300$")
    )
    journey.step(f"bar with five-digit and negative totals, {sides} sides")


@pytest.mark.parametrize("sides", [2, 3])
def test_one_screen_per_hand_at_390_by_844(journey, sides):
    game = make_game(sides)
    page = open_table(journey, game, 390)
    for index in range(sides):
        box(page, index, "Melded card points").fill("120")
        box(page, index, "Points left in hand").fill("30")
    page.get_by_role("button", name=f"Save hand {NEXT}").click()
    expect(page.get_by_text(re.compile(rf"^Hand {NEXT} saved\."))).to_be_visible()
    # The next hand, with the message of the last one at the top.
    for index in range(sides):
        box(page, index, "Melded card points").fill("150")
        box(page, index, "Points left in hand").fill("100")
    expect(page.locator("#preview .bar-side")).to_have_count(sides)
    look(journey, page, f"one-screen-{sides}-sides")
    assert page.evaluate("window.scrollY") == 0
    bar_top = page.locator("#hand-bar").bounding_box()["y"]
    for index in range(sides):
        for label in BOXES:
            b = box(page, index, label).bounding_box()
            assert b["y"] + b["height"] <= bar_top, (index, label)
            assert b["width"] >= 60, (index, label)  # five digits
        went_out = side(page, index).locator("fieldset.went-out").bounding_box()
        assert went_out["y"] + went_out["height"] <= bar_top
        assert went_out["height"] < 60  # No | Out side by side, not stacked
    summary = page.locator("details.more-items summary").bounding_box()
    assert summary["y"] + summary["height"] <= bar_top
    expect(page.get_by_role("button", name=f"Save hand {NEXT + 1}")).to_be_in_viewport()
    # The rare items wait behind that one tap.
    for label in ("Went out concealed", "Card by card"):
        expect(page.locator("#more-team-0").get_by_label(label)).to_be_hidden()
    more(page, 0)
    expect(page.locator("#more-team-0").get_by_label("Went out concealed")).to_be_visible()
    expect(
        page.locator("#more-team-0").get_by_label(re.compile("^Took the top discard"))
    ).to_be_visible()
    journey.step(f"one screen per hand, {sides} sides")


def test_three_players_at_320_px(journey):
    game = make_game(3)
    page = open_table(journey, game, 320, 700)
    for index in range(3):
        box(page, index, "Melded card points").fill("12500")
        box(page, index, "Points left in hand").fill("1250")
    look(journey, page, "three-players-320px")
    no_sideways_scroll(page, 320)
    for index in range(3):
        for label in ("Melded card points", "Points left in hand"):
            assert fits(box(page, index, label)), (index, label)  # every digit shows
    save = page.get_by_role("button", name=f"Save hand {NEXT}").bounding_box()
    assert save["x"] + save["width"] <= 320
    # Names wrap between words, never inside one ("Newma / n").
    broken = page.evaluate(
        """() => Array.from(document.querySelectorAll('#scoreboard .names, #scoreboard h2'))
          .flatMap(el => {
            const text = el.firstChild && el.firstChild.nodeType === 3 ? el.firstChild : null;
            if (!text) return [];
            const out = [];
            const re = /\\S+/g; let m;
            while ((m = re.exec(text.data))) {
              const r = document.createRange();
              r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
              const tops = new Set(Array.from(r.getClientRects()).map(c => Math.round(c.top)));
              if (tops.size > 1) out.push(m[0]);
            }
            return out;
          })"""
    )
    assert broken == []
    journey.step("three players at 320 px")


def test_a_save_with_nothing_typed_then_a_hand_where_nobody_scored(journey):
    game = make_game(2)
    page = open_table(journey, game, 390)
    page.get_by_role("button", name=f"Save hand {NEXT}").click()
    refusal = page.locator("#hand-errors")
    expect(refusal).to_contain_text("Type the hand first")
    expect(refusal).to_be_in_viewport()
    look(journey, page, "nothing-typed")
    assert Hand.objects.filter(game=game).count() == NEXT - 1
    # The stock ran out with nothing melded: the keeper says so, then saves.
    refusal.get_by_label("Save a hand where nobody scored?").check()
    page.get_by_role("button", name=f"Save hand {NEXT}").dblclick()
    expect(
        page.get_by_text(f"Hand {NEXT} saved. Team 1 +0 → 4,800; Team 2 +0 → 450.")
    ).to_be_visible()
    assert Hand.objects.filter(game=game).count() == NEXT
    journey.step("a hand where nobody scored, saved once")


def test_refusals_are_said_where_the_eye_is_at_320_px(journey):
    game = make_game(2)
    page = open_table(journey, game, 320, 640)
    box(page, 0, "Melded card points").fill("1250")
    box(page, 0, "Natural canastas").fill("1")
    box(page, 1, "Melded card points").fill("120")
    bar = page.locator("#hand-bar")
    expect(bar.locator("h2")).to_have_text("Not yet: fix these first")
    # The live refusal: a few lines in the bar, the box at fault marked red.
    expect(side(page, 0).locator(".cell.field-error")).to_have_count(1)
    expect(box(page, 0, "Melded card points")).to_have_attribute("aria-invalid", "true")
    assert bar.bounding_box()["height"] <= 640 / 4
    look(journey, page, "live-refusal-320px")
    page.get_by_role("button", name=f"Save hand {NEXT}").click()
    # The server's refusal: above the pad, with its box marked; the bar points at it.
    refusal = page.locator("#hand-errors")
    expect(refusal).to_contain_text("The hand was not saved.")
    expect(refusal).to_be_in_viewport()
    expect(side(page, 0).locator(".errorlist")).to_have_count(0)
    expect(page.locator(".pad .row-label").first).to_have_text("Melded card points")
    expect(box(page, 0, "Melded card points")).to_have_value("1250")
    expect(box(page, 0, "Melded card points")).to_have_attribute("aria-invalid", "true")
    expect(bar).not_to_contain_text("Type the hand")
    look(journey, page, "saved-refusal-320px")
    journey.step("a refusal above the pad at 320 px")
    # Fixed: the mark goes, the preview comes back, and the refusal above the pad (about
    # the hand as it was saved) goes away.
    box(page, 0, "Melded card points").fill("250")
    expect(page.locator("#preview .bar-side")).to_have_count(2)
    expect(side(page, 0).locator(".cell.field-error")).to_have_count(0)
    expect(refusal).to_be_hidden()
    page.get_by_role("button", name=f"Save hand {NEXT}").click()
    expect(page.get_by_text(re.compile(rf"^Hand {NEXT} saved\."))).to_be_visible()


def test_the_hands_list_of_three_players_fits_every_phone(journey):
    """The hands list of a three-player game, with five-digit and negative totals, fits
    each phone's width: no table wider than its box, every total and "Correct" in view
    without scrolling sideways (the dealer, the OK and Correct sit under each hand)."""
    game = make_game(3)
    penalty = {"kind": "other", "points": 10000, "note": "Looked at the stock"}
    big = quick(melded=900, natural=6, mixed=2, red=4, out="out")
    record_hand(game, [big, quick(hand=200, penalties=[penalty]), quick(melded=50)], number=4)
    for width in WIDTHS:
        page = open_table(journey, game, width, 700)
        table = page.locator(".hands-table")
        table.scroll_into_view_if_needed()
        look(journey, page, f"hands-three-players-{width}px")
        no_sideways_scroll(page, width)
        container = page.locator(".hands-table").locator("xpath=..")
        assert table.evaluate("t => t.offsetWidth") <= container.evaluate("c => c.clientWidth")
        expect(page.locator("#hand-4")).to_contain_text("-9,750")
        for number in range(1, 5):
            link = page.get_by_role("link", name=f"Correct hand {number}")
            b = link.bounding_box()
            assert b["x"] >= 0 and b["x"] + b["width"] <= width, (width, number)
        for cell in page.locator(".hands-table td .total").all():
            b = cell.bounding_box()
            assert b["x"] + b["width"] <= width, width
    journey.step("hands of three players at 414 px")
