"""Who sees which money: one test per boundary (anonymous, a member, another member,
the treasurer, an officer, another club's treasurer and officer)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from members.clubs.scope import in_club
from members.money.access import make_treasurer
from members.money.models import Entry
from members.money.services.ledger import add_charge, record_payment
from members.permissions import make_officer

D = "2026-11-19"


@pytest.fixture
def accounts(ann, bob, member_person):
    import datetime

    day = datetime.date(2026, 11, 19)
    add_charge(ann, Decimal("5.00"), "table", date=day)
    add_charge(member_person, Decimal("7.00"), "table", date=day)
    record_payment(member_person, Decimal("3.00"), "cash", date=day)
    return ann


def test_anonymous_goes_to_the_login_page(login, accounts):
    for url in (reverse("money:balances"), reverse("money:me")):
        response = login().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_member_sees_only_their_own_money(login, accounts, member_person):
    client = login(member_person.user)
    response = client.get(reverse("money:me"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "-4.00 USD" in text and "Ann Adams" not in text
    assert client.get(reverse("money:balances")).status_code == 403
    assert client.get(reverse("money:account", args=[accounts.pk])).status_code == 403


def test_another_member_cannot_record_a_payment(login, accounts, bob, django_user_model):
    bob.user = django_user_model.objects.create_user("bob")
    bob.save()
    client = login(bob.user)
    before = Entry.objects.count()
    url = reverse("money:pay", args=[accounts.pk])
    response = client.post(url, {"amount": "5", "source": "cash", "date": D, "key": "k"})
    assert response.status_code == 403 and Entry.objects.count() == before
    assert "0.00 USD" in client.get(reverse("money:me")).content.decode()


@pytest.mark.parametrize("role", ["treasurer", "officer"])
def test_the_treasurer_and_officers_see_everyone_and_record(
    login, accounts, role, treasurer_user, officer_user
):
    client = login(treasurer_user if role == "treasurer" else officer_user)
    page = client.get(reverse("money:balances")).content.decode()
    assert "Ann Adams" in page and "Mary Member" in page
    url = reverse("money:pay", args=[accounts.pk])
    data = {"amount": "5.00", "source": "cash", "date": D, "key": f"key-{role}"}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # a double tap
    assert Entry.objects.filter(person=accounts, kind="payment").count() == 1


def test_a_treasurer_is_not_an_officer(login, treasurer_user, day):
    client = login(treasurer_user)
    assert client.get(reverse("members:days")).status_code == 403
    assert client.get(reverse("members:people")).status_code == 403


@pytest.mark.parametrize("role", ["treasurer", "officer"])
def test_another_clubs_treasurer_or_officer_sees_nothing_here(
    login, accounts, club, other_club, django_user_model, role
):
    user = django_user_model.objects.create_user("south-" + role)
    with in_club(other_club):
        make_treasurer(user) if role == "treasurer" else make_officer(user)
    client = login(user)
    here = f"/{club.slug}"  # two clubs: each at /<slug>/
    assert client.get(here + reverse("money:balances")).status_code == 403
    url = here + reverse("money:pay", args=[accounts.pk])
    before = Entry.objects.count()
    client.post(url, {"amount": "5", "source": "cash", "date": D, "key": "x"})
    assert Entry.objects.count() == before


def test_another_clubs_person_is_not_found_here(login, treasurer_user, club, other_club):
    from members.models import Person

    with in_club(other_club):
        south = Person.objects.create(kind="member", membership_number="1", first_name="Sam")
    client = login(treasurer_user)
    here = f"/{club.slug}"
    assert client.get(here + reverse("money:account", args=[south.pk])).status_code == 404
    response = client.post(
        here + reverse("money:pay", args=[south.pk]),
        {"amount": "5", "source": "cash", "date": D, "key": "z"},
    )
    assert response.status_code == 404


def test_an_officer_makes_a_member_treasurer_and_takes_it_back(login, officer_user, member_person):
    from members.money.access import is_treasurer

    client = login(officer_user)
    url = reverse("money:treasurer_role", args=[member_person.pk])
    client.post(url, {"action": "add"})
    client.post(url, {"action": "add"})  # a double tap
    user = member_person.user.__class__.objects.get(pk=member_person.user_id)
    assert is_treasurer(user)
    assert login(user).get(reverse("money:balances")).status_code == 200
    client.post(url, {"action": "remove"})
    user = member_person.user.__class__.objects.get(pk=member_person.user_id)
    assert not is_treasurer(user)


def test_a_treasurer_cannot_make_treasurers(login, treasurer_user, member_person):
    url = reverse("money:treasurer_role", args=[member_person.pk])
    assert login(treasurer_user).post(url, {"action": "add"}).status_code == 403
