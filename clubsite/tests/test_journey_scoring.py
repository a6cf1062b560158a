"""Journey: a score keeper on a phone plays a whole game, in a real browser.

The officer has a club day with four people seated at table 1 (set up through the
services), starts the game on the table's page and reads the room code off the table
card. The score keeper's phone is another browser, never logged in: it types the room
code on the front page, enters hands in quick and in card-by-card mode, always seeing
the live preview (breakdown and new totals) before saving, counts a failed initial meld,
is refused a hand where both teams went out (the message at the field, everything typed
kept), plays until a team passes 5,000, and corrects an earlier hand. The officer then
sees the correction in the game's history. The saved totals are checked against the
engine (`scoring.engine.score_request`, what ``manage.py score_hand`` runs).
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members import draw as seating
from members import services as members_services
from members.models import Person, Seat
from scoring.engine import score_request
from scoring.models import Game, GameTeam, Hand, TeamHand
from testsupport.browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What the keeper types, as the scoring contract's team entries (hand by hand).
QUICK_1 = [
    {
        "melded_points": 300,
        "natural_canastas": 1,
        "mixed_canastas": 1,
        "red_threes": 1,
        "went_out": "out",
        "hand_points": 0,
    },
    {
        "melded_points": 120,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": 0,
        "went_out": "none",
        "hand_points": 40,
    },
]
DETAILED_2 = [
    {
        "melds": [
            {"rank": "A", "naturals": 7, "jokers": 0, "twos": 0},
            {"rank": "K", "naturals": 5, "jokers": 0, "twos": 2},
        ],
        "hand_cards": {},
        "red_threes": 0,
        "went_out": "out",
    },
    {
        "melds": [
            {"rank": "Q", "naturals": 3, "jokers": 0, "twos": 0},
            {"rank": "7", "naturals": 3, "jokers": 0, "twos": 0},
            {"rank": "5", "naturals": 3, "jokers": 0, "twos": 0},
        ],
        "hand_cards": {"joker": 1, "4": 2},
        "red_threes": 0,
        "went_out": "none",
    },
]
WIN = {
    "melded_points": 400,
    "natural_canastas": 2,
    "mixed_canastas": 1,
    "red_threes": 1,
    "went_out": "out",
    "hand_points": 0,
}
LOSE = {
    "melded_points": 200,
    "natural_canastas": 0,
    "mixed_canastas": 0,
    "red_threes": 0,
    "went_out": "none",
    "hand_points": 50,
}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def seated_table(db):
    """An open club day (club rules) with four members drawn onto table 1."""
    day = members_services.open_day(timezone.localdate(), "Thursday")  # links end with the date
    for number, (first, last) in enumerate(
        [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")], start=101
    ):
        person = Person.objects.create(
            kind=Person.Kind.MEMBER,
            membership_number=str(number),
            first_name=first,
            last_name=last,
        )
        members_services.sign_in(day, person, card_shown=True)
    drawn = members_services.draw_round(day, seating.THREES, seed=6)
    return drawn.round.tables.get()


def on(journey, page, label):
    """A journey step (screenshot + axe) on another device's page."""
    journey.step_on(page, label)


def team_box(page, index):
    return page.locator(f"#entry-team-{index}")


def more(page, index):
    """A side's rare items (went out concealed, penalties, the way of entering): under
    "More", below the pad, opened with one tap."""
    details = page.locator("details.more-items")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    return page.locator(f"#more-team-{index}")


def choose_mode(page, index, label):
    """ "Quick" or "Card by card" for a side (a tap on "More" first, when needed)."""
    radio = page.locator(f"#more-team-{index}").get_by_label(label, exact=True)
    if not radio.is_checked():
        more(page, index).get_by_label(label, exact=True).check()


def fill_quick(page, index, entry):
    box = team_box(page, index)
    choose_mode(page, index, "Quick")
    for label, key in (
        ("Melded card points", "melded_points"),
        ("Natural canastas", "natural_canastas"),
        ("Mixed canastas", "mixed_canastas"),
        ("Red threes", "red_threes"),
        ("Points left in hand", "hand_points"),
    ):
        box.get_by_label(label, exact=True).fill(str(entry[key]) if entry[key] else "")
    went_out(page, index, entry["went_out"])


def went_out(page, index, value):
    if value == "concealed":
        more(page, index).get_by_label("Went out concealed").check()
        return
    label = {"none": "No", "out": "Out"}[value]
    group = team_box(page, index).locator("fieldset.segmented", has_text="Went out")
    group.get_by_label(label, exact=True).check()


def preview_of(page, index):
    return page.locator("#preview .preview-teams > div").nth(index)


def engine_totals(rules, hands):
    """Chain the hands through the engine as the contract does; the results per hand."""
    before = [0, 0]
    results = []
    for teams in hands:
        result, ok = score_request({"rules": rules, "scores_before": before, "teams": teams})
        assert ok, result
        results.append(result)
        before = [team["score_after"] for team in result["teams"]]
    return results


def test_score_keeper_plays_a_whole_game_on_a_phone(
    journey, officer_user, seated_table, new_context
):
    table = seated_table
    seats = list(Seat.objects.filter(table=table).select_related("person").order_by("position"))
    people = [seat.person for seat in seats]
    # Partners sit opposite: seats 1 & 3 against seats 2 & 4.
    team1 = f"{people[0].full_name} & {people[2].full_name}"
    officer = journey.page

    # The officer starts the game on the table page and reads the room code off the card.
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{table.round.day_id}/seating/")
    journey.step("officer: seating")
    officer.get_by_role("link", name="Score sheet of table 1").click()
    expect(officer.get_by_role("heading", level=1)).to_have_text("Table 1")
    journey.step("officer: table without a game")
    officer.get_by_role("link", name="Start the first game").click()
    expect(officer.get_by_label("Team 1, player 1")).to_have_value(str(people[0].pk))
    expect(officer.get_by_label("Team 2, player 1")).to_have_value(str(people[1].pk))
    officer.get_by_label("Score keeper").select_option(label=people[0].full_name)
    journey.step("officer: start a game")
    officer.get_by_role("button", name="Start the game").click()
    expect(officer.get_by_text("Game 1 started. Good luck!")).to_be_visible()
    journey.step("officer: game started")
    game = Game.objects.get(table=table)

    journey.goto(f"/days/{table.round.day_id}/table-cards/")
    code = officer.locator(".table-card .code").inner_text().strip()
    # Shown in two groups of four ("ABCD-EFGH"); typed back with the dash, in lower case.
    assert code == f"{table.room_code[:4]}-{table.room_code[4:]}"
    journey.step("officer: table cards")

    # The keeper's phone: another browser, nobody logged in.
    keeper = new_context(viewport=PHONE).new_page()
    keeper.set_default_timeout(15_000)
    keeper.goto(journey.base_url + "/")
    on(journey, keeper, "keeper: front page")
    keeper.get_by_label("Room code").fill(code.lower())
    keeper.get_by_role("button", name="Open my table").click()
    expect(keeper.get_by_role("heading", level=1)).to_have_text("Table 1 · Game 1")
    expect(keeper.get_by_text("Signed in as")).to_have_count(0)  # nobody logged in
    on(journey, keeper, "keeper: table page")
    save = keeper.get_by_role("button", name=re.compile(r"^Save hand \d+$"))
    preview_title = keeper.locator("#preview h2")

    # Hand 1, quick mode: the preview shows the breakdown and new totals before saving.
    fill_quick(keeper, 0, QUICK_1[0])
    fill_quick(keeper, 1, QUICK_1[1])
    expect(preview_title).to_have_text("Preview of hand 1 (not saved yet)")
    expect(preview_of(keeper, 0)).to_contain_text("Total 0 → 1,300")
    expect(preview_of(keeper, 0).locator("tr", has_text="Canastas")).to_contain_text("+800")
    expect(preview_of(keeper, 0).locator("tr", has_text="Going out")).to_contain_text("+100")
    expect(preview_of(keeper, 0).locator("tr.sum")).to_contain_text("+1,300")
    expect(preview_of(keeper, 1).locator("tr", has_text="Cards left in hand")).to_contain_text(
        "-40"
    )
    expect(preview_of(keeper, 1)).to_contain_text("Total 0 → 80")
    assert Hand.objects.filter(game=game).count() == 0  # a preview saves nothing
    on(journey, keeper, "keeper: hand 1 preview (quick)")
    save.click()
    expect(
        keeper.get_by_text("Hand 1 saved. Team 1 +1,300 → 1,300; Team 2 +80 → 80.")
    ).to_be_visible()
    expect(keeper.get_by_label("Team 1 total 1300")).to_have_text("1,300")
    on(journey, keeper, "keeper: hand 1 saved")

    # Team 2 failed its initial meld once: its minimum goes from 50 to 60.
    board = keeper.locator("#scoreboard .team-card")
    board.nth(1).get_by_role("button", name="+10, failed initial meld").click()
    expect(board.nth(1)).to_contain_text("1 failed meld: 50 → 60")
    expect(board.nth(1).locator(".minimum strong")).to_have_text("60")
    expect(board.nth(0).locator(".minimum strong")).to_have_text("50")
    on(journey, keeper, "keeper: failed initial meld")

    # Hand 2, card by card for both teams.
    for index in (0, 1):
        choose_mode(keeper, index, "Card by card")
    # Each side's card-by-card boxes open below the score pad.
    one, two = keeper.locator("#detail-team-0"), keeper.locator("#detail-team-1")
    expect(team_box(keeper, 0).get_by_label("Melded card points")).to_be_hidden()
    one.get_by_label("Aces: natural cards").fill("7")
    one.get_by_label("Kings: natural cards").fill("5")
    one.get_by_label("Kings: twos").fill("2")
    went_out(keeper, 0, "out")
    two.get_by_label("Queens: natural cards").fill("3")
    two.get_by_label("Fives: natural cards").fill("3")
    two.get_by_label("Jokers", exact=True).fill("1")
    two.get_by_label("Fours", exact=True).fill("2")
    # 45 melded points, but Team 2 needs 60 this hand (50, +10 for the failed meld).
    expect(preview_title).to_have_text("Not yet: fix these first")
    expect(keeper.locator("#preview")).to_contain_text("needed at least 60 points of cards")
    two.get_by_label("Sevens: natural cards").fill("3")
    expect(preview_title).to_have_text("Preview of hand 2 (not saved yet)")
    expect(preview_of(keeper, 0).locator("tr", has_text="Melded cards")).to_contain_text("+230")
    expect(preview_of(keeper, 0).locator("tr.sum")).to_contain_text("+1,130")
    expect(preview_of(keeper, 0)).to_contain_text("Total 1,300 → 2,430")
    expect(preview_of(keeper, 0)).to_contain_text("Next hand: needs 90 to meld.")
    expect(preview_of(keeper, 1).locator("tr", has_text="Cards left in hand")).to_contain_text(
        "-60"
    )
    expect(preview_of(keeper, 1)).to_contain_text("Total 80 → 80")
    on(journey, keeper, "keeper: hand 2 preview (card by card)")
    save.click()
    expect(
        keeper.get_by_text("Hand 2 saved. Team 1 +1,130 → 2,430; Team 2 +0 → 80.")
    ).to_be_visible()
    expect(board.nth(0).locator(".minimum strong")).to_have_text("90")
    expect(board.nth(1)).not_to_contain_text("failed meld:")  # counted for hand 2 only
    on(journey, keeper, "keeper: hand 2 saved")

    # Hand 3: both teams went out. The preview says no; saving is refused at the field.
    fill_quick(keeper, 0, WIN)
    fill_quick(keeper, 1, dict(LOSE, went_out="out"))
    expect(preview_title).to_have_text("Not yet: fix these first")
    expect(keeper.locator("#preview")).to_contain_text("Teams 1 and 2 both went out")
    expect(keeper.locator("#preview")).to_contain_text("Team 2 went out but has no canasta")
    on(journey, keeper, "keeper: hand 3 preview refused")
    save.click()
    # Said above the pad, where the eye is, each message a link to its box; the box
    # marked red; nothing squeezed into a side's narrow column.
    refusal = keeper.locator("#hand-errors")
    expect(refusal).to_contain_text("The hand was not saved.")
    expect(refusal).to_be_in_viewport()
    expect(
        refusal.get_by_role("link", name=re.compile("^Team 2 went out but has no canasta"))
    ).to_have_text("Team 2 went out but has no canasta; 2 are needed to go out under these rules.")
    went_out_group = team_box(keeper, 1).locator("fieldset.segmented", has_text="Went out")
    expect(went_out_group).to_have_class(re.compile("field-error"))
    expect(team_box(keeper, 1).locator(".errorlist")).to_have_count(0)
    expect(team_box(keeper, 0).get_by_label("Melded card points")).to_have_value("400")
    expect(team_box(keeper, 1).get_by_label("Melded card points")).to_have_value("200")
    expect(team_box(keeper, 1).get_by_label("Points left in hand")).to_have_value("50")
    expect(team_box(keeper, 1).get_by_label("Out", exact=True)).to_be_checked()
    assert Hand.objects.filter(game=game).count() == 2
    on(journey, keeper, "keeper: hand 3 refused")
    went_out(keeper, 1, "none")
    expect(preview_of(keeper, 0)).to_contain_text("Total 2,430 → 4,330")
    expect(preview_of(keeper, 1)).to_contain_text("Total 80 → 230")
    on(journey, keeper, "keeper: hand 3 fixed")
    save.click()
    expect(keeper.get_by_text("Hand 3 saved.")).to_be_visible()

    # Hand 4 passes 5,000: the preview says so, and the table shows the winner.
    fill_quick(keeper, 0, WIN)
    fill_quick(keeper, 1, LOSE)
    expect(keeper.locator("#preview .won")).to_have_text(
        f"This hand ends the game: Team 1 ({team1}) wins."
    )
    expect(preview_of(keeper, 0)).to_contain_text("Total 4,330 → 6,230")
    on(journey, keeper, "keeper: hand 4 preview ends the game")
    save.click()
    expect(keeper.get_by_role("heading", name="Game over: Team 1 wins")).to_be_visible()
    expect(keeper.get_by_text(f"{team1} won with 6,230 points.")).to_be_visible()
    on(journey, keeper, "keeper: game over")

    # Correct hand 1: team 2 had 20 points left in hand, not 40.
    keeper.get_by_role("link", name="Correct a hand").click()
    expect(keeper.get_by_role("heading", level=1)).to_have_text("Game 1 at Table 1")
    on(journey, keeper, "keeper: game page")
    keeper.get_by_role("link", name="Correct hand 1").click()
    expect(keeper.get_by_role("heading", level=1)).to_have_text("Correct hand 1")
    expect(team_box(keeper, 1).get_by_label("Points left in hand")).to_have_value("40")
    team_box(keeper, 1).get_by_label("Points left in hand").fill("20")
    expect(preview_of(keeper, 1)).to_contain_text("Total 0 → 100")
    on(journey, keeper, "keeper: correcting hand 1")
    keeper.get_by_role("button", name="Save the correction").click()
    expect(
        keeper.get_by_text("Hand 1 corrected; the totals after it were recomputed.")
    ).to_be_visible()
    expect(keeper.get_by_label("Team 2 total 400")).to_have_text("400")
    expect(keeper.locator("#hand-1")).to_contain_text("+100")
    on(journey, keeper, "keeper: hand 1 corrected")

    # The officer sees the correction in the game's history.
    journey.goto(f"/games/{game.pk}/")
    history = officer.locator(
        "section", has=officer.get_by_role("heading", name="History of changes")
    )
    corrected = history.locator("li", has_text="Hand 1 corrected").first
    expect(corrected).to_contain_text("by Table 1 link")
    expect(corrected).to_contain_text("Team 2")
    expect(corrected).to_contain_text("points left in hand 40 → 20")
    expect(history.get_by_text("Hand 4 entered")).to_be_visible()
    journey.step("officer: history of changes")

    # The saved totals are the engine's (the score_hand command's) on the same inputs.
    corrected_1 = [QUICK_1[0], dict(QUICK_1[1], hand_points=20)]
    expected = engine_totals(game.rules, [corrected_1, DETAILED_2, [WIN, LOSE], [WIN, LOSE]])
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.number for hand in hands] == [1, 2, 3, 4]
    for hand, result in zip(hands, expected, strict=True):
        rows = list(TeamHand.objects.filter(hand=hand).order_by("team__index"))
        assert [(r.hand_score, r.score_after) for r in rows] == [
            (t["hand_score"], t["score_after"]) for t in result["teams"]
        ]
        # What the form saved scores the same through the contract.
        again = engine_totals(game.rules, [h.inputs for h in hands[: hand.number]])[-1]
        assert again["teams"] == result["teams"]
    teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    assert [t.total for t in teams] == [t["score_after"] for t in expected[-1]["teams"]]
    assert [t.total for t in teams] == [6230, 400]
    assert expected[-1]["game_over"] and expected[-1]["winner"] == 0
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_id == teams[0].pk
