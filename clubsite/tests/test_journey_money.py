"""Journey: the treasurer's money, in a real browser, on a phone and a desktop.

The treasurer records a cash payment (a double tap counts once), imports a bank
statement's CSV through its preview (one line matches nobody and is shown so), and a
member then logs in on her phone and sees her balance and its lines, nobody else's.
"""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from members.models import Person
from members.money.access import make_treasurer
from members.money.models import Entry, MoneySettings
from members.money.services.ledger import add_charge

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


#: The form sent twice, the second as soon as the first is answered (as in
#: test_journey_week_taps: a second tap that gets through; not both at once, as the
#: test server's threads share one SQLite connection).
SEND_TWICE = """async (selector) => {
    const form = document.querySelector(selector);
    const send = () => fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual"
    });
    await send();
    await send();
}"""


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_treasurer_records_and_imports_and_a_member_sees_her_balance(journey, tmp_path):
    User = get_user_model()
    make_treasurer(User.objects.create_user("tess", password="tess-pass-123", first_name="Tess"))
    mary = Person.objects.create(
        kind="member",
        membership_number="9001",
        first_name="Mary",
        last_name="Member",
        user=User.objects.create_user("mary", password="mary-pass-123"),
    )
    olga = Person.objects.create(
        kind="member", membership_number="3001", first_name="Olga", last_name="Other"
    )
    club = MoneySettings.load()
    club.bank_date_column, club.bank_amount_column = "Date", "Amount"
    club.bank_reference_column, club.bank_date_format = "Reference", "%d/%m/%Y"
    club.save()
    day = datetime.date(2026, 11, 19)
    add_charge(mary, Decimal("12.00"), "table", date=day)
    add_charge(olga, Decimal("8.00"), "table", date=day)
    page = journey.page

    journey.login("tess", "tess-pass-123")
    page.get_by_role("link", name="Money").first.click()
    expect(page.get_by_role("heading", name="Balances", level=1)).to_be_visible()
    journey.step("balances")

    page.get_by_role("link", name="Mary Member").click()
    account = "/" + page.url.split("/", 3)[3]
    page.get_by_label("Amount received").fill("5")
    journey.step("record a payment")
    # "Record the payment", tapped twice: the form sent twice (a browser's own double
    # click sends one), as in test_journey_week_taps. The first tap records it, the
    # second is told it was recorded already; it counts once.
    posts: list[str] = []
    page.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    page.evaluate(SEND_TWICE, "main form[action$='/pay/']")
    assert sum(url.rstrip("/").endswith(f"/people/{mary.pk}/pay") for url in posts) == 2, posts
    journey.goto(account)
    expect(page.get_by_role("status")).to_contain_text("Payment of 5.00 from Mary Member recorded.")
    expect(page.get_by_role("status")).to_contain_text(
        "This payment was recorded already; nothing was added."
    )
    expect(page.locator(".balance-figure")).to_have_text("-7.00 USD")
    journey.step("payment recorded")
    assert Entry.objects.filter(kind="payment").count() == 1

    csv = tmp_path / "bank.csv"
    csv.write_text(
        "Account;Date;Amount;Reference\n"
        "GB29NWBK60161331926819;01/12/2026;7.00;Table money 9001\n"
        "GB29NWBK60161331926819;01/12/2026;3.00;Someone else\n"
    )
    journey.goto("/money/import/")
    page.get_by_label("The bank statement (CSV)").set_input_files(str(csv))
    page.get_by_role("button", name="Read the file").click()
    expect(page.get_by_role("heading", name="What the file holds")).to_be_visible()
    expect(page.locator("tr.matched")).to_contain_text("Mary Member")
    expect(page.locator("tr.unmatched")).to_contain_text("Someone else")
    journey.step("import preview")
    page.set_viewport_size(DESKTOP)
    journey.step("import preview, desktop")
    assert Entry.objects.filter(kind="payment").count() == 1  # nothing written yet
    page.get_by_role("button", name="Import the ticked payments").click()
    expect(page.get_by_text("1 payment imported")).to_be_visible()
    journey.step("imported, balances on a desktop")
    page.set_viewport_size({"width": 390, "height": 844})

    page.context.clear_cookies()
    journey.login("mary", "mary-pass-123")
    journey.goto("/me/")
    page.get_by_role("link", name="My balance and payments").click()
    expect(page.locator(".balance-figure")).to_have_text("0.00 USD")
    expect(page.get_by_text("Settled: nothing owed.")).to_be_visible()
    expect(page.get_by_text("Olga")).to_have_count(0)
    journey.step("the member sees her balance")
