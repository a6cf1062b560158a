"""Journey: sign-in at the door, on a phone, in a real browser.

An officer logs in, opens a club day, finds people by part of a name and by membership
number, signs a member in (card shown, then one without a card), adds a new guest
brought by a member, is told kindly when someone is already in, and undoes a sign-in.
Every change at the door is made with htmx: the page is never reloaded (a marker set
in the page survives) and its address never changes.
"""

import datetime

import pytest
from playwright.sync_api import expect

from members import services
from members.models import ClubDay, Person, SignIn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def member(first, last, number):
    return Person.objects.create(
        kind=Person.Kind.MEMBER, membership_number=number, first_name=first, last_name=last
    )


def person_card(results, name):
    """One person found by the search (their card in the results)."""
    return results.locator(".result", has=results.page.get_by_text(name, exact=True))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_sign_in_at_the_door_on_a_phone(journey, officer_user, member_person):
    member("Harold", "Hughes", "1234")
    member("Harriet", "Holt", "1235")
    zoe = member("Zoe", "Zimmer", "1300")
    page = journey.page

    journey.login("officer", "officer-pass-123")

    # Open today's club day.
    journey.goto("/days/")
    journey.step("club days")
    page.get_by_label("Date").fill("2025-03-06")
    page.get_by_label("Title").fill("Thursday afternoon")
    page.get_by_role("button", name="Open this day").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Thu 06 Mar 2025 — Thursday afternoon"
    )
    expect(page.get_by_text("is open. Sign people in at the door.")).to_be_visible()
    journey.step("day opened")
    day = ClubDay.objects.get(date=datetime.date(2025, 3, 6))

    page.get_by_role("link", name="Sign people in at the door").click()
    expect(page.get_by_role("heading", name="Sign-in at the door")).to_be_visible()
    door_url = page.url
    assert door_url.endswith(f"/days/{day.pk}/door/")
    # From here on, nothing reloads the page: this marker would be lost.
    page.evaluate("window.__doorJourney = 'same page'")
    journey.step("door")

    search = page.get_by_label("Membership number or name")
    results = page.locator("#results")
    message = page.locator("#door-message")
    who = page.locator("#who-is-in")

    # Part of a name finds both Harold and Harriet.
    search.fill("har")
    expect(results.get_by_text("Harold Hughes", exact=True)).to_be_visible()
    expect(results.get_by_text("Harriet Holt", exact=True)).to_be_visible()
    journey.step("search by part of a name")

    person_card(results, "Harold Hughes").get_by_role("button", name="Sign in · card shown").click()
    expect(message).to_contain_text("Harold Hughes signed in.")
    expect(who.get_by_role("heading")).to_have_text("Who is in: 1")
    expect(who).to_contain_text("Harold Hughes")
    expect(search).to_have_value("")
    expect(results).to_be_empty()
    journey.step("member signed in with card")

    # A membership number finds the member; this one forgot the card.
    search.fill("9001")
    expect(results.get_by_text("Mary Member", exact=True)).to_be_visible()
    expect(results).to_contain_text("No. 9001")
    journey.step("search by membership number")
    person_card(results, "Mary Member").get_by_role("button", name="Sign in · no card").click()
    expect(message).to_contain_text("Mary Member signed in. No card shown.")
    expect(who.get_by_role("heading")).to_have_text("Who is in: 2")
    expect(who.locator(".who-item", has_text="Mary Member")).to_contain_text("no card")
    journey.step("member signed in without card")

    # A new guest, brought by Mary.
    page.get_by_text("Add a new guest").click()
    panel = page.locator("#guest-panel")
    panel.get_by_label("Guest's first name").fill("Gina")
    panel.get_by_label("Guest's last name").fill("Guest")
    panel.get_by_label("Came with", exact=True).select_option(label="Mary Member")
    journey.step("new guest form")
    panel.get_by_role("button", name="Sign in the new guest").click()
    expect(message).to_contain_text("New guest Gina Guest signed in with Mary Member.")
    expect(who.get_by_role("heading")).to_contain_text("Who is in: 3")
    expect(who.get_by_role("heading")).to_contain_text("(1 guest)")
    expect(who.locator(".who-item", has_text="Gina Guest")).to_contain_text("guest of Mary Member")
    journey.step("guest signed in")
    assert Person.objects.get(first_name="Gina").brought_by == member_person

    # Someone already in: the search says so, and offers no button.
    search.fill("1234")
    harold = person_card(results, "Harold Hughes")
    expect(harold).to_contain_text("Already signed in at")
    expect(harold.get_by_role("button")).to_have_count(0)
    journey.step("already signed in shown in search")

    # Zoe is found here while another tablet signs her in; tapping her is refused kindly.
    search.fill("zimmer")
    expect(results.get_by_text("Zoe Zimmer", exact=True)).to_be_visible()
    services.sign_in(day, zoe, card_shown=True)
    person_card(results, "Zoe Zimmer").get_by_role("button", name="Sign in · card shown").click()
    expect(message).to_contain_text("Zoe Zimmer is already signed in (at ")
    expect(message.get_by_role("alert")).to_be_visible()
    journey.step("signed in twice refused kindly")
    assert SignIn.objects.filter(day=day, person=zoe).count() == 1
    expect(search).to_have_value("zimmer")  # nothing changed: the search stays

    # Undo Harold's sign-in (the page asks first).
    page.once("dialog", lambda dialog: dialog.accept())
    who.get_by_role("button", name="Undo the sign-in of Harold Hughes").click()
    expect(message).to_contain_text("Sign-in of Harold Hughes undone.")
    expect(who.get_by_text("Harold Hughes")).to_have_count(0)
    # Zoe, signed in by "the other tablet", is in the refreshed list too.
    expect(who.get_by_role("heading")).to_contain_text("Who is in: 3")
    expect(who).to_contain_text("Zoe Zimmer")
    journey.step("sign-in undone")
    assert not SignIn.objects.filter(day=day, person__first_name="Harold").exists()

    # All of it on the same page: same address, never reloaded.
    assert page.url == door_url
    assert page.evaluate("window.__doorJourney") == "same page"


TOUCH_STYLES = (
    "document.querySelectorAll('input').forEach(i => {"
    " i.style.caretColor = 'auto'; i.style.caretColor = ''; })"
)


def test_signing_in_from_the_search_draws_no_csp_violation(journey, officer_user):
    """htmx settles swapped elements by copying attributes; copying a ``style``
    attribute is an inline style the Content-Security-Policy refuses (one console
    message per form field). A field gets one as soon as any script touches its style
    (the browser's own tools, a screenshot, an extension): here, as a screenshot
    does. The site's htmx config settles no style (base.html)."""
    member("Harold", "Hughes", "1234")
    day = ClubDay.objects.create(date=datetime.date(2025, 3, 6))
    page = journey.page
    journey.login("officer", "officer-pass-123")
    journey.goto(f"/days/{day.pk}/door/")
    page.get_by_label("Membership number or name").fill("Har")
    results = page.locator("#results")
    expect(person_card(results, "Harold Hughes")).to_be_visible()
    page.evaluate(TOUCH_STYLES)
    page.locator("#results button[value=true]").first.click()
    expect(page.locator("#door-message")).to_contain_text("Harold Hughes")
    page.wait_for_timeout(300)  # the settle runs 20 ms after the swap
    journey.assert_no_csp_violations()
    assert SignIn.objects.filter(day=day).count() == 1
