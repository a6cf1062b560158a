"""Journeys: the table on a real club night, on a 390 × 844 phone (issue 12).

A score keeper's phone opens the table's secret link (no login) and enters hands on one
screen: the score pad with a column per team and the bar fixed at the bottom showing
each team's previewed score and the Save button. What is typed survives a reload; a
Save without a network is kept on the phone and sent once when the connection is back;
double taps count once; two phones saving different numbers for the same hand are shown
both hands and the second chooses. Every step is photographed and checked with axe.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import Hand, RuleSet
from scoring.play import services

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
    services.ensure_presets()
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
    return services.start_game(
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
