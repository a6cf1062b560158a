"""Journeys: the table on a real club night, on a 390 × 844 phone (issue 12).

A score keeper's phone opens the table's secret link (no login) and enters hands on one
screen: the score pad with a column per team and the bar fixed at the bottom showing
each team's previewed score and the Save button. What is typed survives a reload; a
Save without a network is kept on the phone and sent once when the connection is back;
double taps count once; two phones saving different numbers for the same hand are shown
both hands and the second chooses. Every step is photographed and checked with axe.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clubsite.tests.test_journey_scoring import choose_mode, more
from members.models import ClubDay
from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import Game, Hand, RuleSet
from scoring.play.services.games import start_game
from scoring.play.services.hands import failed_meld_counts
from testsupport.browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND = [
    {
        "melded_points": "300",
        "natural_canastas": "1",
        "mixed_canastas": "1",
        "red_threes": "1",
        "hand_points": "",
        "went_out": "Out",
    },
    {
        "melded_points": "120",
        "natural_canastas": "",
        "mixed_canastas": "",
        "red_threes": "",
        "hand_points": "40",
        "went_out": "No",
    },
]
LABELS = {
    "melded_points": "Melded card points",
    "natural_canastas": "Natural canastas",
    "mixed_canastas": "Mixed canastas",
    "red_threes": "Red threes",
    "hand_points": "Points left in hand",
}


@pytest.fixture
def game(db):
    day = ClubDayFactory(date=timezone.localdate(), title="Thursday")
    people = [
        MemberFactory(first_name=first, last_name=last, membership_number=str(101 + i))
        for i, (first, last) in enumerate(
            [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]
        )
    ]
    table = TableFactory(round=RoundFactory(day=day, number=1), number=1, seated=people)
    for person in people:
        SignInFactory(day=day, person=person, card_shown=False)
    ann, bob, cat, dan = people
    return start_game(
        table,
        [[ann, cat], [bob, dan]],
        rule_set=RuleSet.objects.get(slug="club"),
        score_keeper=ann,
        first_dealer=ann,
        now=timezone.now(),
    )


def open_table(page, base_url, game):
    page.goto(f"{base_url}/t/{game.table.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    return page


def side(page, index):
    return page.locator(f"#entry-team-{index}")


def type_hand(page, hand=HAND):
    for index, entry in enumerate(hand):
        box = side(page, index)
        for key, label in LABELS.items():
            box.get_by_label(label, exact=True).fill(entry[key])
        box.get_by_label(entry["went_out"], exact=True).check()


def bar_top(page):
    return page.locator("#hand-bar").bounding_box()["y"]


def test_a_whole_hand_is_typed_on_one_screen_above_the_bar(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    journey.step("phone: the table page")
    type_hand(page)
    expect(page.locator("#preview .preview-teams > div").first).to_contain_text("Total 0 → 1,300")
    journey.step("phone: a hand typed, the preview in the bar")
    assert page.evaluate("window.scrollY") == 0  # nothing needed scrolling
    top = bar_top(page)
    for index in (0, 1):
        for label in LABELS.values():
            box = side(page, index).get_by_label(label, exact=True).bounding_box()
            assert box["y"] + box["height"] <= top, label
        out = side(page, index).locator("fieldset.segmented", has_text="Went out")
        box = out.bounding_box()
        assert box["y"] + box["height"] <= top
    bar = page.locator("#hand-bar")
    expect(bar).to_contain_text("+1,300")
    expect(bar).to_contain_text("Total 0 → 80")
    expect(bar.get_by_role("button", name="Save hand 1")).to_be_visible()
    bar.get_by_role("button", name="Save hand 1").click()
    saved = page.get_by_text("Hand 1 saved. Team 1 +1,300 → 1,300; Team 2 +80 → 80.")
    expect(saved).to_be_in_viewport()
    expect(page.locator("#scoreboard")).to_be_in_viewport()
    journey.step("phone: hand 1 saved, message and scoreboard in view")
    assert Hand.objects.filter(game=game).count() == 1


def test_went_out_fits_at_320_px(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    page.set_viewport_size({"width": 320, "height": 700})
    journey.step("phone 320 px: the score pad")
    for index in (0, 1):
        column = side(page, index).bounding_box()
        for label in ("No", "Out"):
            option = side(page, index).get_by_text(label, exact=True)
            box = option.bounding_box()
            assert (
                box["x"] >= column["x"] and box["x"] + box["width"] <= column["x"] + column["width"]
            )
            assert option.evaluate("e => e.scrollWidth <= e.clientWidth")
        # Going out concealed is rare: one tap away, under "More".
        concealed = more(page, index).get_by_label("Went out concealed")
        concealed.check()
        expect(side(page, index).locator(".concealed-note")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_offline_save_is_kept_and_sent_once_when_back_online(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    type_hand(page)
    expect(page.locator("#hand-bar")).to_contain_text("Total 0 → 1,300")
    page.context.set_offline(True)
    side(page, 1).get_by_label("Red threes", exact=True).fill("1")
    note = page.locator("#hand-bar #sync-note")
    expect(note).to_contain_text("the preview is out of date")
    page.get_by_role("button", name="Save hand 1").click()
    # Said by the Save button (in the bar), with how many hands wait on this phone.
    expect(note).to_have_text(
        "Not sent yet: kept on this phone (1 hand). It is sent by itself when the connection"
        " is back."
    )
    expect(note).to_be_in_viewport()
    journey.step("phone offline: the hand kept on the phone", check_accessibility=False)
    assert not Hand.objects.filter(game=game).exists()
    page.context.set_offline(False)
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\. Team 1 \+1,300"))).to_be_visible()
    journey.step("phone back online: the hand sent by itself")
    page.reload()
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    hand = Hand.objects.get(game=game)
    assert hand.inputs[1]["red_threes"] == 1
    assert Hand.objects.filter(game=game).count() == 1


def test_a_reload_mid_typing_keeps_every_box(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    type_hand(page)
    more(page, 0).get_by_label(re.compile("^Took the top discard")).fill("2")
    choose_mode(page, 1, "Card by card")
    panel = page.locator("#detail-team-1")
    panel.get_by_label("Aces: natural cards").fill("7")
    panel.get_by_label("Fours", exact=True).fill("2")
    page.wait_for_timeout(300)
    page.reload()
    expect(page.locator("#detail-team-1").get_by_label("Aces: natural cards")).to_have_value("7")
    expect(page.locator("#detail-team-1").get_by_label("Fours", exact=True)).to_have_value("2")
    expect(page.locator("#more-team-1").get_by_label("Card by card", exact=True)).to_be_checked()
    for key, label in LABELS.items():
        expect(side(page, 0).get_by_label(label, exact=True)).to_have_value(HAND[0][key])
    expect(side(page, 0).get_by_label("Out", exact=True)).to_be_checked()
    penalty = page.locator("#more-team-0").get_by_label(re.compile("^Took the top discard"))
    expect(penalty).to_have_value("2")
    expect(penalty).to_be_visible()  # "More" opened by itself: a penalty is set
    # The hand restored is previewed at once, in the bar (not "type the hand").
    expect(page.locator("#preview .bar-score")).to_have_count(2)
    journey.step("phone after a reload: every box as typed")
    # The way of entering is remembered for the game on this phone: the next hand too.
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\."))).to_be_visible()
    expect(page.locator("#more-team-1").get_by_label("Card by card", exact=True)).to_be_checked()
    expect(page.locator("#detail-team-1").get_by_label("Aces: natural cards")).to_have_value("")
    expect(side(page, 0).get_by_label("Melded card points", exact=True)).to_have_value("")


def test_double_taps_count_once(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    page.locator("#scoreboard .team-card").nth(0).get_by_role(
        "button", name="+10, failed initial meld"
    ).dblclick()
    expect(page.get_by_text("1 failed meld: 50 → 60")).to_be_visible()
    page.reload()
    expect(page.get_by_text("1 failed meld: 50 → 60")).to_be_visible()
    game.refresh_from_db()
    assert failed_meld_counts(game) == [1, 0]
    type_hand(page)
    data = page.evaluate(
        "() => { const f = document.getElementById('hand-form');"
        " return [f.getAttribute('action'), Array.from(new FormData(f).entries())]; }"
    )
    page.get_by_role("button", name="Save hand 1").dblclick()
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\."))).to_be_visible()
    journey.step("phone: a double-tapped Save, one hand")
    # The same form sent again (a tap the phone did not see answered): the same answer.
    again = page.evaluate(
        "async ([url, pairs]) => { const body = new FormData();"
        " pairs.forEach(([k, v]) => body.append(k, v)); body.set('action', 'save');"
        " const r = await fetch(url, {method: 'POST', body}); return await r.text(); }",
        data,
    )
    assert "Hand 1 saved. Team 1 +1,300" in again and "already entered" not in again
    assert Hand.objects.filter(game=game).count() == 1


def test_two_phones_save_the_same_hand_and_the_second_chooses(journey, game, new_context):
    first = open_table(journey.page, journey.base_url, game)
    second = open_table(new_context(viewport=PHONE).new_page(), journey.base_url, game)
    type_hand(first)
    mine = [dict(HAND[0], melded_points="250"), HAND[1]]
    type_hand(second, mine)
    first.get_by_role("button", name="Save hand 1").click()
    expect(first.get_by_text(re.compile(r"^Hand 1 saved\."))).to_be_visible()
    second.get_by_role("button", name="Save hand 1").click()
    conflict = second.locator("#conflict")
    expect(conflict).to_contain_text("Hand 1 was already entered by Table 1 link")
    team1 = conflict.locator("table", has_text="Team 1")
    expect(team1.locator("tr.differs", has_text="Melded card points")).to_contain_text("300")
    expect(team1.locator("tr.differs", has_text="Melded card points")).to_contain_text("250")
    expect(conflict.locator("table", has_text="Team 2").locator("tr.differs")).to_have_count(0)
    # While the choice is open the bar says what to do next, also once the preview of what
    # was typed (asked for as the page loads, and again on each change) fills the bar.
    bar = second.locator("#hand-bar")
    note = bar.locator(".bar-note")
    expect(bar.locator(".preview-teams")).to_contain_text("+1,250")
    expect(note).to_have_text("Choose above: keep the saved hand, or replace it with yours.")
    expect(bar.get_by_role("button", name=re.compile("^Save"))).to_have_count(0)
    melded = side(second, 0).get_by_label("Melded card points", exact=True)
    melded.fill("260")
    expect(bar.locator(".preview-teams")).to_contain_text("+1,260")
    expect(note).to_have_text("Choose above: keep the saved hand, or replace it with yours.")
    melded.fill("250")
    expect(bar.locator(".preview-teams")).to_contain_text("+1,250")
    note.get_by_role("link", name="Choose above").click()
    expect(conflict.get_by_role("heading", level=2)).to_be_in_viewport()
    journey.page, own = second, journey.page
    journey.step("second phone: both hands side by side")
    conflict.get_by_role("button", name="Replace it with mine").click()
    expect(second.get_by_text(re.compile(r"^Hand 1 replaced with what you typed"))).to_be_visible()
    journey.step("second phone: the saved hand replaced")
    journey.page = own
    hand = Hand.objects.get(game=game, number=1)
    assert hand.inputs[0]["melded_points"] == 250 and hand.version == 2
    assert "replaced by Table 1 link" in hand.history.first().history_change_reason
    assert Game.objects.get(pk=game.pk).hand_count == 1
    # Hand 2: the second phone keeps the saved one.
    type_hand(first)
    type_hand(second, mine)
    first.get_by_role("button", name="Save hand 2").click()
    expect(first.get_by_text(re.compile(r"^Hand 2 saved\."))).to_be_visible()
    second.get_by_role("button", name="Save hand 2").click()
    second.get_by_role("link", name="Keep the saved hand").click()
    expect(second.get_by_role("button", name="Save hand 3")).to_be_visible()
    expect(side(second, 0).get_by_label("Melded card points", exact=True)).to_have_value("")
    assert Hand.objects.get(game=game, number=2).inputs[0]["melded_points"] == 300


def test_three_players_get_a_column_each(journey, game):
    people = [m.person for m in game.table.seats.order_by("position").select_related("person")]
    game.delete()
    three = start_game(
        people[0].seats.get().table,
        [[people[0]], [people[1]], [people[2]]],
        rule_set=RuleSet.objects.get(slug="three-player"),
        score_keeper=people[0],
        first_dealer=people[0],
        now=timezone.now(),
    )
    page = open_table(journey.page, journey.base_url, three)
    expect(page.locator(".pad.sides-3 [role=group]")).to_have_count(3)
    for index in range(3):
        expect(side(page, index).locator(".pad-head")).to_contain_text(f"Player {index + 1}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for index in range(3):
        column = side(page, index).bounding_box()
        box = side(page, index).get_by_text("Out", exact=True).bounding_box()
        assert box["x"] + box["width"] <= column["x"] + column["width"] + 0.5
    more(page, 2).get_by_label("Went out concealed").check()
    expect(side(page, 2).locator(".concealed-note")).to_be_visible()
    journey.step("phone: three players, a column each")


def test_the_page_is_kept_on_the_phone_for_a_reload_without_a_network(journey, game):
    page = open_table(journey.page, journey.base_url, game)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => !!r.active)")
    page.reload()  # now through the service worker, which keeps a copy
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    type_hand(page)
    page.wait_for_timeout(300)
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Save hand 1")).to_be_visible()
    expect(side(page, 0).get_by_label("Melded card points", exact=True)).to_have_value("300")
    expect(side(page, 1).get_by_label("Points left in hand", exact=True)).to_have_value("40")
    journey.step("phone offline: the page and what was typed, after a reload")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#sync-note")).to_contain_text("Not sent yet: kept on this phone (1 hand)")
    page.context.set_offline(False)
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\. Team 1 \+1,300"))).to_be_visible()
    assert Hand.objects.filter(game=game).count() == 1


def test_closing_the_day_asks_and_lists_the_games_in_play(journey, game, officer_user):
    journey.login("officer", "officer-pass-123")
    page = journey.goto(f"/days/{game.day_id}/")
    page.get_by_role("link", name="Close this day").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Close")
    expect(page.get_by_role("heading", name="Still in play: 1 game")).to_be_visible()
    expect(
        page.get_by_role("link", name="Table 1, round 1: game 1, 0 hands played")
    ).to_be_visible()
    journey.step("officer: close the day? games still in play")
    page.get_by_role("link", name="No, keep it open").click()
    assert ClubDay.objects.get(pk=game.day_id).is_open
    page.get_by_role("link", name="Close this day").click()
    page.get_by_role("button", name="Close the day anyway").click()
    expect(page.get_by_text("is closed. Nobody more can sign in.")).to_be_visible()
    assert not ClubDay.objects.get(pk=game.day_id).is_open
