"""Journeys: a whole game of Modern American canasta, of Hand and Foot and of Samba on a
score keeper's phone (390 × 844), in a real browser (issue 25).

The pad shows the boxes its game has (canastas of sevens and aces, sambas, books by
round) and a typical hand with its Save fits one screen; one hand goes card by card with
the game's own melds (a wild canasta, a sequence); the live preview says which hand ends
the game (Hand and Foot: the fourth, whatever the totals before it); the game ends with
the right winner, and the officer finds it in the standings, the day's results and the
league workbook.
"""

import io
import re

import openpyxl
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
from scoring.models import Game, RuleSet, Season
from scoring.play.services.games import start_game
from testsupport.browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_game(slug: str) -> Game:
    today = timezone.localdate()
    Season.objects.create(name="This year", start=today.replace(month=1, day=1), end=today)
    day = ClubDayFactory(date=today, title="Thursday")
    people = [
        MemberFactory(first_name=first, last_name=last, membership_number=str(101 + i))
        for i, (first, last) in enumerate(NAMES)
    ]
    table = TableFactory(round=RoundFactory(day=day, number=1), number=1, seated=people)
    for person in people:
        SignInFactory(day=day, person=person, card_shown=False)
    return start_game(
        table,
        [[people[0], people[2]], [people[1], people[3]]],
        rule_set=RuleSet.objects.get(slug=slug),
        score_keeper=people[0],
        first_dealer=people[0],
        now=timezone.now(),
    )


def side(page, index):
    return page.locator(f"#entry-team-{index}")


def fill(page, index, boxes: dict[str, int]):
    for label, value in boxes.items():
        side(page, index).get_by_label(label, exact=True).fill(str(value))


def went_out(page, index):
    group = side(page, index).locator("fieldset.segmented", has_text="Went out")
    group.get_by_label("Out", exact=True).check()


def preview(page, index):
    return page.locator("#preview .preview-teams > div").nth(index)


def one_screen(page, labels):
    """Every box of a quick hand, "Went out", "More" and Save above the bar."""
    assert page.evaluate("window.scrollY") == 0
    # Only the game's own boxes: the pad's rows are these and "Went out", no other.
    rows = [" ".join(t.split()) for t in page.locator(".pad-labels .row-label").all_text_contents()]
    assert rows == [*labels, "Went out"], rows
    bar_top = page.locator("#hand-bar").bounding_box()["y"]
    for index in (0, 1):
        below = 0
        for label in labels:  # in the pad's order, each box under the one before
            b = side(page, index).get_by_label(label, exact=True).bounding_box()
            assert b["height"] >= 40 and b["width"] >= 60, (index, label)
            assert b["y"] >= below, (index, label)
            assert b["y"] + b["height"] <= bar_top, (index, label)
            below = b["y"] + b["height"]
        out = side(page, index).locator("fieldset.went-out").bounding_box()
        assert out["y"] + out["height"] <= bar_top
    summary = page.locator("details.more-items summary").bounding_box()
    assert summary["y"] + summary["height"] <= bar_top
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def save(page, number):
    page.get_by_role("button", name=f"Save hand {number}").click()


def open_phone(journey, game):
    page = journey.page
    page.set_viewport_size(PHONE)
    page.set_default_timeout(15_000)
    page.goto(f"{journey.base_url}/t/{game.table.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game 1")
    return page


def cells_by_header(row) -> list[tuple[str, str]]:
    """A table row's cells, each with its column's heading (in order: a day's games
    have two "Score" columns)."""
    table = row.locator("xpath=ancestor::table[1]")
    heads = [" ".join(t.split()) for t in table.locator("thead th").all_inner_texts()]
    cells = [" ".join(t.split()) for t in row.locator("th, td").all_inner_texts()]
    assert len(heads) == len(cells), (heads, cells)
    return list(zip(heads, cells, strict=True))


def sheet(book, name) -> list[dict]:
    header, *body = book[name].iter_rows(values_only=True)
    return [dict(zip(header, row, strict=True)) for row in body]


def officer_finds_the_game(journey, game, rules_name, *, canastas, other_canastas):
    """The standings, the day's results and the league workbook show the game: Ann and
    Cat (team 1) won it, with these totals, hands and canastas.

    ``canastas``: the winners' (natural, mixed) canastas as the standings count them
    (kinds without a wild card as natural, the wild kinds as mixed); ``other_canastas``:
    the Hands sheet's words for their other kinds in hand 1."""
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.index == 0
    won, lost = (t.total for t in game.teams.order_by("index"))
    ann = game.teams.get(index=0).players.get(first_name="Ann")
    bob = game.teams.get(index=1).players.get(first_name="Bob")
    officer = journey.page
    journey.login("officer", "officer-pass-123")

    # Standings (every column): Ann played one game and won it, Bob lost it.
    journey.goto("/standings/?columns=all")
    ann_row = dict(cells_by_header(officer.locator(f"#p-{ann.pk}")))
    assert ann_row["Player"].startswith("Ann Able"), ann_row
    assert (ann_row["Games"], ann_row["Won"], ann_row["Lost"]) == ("1", "1", "0")
    assert ann_row["Points for"] == f"{won:,}" and ann_row["Points against"] == f"{lost:,}"
    assert (ann_row["Natural canastas"], ann_row["Mixed canastas"]) == tuple(map(str, canastas))
    bob_row = dict(cells_by_header(officer.locator(f"#p-{bob.pk}")))
    assert (bob_row["Games"], bob_row["Won"], bob_row["Lost"]) == ("1", "0", "1")
    journey.step(f"standings after {rules_name}")

    # The day's results: the game, its winners and both scores.
    journey.goto(f"/results/{game.day_id}/")
    games = officer.locator("section", has=officer.locator("#games-heading"))
    row = games.locator("tbody tr", has_text="Ann Able")
    expect(row).to_have_count(1)
    cells = cells_by_header(row)
    assert ("Winners", "Ann Able & Cat Cole") in cells, cells
    assert [c for h, c in cells if h == "Score"] == [f"{won:,}", f"{lost:,}"], cells
    assert ("Against", "Bob Baker & Dan Dunn") in cells, cells
    assert ("Hands", str(game.hand_count)) in cells, cells
    assert "Rules" not in dict(cells)  # every game of the day played the same rules
    journey.step(f"day results after {rules_name}")

    # The league workbook: the game's row, Ann's standings row, hand 1's kinds.
    answer = officer.request.get(journey.base_url + "/standings/league.xlsx")
    assert answer.status == 200
    book = openpyxl.load_workbook(io.BytesIO(answer.body()), read_only=True)
    (played,) = sheet(book, "Games")
    assert played["Rules"] == rules_name
    assert (played["Team 1"], played["Team 1 score"]) == ("Ann Able & Cat Cole", won)
    assert (played["Team 2"], played["Team 2 score"]) == ("Bob Baker & Dan Dunn", lost)
    assert (played["Winners"], played["Winning score"]) == ("Ann Able & Cat Cole", won)
    assert played["Hands"] == game.hand_count
    people = {row["Player"]: row for row in sheet(book, "Standings")}
    assert (people["Ann Able"]["Games"], people["Ann Able"]["Won"]) == (1, 1)
    assert people["Ann Able"]["Points for"] == won
    assert (people["Ann Able"]["Natural canastas"], people["Ann Able"]["Mixed canastas"]) == (
        canastas
    )
    assert (people["Bob Baker"]["Won"], people["Bob Baker"]["Lost"]) == (0, 1)
    hands = sheet(book, "Hands")
    assert len(hands) == 2 * game.hand_count
    assert hands[-1]["Running total"] == lost and hands[-2]["Running total"] == won
    assert (hands[0]["Other canastas"] or "") == other_canastas
    assert sum(h["Hand score"] for h in hands if h["Team"] == 1) == won
    return book


def test_a_game_of_modern_american_canasta(journey, officer_user):
    game = make_game("modern-american")
    page = open_phone(journey, game)
    labels = ("Melded card points", "Natural canastas", "Mixed canastas", "Canastas of sevens")
    labels += ("Canastas of aces", "Points left in hand", "Red threes")
    # Hand 1: a canasta of sevens and one of aces (2,500 each), quick.
    fill(page, 0, {"Melded card points": 400, "Canastas of sevens": 1, "Canastas of aces": 1})
    went_out(page, 0)
    fill(page, 1, {"Melded card points": 150, "Points left in hand": 30})
    expect(preview(page, 0)).to_contain_text("Total 0 → 5,500")
    one_screen(page, labels)
    journey.step("modern american: hand 1 on one screen")
    save(page, 1)
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\."))).to_be_visible()

    # Hand 2: team 1 card by card with a wild canasta of seven twos (3,000); team 2 has
    # an unfinished meld of sevens (-2,500), under "More".
    more(page, 0).get_by_label("Card by card", exact=True).check()
    detail = page.locator("#detail-team-0")
    detail.get_by_label("Kings: natural cards").fill("7")
    detail.get_by_label("Queens: natural cards").fill("7")
    detail.get_by_label("Wild cards only: twos").fill("7")
    went_out(page, 0)
    fill(page, 1, {"Melded card points": 150})
    more(page, 1).get_by_label("Unfinished canastas of sevens").fill("1")
    expect(preview(page, 0)).to_contain_text("Total 5,500 → 9,880")
    expect(preview(page, 1)).to_contain_text("Total 120 → -2,230")
    expect(page.locator("#preview .won")).to_contain_text("This hand ends the game: Team 1")
    journey.step("modern american: hand 2 card by card ends the game")
    save(page, 2)
    expect(page.get_by_role("heading", name="Game over: Team 1 wins")).to_be_visible()
    journey.step("modern american: game over")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.index == 0
    assert game.teams.get(index=0).canastas_by_kind == {
        "sevens": 1,
        "aces": 1,
        "natural": 2,
        "wild_twos": 1,
    }
    officer_finds_the_game(
        journey,
        game,
        "Modern American canasta",
        canastas=(4, 1),
        other_canastas="1 canasta of sevens; 1 canasta of aces",
    )


def test_a_game_of_hand_and_foot(journey, officer_user):
    game = make_game("hand-and-foot")
    page = open_phone(journey, game)
    labels = ("Melded card points", "Natural canastas", "Mixed canastas")
    labels += ("Points left in hand", "Red threes")
    books = {"Melded card points": 400, "Natural canastas": 2, "Mixed canastas": 2}
    totals = [0, 0]
    for number, (minimum, melded) in enumerate(((50, 60), (90, 100), (120, 130), (150, 160)), 1):
        expect(
            page.locator("#scoreboard .team-card").nth(1).locator(".minimum strong")
        ).to_have_text(str(minimum))
        fill(page, 0, books)
        went_out(page, 0)
        fill(page, 1, {"Melded card points": melded, "Points left in hand": 40})
        totals = [totals[0] + 2100, totals[1] + melded - 40]
        expect(preview(page, 0)).to_contain_text(f"Total {totals[0] - 2100:,} → {totals[0]:,}")
        if number < 4:
            expect(page.locator("#preview .won")).to_have_count(0)
        else:
            expect(page.locator("#preview .won")).to_contain_text("This hand ends the game")
        if number == 1:
            one_screen(page, labels)
            journey.step("hand and foot: round 1 on one screen")
        save(page, number)
        if number < 4:
            expect(page.get_by_text(re.compile(rf"^Hand {number} saved\."))).to_be_visible()
    expect(page.get_by_role("heading", name="Game over: Team 1 wins")).to_be_visible()
    journey.step("hand and foot: game over after the fourth round")
    game.refresh_from_db()
    assert game.hand_count == 4 and game.winner.index == 0
    assert [t.total for t in game.teams.order_by("index")] == totals
    officer_finds_the_game(journey, game, "Hand and Foot", canastas=(8, 8), other_canastas="")


def test_a_game_of_samba(journey, officer_user):
    game = make_game("samba")
    page = open_phone(journey, game)
    labels = ("Melded card points", "Natural canastas", "Mixed canastas", "Sambas")
    labels += ("Points left in hand", "Red threes")
    # Hand 1: two natural canastas and three sambas (1,500 each), going out 200.
    fill(page, 0, {"Melded card points": 500, "Natural canastas": 2, "Sambas": 3})
    went_out(page, 0)
    fill(page, 1, {"Melded card points": 120, "Points left in hand": 20})
    expect(preview(page, 0)).to_contain_text("Total 0 → 6,200")
    one_screen(page, labels)
    journey.step("samba: hand 1 on one screen")
    save(page, 1)
    expect(page.get_by_text(re.compile(r"^Hand 1 saved\."))).to_be_visible()

    # Hand 2: team 1 card by card, 4 to 10 of one suit (a samba) and two melds of kings.
    more(page, 0).get_by_label("Card by card", exact=True).check()
    detail = page.locator("#detail-team-0")
    detail.get_by_label("Kings: natural cards").fill("7")
    detail.get_by_label("Another meld 1: rank").select_option("K")
    detail.get_by_label("Another meld 1: natural cards").fill("5")
    detail.get_by_label("Another meld 1: twos").fill("2")
    detail.get_by_label("Sequence 1: lowest card").select_option("4")
    detail.get_by_label("Sequence 1: cards").fill("7")
    went_out(page, 0)
    fill(page, 1, {"Melded card points": 130})
    # 70 + 90 + 50 = 210 in cards; 500 + 300 + 1,500; going out 200: 2,710.
    expect(preview(page, 0)).to_contain_text("Total 6,200 → 8,910")
    expect(page.locator("#preview .won")).to_have_count(0)
    journey.step("samba: hand 2 card by card")
    save(page, 2)
    expect(page.get_by_text(re.compile(r"^Hand 2 saved\."))).to_be_visible()

    # Hand 3 passes 10,000 (the phone remembers "Card by card": back to quick).
    more(page, 0).get_by_label("Quick", exact=True).check()
    fill(page, 0, {"Melded card points": 300, "Natural canastas": 2})
    went_out(page, 0)
    fill(page, 1, {"Melded card points": 150})
    expect(page.locator("#preview .won")).to_contain_text("This hand ends the game: Team 1")
    save(page, 3)
    expect(page.get_by_role("heading", name="Game over: Team 1 wins")).to_be_visible()
    journey.step("samba: game over")
    game.refresh_from_db()
    first = game.teams.get(index=0)
    assert first.canastas_by_kind == {"natural": 5, "sequence": 4, "mixed": 1}
    assert first.total == 6200 + 2710 + 300 + 1000 + 200
    officer_finds_the_game(journey, game, "Samba", canastas=(9, 1), other_canastas="3 sambas")
