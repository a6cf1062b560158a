"""Fixtures for the table-scoring tests: an open club day with a seated table of four,
a second table, another day (all built with `members.tests.factories`), a game started
through the services, and the hand form's POST data. The sample hands come from
`scoring.tests.samples`."""

import datetime

import pytest
from django.utils import timezone

from members.tests.factories import (
    ClubDayFactory,
    MemberFactory,
    RoundFactory,
    SignInFactory,
    TableFactory,
)
from scoring.models import RuleSet
from scoring.play.forms import hand_form_data
from scoring.play.services.games import start_game
from scoring.tests.samples import BIG, SMALL, quick

__all__ = ["BIG", "SMALL", "quick", "quick_post"]  # the sample hands, as tests import them


@pytest.fixture
def day(db):
    """Today's club day: table links and room codes work only on their day's date."""
    return ClubDayFactory(date=timezone.localdate(), title="Thursday")


@pytest.fixture
def round1(day):
    return RoundFactory(day=day, number=1)


@pytest.fixture
def players(db):
    """Ann, Bob, Cat and Dan: seated at ``table`` in that order (Ann & Cat partners)."""
    names = [("Ann", "Able"), ("Bob", "Baker"), ("Cat", "Cole"), ("Dan", "Dunn")]
    return [
        MemberFactory(first_name=first, last_name=last, membership_number=str(101 + i))
        for i, (first, last) in enumerate(names)
    ]


@pytest.fixture
def table(round1, players):
    table = TableFactory(round=round1, number=1, room_code="KXM7QP", seated=players)
    for person in players:
        SignInFactory(day=round1.day, person=person, card_shown=False)
    return table


@pytest.fixture
def other_table(round1):
    people = [
        MemberFactory(first_name=first, last_name="Other", membership_number=str(200 + i))
        for i, first in enumerate("EFGH")
    ]
    return TableFactory(round=round1, number=2, room_code="WYN3RT", seated=people)


@pytest.fixture
def other_day_table(db):
    other = ClubDayFactory(date=datetime.date(2025, 3, 13), title="Next week")
    return TableFactory(round__day=other, number=1, room_code="PQR4TU")


@pytest.fixture
def club_rules(db):
    return RuleSet.objects.get(slug="club")


@pytest.fixture
def classic_rules(db):
    return RuleSet.objects.get(slug="classic")


@pytest.fixture
def game(table, players, club_rules):
    ann, bob, cat, dan = players
    return start_game(
        table,
        [[ann, cat], [bob, dan]],
        rule_set=club_rules,
        score_keeper=ann,
        first_dealer=ann,
        now=timezone.now(),
    )


@pytest.fixture
def seated_member_client(client, players, django_user_model):
    """A logged-in member seated at the table (Ann)."""
    user = django_user_model.objects.create_user("ann", password="ann-pass-123")
    ann = players[0]
    ann.user = user
    ann.save()
    client.force_login(user)
    return client


@pytest.fixture
def link_client(client, table):
    """A device that opened the table's secret link (no login)."""
    response = client.get(f"/t/{table.token}/")
    assert response.status_code == 302
    return client


def quick_post(teams, number, action="save", version=None):
    """POST data for the hand form from contract team dicts in quick form."""
    return hand_form_data(teams, number, action=action, version=version)
