import pytest

from members.tests.factories import ClubDayFactory, MemberFactory


@pytest.fixture
def day(db):
    return ClubDayFactory()


@pytest.fixture
def ann(db):
    return MemberFactory(membership_number="1001", first_name="Ann", last_name="Adams")


@pytest.fixture
def bob(db):
    return MemberFactory(membership_number="1002", first_name="Bob", last_name="Brown")


@pytest.fixture
def client_factory(db):
    """A separate logged-in (or anonymous) test client per persona in one test."""
    from django.test import Client

    def make(user=None):
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Logins are made in many tests; the real hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
