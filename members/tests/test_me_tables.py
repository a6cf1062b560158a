"""A member's own page lists their recent tables with the others who sat there, in
their seats' order, and never themselves."""

import pytest
from django.urls import reverse

from members.tests.factories import MemberFactory, TableFactory

pytestmark = pytest.mark.django_db


def test_my_recent_tables_name_the_others_in_seat_order(client, django_user_model):
    ann, bob, cat, dan = (
        MemberFactory(first_name=name, last_name="Zed") for name in ("Ann", "Bob", "Cat", "Dan")
    )
    ann.user = django_user_model.objects.create_user("ann-zed")
    ann.save()
    TableFactory(seated=[dan, ann, bob, cat])
    client.force_login(ann.user)
    page = client.get(reverse("members:me")).content.decode()
    assert "with Dan Zed, Bob Zed, Cat Zed" in page
