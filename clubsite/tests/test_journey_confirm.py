"""Journey: the other team's OK of every hand, on phones, in a real browser.

The day asks for the other team's OK. Table 1's game starts with "Score keeper: nobody in
particular"; seat 1 saves each hand on the table's phone (through the services here: the
hand form has its own journeys). After the first hand the phone asks once who keeps the
score; from then on only the other team's players are offered "it is right". The panel is
one line above the pad (the pad stays on the first screen) that opens the waiting hands.
After each hand a player of the other team confirms it with one tap on the same phone, or
from their own phone through the table link, or disputes it with a reason. An officer settles
the disputed hand from the club day's page. At the end every hand of the game is
confirmed or settled, and the game's history says who did each. A double tap on a name
counts once.
"""

import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from members import draw as seating
from members import services as members_services
from members.models import Person, Seat
from scoring.models import Game, HandConfirmation, RuleSet
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.samples import LOSE, WIN
from testsupport.browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game(db):
    """An open club day asking for the other team's OK, four members drawn onto table 1
    and a game started with nobody in particular keeping the score."""
    day = members_services.open_day(timezone.localdate(), "Thursday")
    names = [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]
    for number, (first, last) in enumerate(names, start=101):
        person = Person.objects.create(
            kind=Person.Kind.MEMBER, membership_number=str(number), first_name=first, last_name=last
        )
        members_services.sign_in(day, person, card_shown=True)
    set_day_rules(day, RuleSet.objects.get(slug="club"), confirm_hands=True)
    table = members_services.draw_round(day, seating.THREES, seed=6).round.tables.get()
    seats = [s.person for s in Seat.objects.filter(table=table).order_by("position")]
    return start_game(table, [[seats[0], seats[2]], [seats[1], seats[3]]])


def phone(new_context, journey, table):
    """A phone that opened the table's link (nobody logged in)."""
    page = new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{journey.base_url}/t/{table.token}/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Table 1")
    return page


def on(journey, page, label):
    own = journey.page
    journey.page = page
    try:
        journey.step(label)
    finally:
        journey.page = own


def double_tap(page, button, url: str) -> int:
    """Tap ``button`` (a form's submit button) twice, the second tap landing on the same
    page while the first one's answer is on its way, as a quick finger does, and wait
    for the page the second one leads to. Both taps reach the site, the first first.
    Returns how many taps the phone sent.

    The site's answers (to ``url``) are held until both taps are made. Playwright's
    ``dblclick`` left it to the machine's speed: two quick clicks made one request; a
    slower second click aborted the first's page and sent its own; on a loaded machine
    the first answer could load before the second click, which then landed on the new
    page, where a "Next game" link stands in the name's place."""
    held: list = []

    def hold(route):
        held.append(route)

    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.route(url, hold)
    try:
        for taps in (1, 2):
            page.mouse.click(x, y)  # where the finger taps, whatever page is there
            deadline = time.monotonic() + 15
            while len(held) < taps and time.monotonic() < deadline:
                page.wait_for_timeout(50)  # lets the route handler run
            assert len(held) == taps, f"tap {taps} sent no request"
        first, second = held
        # The phone gave up on the first tap's answer when the second was made, but
        # the first request had reached the site: send it there, then the second.
        assert page.context.request.fetch(first.request, max_redirects=0).status == 302
        with page.expect_navigation():
            second.fulfill(response=second.fetch(max_redirects=0))
    finally:
        page.unroute(url, hold)
    return len(held)


def save(game, number):
    """The keeper's phone saves hand ``number`` (team 1 wins every hand)."""
    record_hand(game, [WIN, LOSE], number=number, via=f"Table {game.table.number} link")


def test_every_hand_ends_confirmed_or_settled(journey, officer_user, game, new_context):
    table = game.table
    first = game.teams.get(index=0).memberships.order_by("seat")[0].person
    other = [m.person for m in game.teams.get(index=1).memberships.order_by("seat")]
    keeper = phone(new_context, journey, table)

    # Hand 1: nobody was named score keeper, so the phone asks who keeps the score
    # before anybody may OK it; then the other team's first player taps their name.
    save(game, 1)
    keeper.reload()
    panel = keeper.locator("#confirm")
    expect(panel.get_by_text("Hand 1 waits for an OK")).to_be_visible()
    expect(panel.get_by_role("button", name="it is right")).to_have_count(0)
    # The panel is a line or two: the pad starts on the first screen.
    height = panel.bounding_box()["height"]
    box = keeper.locator("#hand-form input:not([type=hidden])").first.bounding_box()
    assert height <= 120, height
    assert box is not None and box["y"] + box["height"] < PHONE["height"], box
    on(journey, keeper, "keeper: who keeps the score?")
    panel.get_by_label("Who keeps the score?").select_option(label=first.full_name)
    panel.get_by_role("button", name="OK").click()
    expect(keeper.get_by_text(f"{first.full_name} keeps the score")).to_be_visible()
    panel = keeper.locator("#confirm")
    expect(panel.get_by_label("Who keeps the score?")).to_have_count(0)
    panel.get_by_text("Hand 1 waits for Team 2's OK").click()
    expect(panel.get_by_role("button", name=f"{first.full_name}: it is right")).to_have_count(0)
    on(journey, keeper, "keeper: hand 1 waits for the other team")
    panel.get_by_role("button", name=f"{other[0].full_name}: it is right").click()
    expect(keeper.get_by_text(f"Hand 1 was confirmed by {other[0].full_name}.")).to_be_visible()
    expect(keeper.locator("#hand-1")).to_contain_text(f"OK by {other[0].first_name}")
    expect(keeper.locator("#confirm")).to_have_count(0)
    on(journey, keeper, "keeper: hand 1 confirmed")

    # Hand 2: the other team's second player disputes it from their own phone.
    save(game, 2)
    own = phone(new_context, journey, table)
    own.locator("#confirm summary").first.click()
    dispute = own.locator("#confirm-2 details")
    dispute.get_by_text("Not right? Dispute hand 2").click()
    dispute.get_by_label(other[1].full_name).check()
    dispute.get_by_label("What is wrong?").fill("We melded a canasta of kings")
    on(journey, own, "own phone: dispute hand 2")
    dispute.get_by_role("button", name="Dispute hand 2: an officer will settle it").click()
    expect(own.get_by_text(f"Hand 2 is marked as disputed by {other[1].full_name}")).to_be_visible()
    expect(own.locator("#hand-2")).to_contain_text("Disputed")
    on(journey, own, "own phone: hand 2 disputed")

    # Hand 3 is saved while hand 2 is disputed; it ends the game. A double tap on a name
    # on the keeper's phone confirms it once.
    save(game, 3)
    keeper.reload()
    expect(keeper.get_by_role("heading", name="Game over: Team 1 wins")).to_be_visible()
    keeper.locator("#confirm summary").first.click()
    taps = double_tap(
        keeper,
        keeper.locator("#confirm-3").get_by_role(
            "button", name=f"{other[1].full_name}: it is right"
        ),
        f"**/games/{game.pk}/hands/3/confirm/",
    )
    assert taps == 2  # both taps reached the site; one counted
    expect(keeper.get_by_text(f"Hand 3 was confirmed by {other[1].full_name}")).to_have_count(1)
    expect(keeper.locator("#hand-3")).to_contain_text(f"OK by {other[1].first_name}")
    on(journey, keeper, "keeper: hand 3 confirmed after a double tap")
    hand3 = HandConfirmation.objects.get(hand__game=game, hand__number=3)
    assert hand3.history.filter(status="confirmed").count() == 1

    # The officer settles hand 2 from the club day's page.
    officer = journey.page
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{table.round.day_id}/")
    settle = officer.locator("#hands-to-settle")
    expect(settle.get_by_role("heading")).to_have_text("Hands to settle (1)")
    expect(settle).to_contain_text("We melded a canasta of kings")
    journey.step("officer: hands to settle")
    settle.get_by_role("button", name="Settle: hand 2 at Table 1 is right").click()
    expect(officer.get_by_text("Hand 2 was settled by Olive Officer; it is final.")).to_be_visible()
    expect(officer.locator("#hands-to-settle")).to_have_count(0)
    journey.step("officer: hand 2 settled")

    statuses = dict(
        HandConfirmation.objects.filter(game=game).values_list("hand__number", "status")
    )
    assert statuses == {1: "confirmed", 2: "settled", 3: "confirmed"}
    assert Game.objects.get(pk=game.pk).is_finished

    # The game's history says who did each.
    journey.goto(f"/games/{game.pk}/")
    history = officer.locator(".history")
    expect(history).to_contain_text(f"Hand 1 confirmed by {other[0].full_name} (Table 1 link)")
    expect(history).to_contain_text(f"Hand 2 disputed by {other[1].full_name} (Table 1 link)")
    expect(history).to_contain_text("Why: We melded a canasta of kings")
    expect(history).to_contain_text("Hand 2 settled by Olive Officer")
    expect(history).to_contain_text(f"Hand 3 confirmed by {other[1].full_name}")
    journey.step("officer: the game's history")
