import datetime
from decimal import Decimal

import pytest

from members.money.models import MoneySettings
from members.tests.factories import ClubDayFactory, MemberFactory


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def rates(db):
    """Table money of 5.00 for members, 8.00 for visitors, 3.00 reduced."""
    found = MoneySettings.load()
    found.member_rate = Decimal("5.00")
    found.visitor_rate = Decimal("8.00")
    found.reduced_rate = Decimal("3.00")
    found.save()
    return found


@pytest.fixture
def day(db):
    return ClubDayFactory(date=datetime.date(2026, 11, 19))


@pytest.fixture
def ann(db):
    return MemberFactory(membership_number="1001", first_name="Ann", last_name="Adams")


@pytest.fixture
def bob(db):
    return MemberFactory(membership_number="1002", first_name="Bob", last_name="Brown")


@pytest.fixture
def treasurer_user(db, django_user_model):
    from members.money.access import make_treasurer

    user = django_user_model.objects.create_user("treasurer", first_name="Tess")
    make_treasurer(user)
    return user


@pytest.fixture
def login(client):
    """A client logged in as ``user`` (None: anonymous)."""

    def make(user=None):
        from django.test import Client

        new = Client()
        if user is not None:
            new.force_login(user)
        return new

    return make


@pytest.fixture
def mapped(rates):
    rates.bank_date_column = "Date"
    rates.bank_amount_column = "Amount"
    rates.bank_reference_column = "Reference"
    rates.bank_date_format = "%d/%m/%Y"
    rates.save()
    return rates
