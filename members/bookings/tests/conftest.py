import datetime

import pytest
from django.utils import timezone

from members.bookings.services.rules import booking_settings
from members.tests.factories import ClubDayFactory, MemberFactory


@pytest.fixture
def rules(db):
    """The club's booking settings: a cap of one table (four places), no cut-off."""
    found = booking_settings()
    found.table_cap = 1
    found.save()
    return found


@pytest.fixture
def soon(db):
    """A club day a week from now."""
    return ClubDayFactory(date=timezone.localdate() + datetime.timedelta(days=7))


@pytest.fixture
def people(db):
    """Eight members with logins' worth of addresses: m[0] … m[7]."""
    return [
        MemberFactory(first_name=name, last_name="Player", email=f"{name.lower()}@example.org")
        for name in ("Ann", "Bob", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")
    ]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
