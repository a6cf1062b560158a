"""Fixtures for the table-scoring tests: an open club day with a seated table of four,
a second table, another day, and helpers to build hands."""

import datetime

import pytest
from django.utils import timezone

from members.models import ClubDay, Person, Round, Seat, SignIn, Table
from scoring.models import RuleSet
from scoring.play import services
from scoring.play.forms import hand_form_data


def make_person(first, last, number=None, user=None):
    return Person.objects.create(
        kind=Person.Kind.MEMBER,
        membership_number=number,
        first_name=first,
        last_name=last,
        user=user,
    )


@pytest.fixture
def day(db):
    return ClubDay.objects.create(date=datetime.date(2025, 3, 6), title="Thursday")


@pytest.fixture
def round1(day):
    return Round.objects.create(day=day, number=1)


@pytest.fixture
def players(db):
    return [
        make_person("Ann", "Able", "101"),
        make_person("Bob", "Baker", "102"),
        make_person("Cat", "Cole", "103"),
        make_person("Dan", "Dunn", "104"),
    ]


@pytest.fixture
def table(round1, players):
    table = Table.objects.create(round=round1, number=1, room_code="KXM7QP")
    for position, person in enumerate(players, start=1):
        Seat.objects.create(round=round1, table=table, person=person, position=position)
        SignIn.objects.create(day=round1.day, person=person)
    return table


@pytest.fixture
def other_table(round1):
    people = [make_person(n, "Other", str(200 + i)) for i, n in enumerate("EFGH")]
    table = Table.objects.create(round=round1, number=2, room_code="WYN3RT")
    for position, person in enumerate(people, start=1):
        Seat.objects.create(round=round1, table=table, person=person, position=position)
    return table


@pytest.fixture
def other_day_table(db):
    other = ClubDay.objects.create(date=datetime.date(2025, 3, 13), title="Next week")
    rnd = Round.objects.create(day=other, number=1)
    return Table.objects.create(round=rnd, number=1, room_code="PQR4TU")


@pytest.fixture
def club_rules(db):
    services.ensure_presets()
    return RuleSet.objects.get(slug="club")


@pytest.fixture
def classic_rules(db):
    services.ensure_presets()
    return RuleSet.objects.get(slug="classic")


@pytest.fixture
def game(table, players, club_rules):
    ann, bob, cat, dan = players
    return services.start_game(
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


def quick(melded=0, natural=0, mixed=0, red=0, out="none", hand=0, cut=False, penalties=()):
    """A contract team dict in quick form."""
    return {
        "melded_points": melded,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "hand_points": hand,
        "red_threes": red,
        "went_out": out,
        "perfect_cut": cut,
        "penalties": list(penalties),
    }


# A big hand for team 1 (going out with two canastas) and a small one for team 2.
BIG = quick(melded=400, natural=1, mixed=1, red=1, out="out")  # 400+800+100+100 = 1400
SMALL = quick(melded=120, hand=40)  # 80


def quick_post(teams, number, action="save", version=None):
    """POST data for the hand form from contract team dicts in quick form."""
    return hand_form_data(teams, number, action=action, version=version)
