"""Every money page draws for the treasurer, within a query budget, and its forms
refuse bad input in plain words with nothing written."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from members.money.models import Entry, MembershipType, RenewalPeriod, StatementRun
from members.money.services.ledger import add_charge


@pytest.fixture
def world(ann, bob, day, rates):
    charge = add_charge(ann, Decimal("5.00"), "table", date=day.date, day=day)
    period = RenewalPeriod.objects.create(
        name="2027", paid_until=datetime.date(2027, 12, 31), key="k"
    )
    run = StatementRun.objects.create(start=day.date, end=day.date, key="r")
    MembershipType.objects.create(name="Full", rate=Decimal("60"))
    return {"ann": ann, "charge": charge, "period": period, "run": run, "day": day}


def urls(w):
    return [
        reverse("money:balances"),
        reverse("money:balances") + "?state=owes",
        reverse("money:account", args=[w["ann"].pk]),
        reverse("money:import"),
        reverse("money:settings"),
        reverse("money:day_rate", args=[w["day"].pk]),
        reverse("money:statements"),
        reverse("money:statement_run", args=[w["run"].pk]),
        reverse("money:statement_print", args=[w["run"].pk]),
        reverse("money:dues"),
        reverse("money:renewal", args=[w["period"].pk]),
        reverse("money:renewal_letters", args=[w["period"].pk]),
    ]


def test_every_page_draws_within_its_query_budget(
    world, login, treasurer_user, django_assert_max_num_queries
):
    client = login(treasurer_user)
    for url in urls(world):
        with django_assert_max_num_queries(20):
            response = client.get(url)
        assert response.status_code == 200, url


def test_the_exports(world, login, treasurer_user):
    client = login(treasurer_user)
    csv = client.get(reverse("money:balances") + "?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    assert '"1001","Ann Adams",5.00,0.00,-5.00,"USD"' in csv.content.decode()
    xlsx = client.get(reverse("money:balances") + "?format=xlsx")
    assert xlsx.content.startswith(b"PK")


@pytest.mark.parametrize(
    "amount, words",
    [("-5", "is negative"), ("abc", "is not an amount"), ("1.005", "more than two decimals")],
)
def test_a_bad_payment_is_refused_in_plain_words(world, login, treasurer_user, amount, words):
    client = login(treasurer_user)
    url = reverse("money:pay", args=[world["ann"].pk])
    data = {"amount": amount, "source": "cash", "date": "2026-11-19", "key": "k"}
    response = client.post(url, data, follow=True)
    assert words in response.content.decode()
    assert not Entry.objects.payments().exists()


def test_change_and_take_back_from_the_page(world, bob, login, treasurer_user):
    client = login(treasurer_user)
    url = reverse("money:change", args=[world["charge"].pk])
    client.post(url, {"amount": "2.00", "account": bob.pk, "reason": "Bob hosts"})
    new = Entry.objects.get(person=bob)
    assert new.amount == Decimal("2.00") and new.attendee == world["ann"]
    refused = client.post(url, {"amount": "2.00", "reason": "again"}, follow=True)
    assert "changed already" in refused.content.decode()
    client.post(reverse("money:take_back", args=[new.pk]), {"reason": "Typed wrong"})
    assert Entry.objects.filter(kind="reversal").count() == 2


def test_settings_refuse_a_bad_currency_and_save_rates(world, login, treasurer_user):
    client = login(treasurer_user)
    data = {
        "currency": "dollars",
        "member_rate": "5",
        "visitor_rate": "8",
        "reduced_rate": "3",
        "grace_days": "30",
        "bank_date_format": "%Y-%m-%d",
    }
    page = client.post(reverse("money:settings"), data)
    assert page.status_code == 200 and "Please correct" in page.content.decode()
    data["currency"] = "eur"
    assert client.post(reverse("money:settings"), data).status_code == 302
    from members.money.models import MoneySettings

    assert MoneySettings.current().currency == "EUR"


def test_a_member_page_links_to_their_money(member_client):
    page = member_client.get(reverse("members:me")).content.decode()
    assert reverse("money:me") in page


def test_a_name_like_a_formula_stays_text_in_the_spreadsheet(world, login, treasurer_user):
    import io

    from openpyxl import load_workbook

    from members.tests.factories import MemberFactory

    evil = MemberFactory(first_name='=HYPERLINK("http://evil.example","x")', last_name="")
    add_charge(evil, Decimal("5.00"), "table", date=world["day"].date)
    xlsx = login(treasurer_user).get(reverse("money:balances") + "?format=xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    names = [row[1] for row in sheet.iter_rows(min_row=2)]
    cell = next(c for c in names if str(c.value).startswith("=HYPERLINK"))
    assert cell.data_type == "s"


def test_the_list_links_are_44px_targets(world, login, treasurer_user):
    from pathlib import Path

    from django.conf import settings

    css = (Path(settings.BASE_DIR) / "static/css/money.css").read_text()
    assert ".money-link { display: inline-flex; min-height: 44px;" in css
    client = login(treasurer_user)
    balances = client.get(reverse("money:balances")).content.decode()
    account = reverse("money:account", args=[world["ann"].pk])
    assert f'<a class="money-link" href="{account}">' in balances
    statements = client.get(reverse("money:statements")).content.decode()
    run = reverse("money:statement_run", args=[world["run"].pk])
    assert f'<a class="money-link" href="{run}">' in statements


def test_every_box_of_the_money_pages_is_styled_as_a_text_box(world, login, treasurer_user):
    """The site's stylesheet sizes text boxes by their type (44 px tall, the page's
    font): a box written without one (the account's "change" and "take back" boxes
    were) draws as the browser's tiny default."""
    import re

    client = login(treasurer_user)
    for url in urls(world):
        page = client.get(url).content.decode()
        untyped = [tag for tag in re.findall(r"<input\b[^>]*>", page) if " type=" not in tag]
        assert not untyped, (url, untyped)
