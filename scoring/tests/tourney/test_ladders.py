"""Ladders: points over the chosen days, the minimum of days to be ranked, total or
average, the fund in exact decimals; who may see and change them; a form sent twice
makes one ladder."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from members.clubs.scope import in_club
from members.permissions import make_officer
from members.tests.factories import ClubDayFactory, TableFactory
from scoring.tests import games
from scoring.tourney.ladders import ladder_standings
from scoring.tourney.models import Ladder
from scoring.tourney.services.errors import AlreadyDone
from scoring.tourney.services.ladders import save_ladder

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    """Two days. Day 1: Ann & Bob beat Cat & Dan (5,700 to 450). Day 2: Ann & Cat beat
    Eve & Fay (5,700 to 450); Bob does not play. A third day is not in the ladder."""
    ann, bob, cat, dan, eve, fay = games.people(6)
    day1 = ClubDayFactory(date=dt.date(2026, 10, 1))
    day2 = ClubDayFactory(date=dt.date(2026, 10, 8))
    day3 = ClubDayFactory(date=dt.date(2026, 10, 15))
    games.win(TableFactory(round__day=day1, seated=[ann, cat, bob, dan]), [ann, bob], [cat, dan])
    games.win(TableFactory(round__day=day2, seated=[ann, eve, cat, fay]), [ann, cat], [eve, fay])
    games.win(TableFactory(round__day=day3, seated=[bob, eve, dan, fay]), [bob, dan], [eve, fay])
    ladder = save_ladder(
        None,
        days=[day1, day2],
        name="Autumn ladder",
        min_days=2,
        ranked_by="total",
        per_player=Decimal("1.50"),
    )
    return ladder


def test_the_ladder_ranks_who_played_enough_days_and_feeds_the_fund(season):
    out = ladder_standings(season)
    assert [(r.rank, r.name, r.days, r.total) for r in out["rows"]] == [
        (1, "P01 Player", 2, 11400),
        (2, "P03 Player", 2, 6150),
    ]
    assert [(r.name, r.days) for r in out["waiting"]] == [
        ("P02 Player", 1),
        ("P04 Player", 1),
        ("P05 Player", 1),
        ("P06 Player", 1),
    ]
    assert out["plays"] == 8
    assert out["fund"] == Decimal("12.00")


def test_by_average_with_one_day_to_qualify(season):
    season.min_days, season.ranked_by = 1, "average"
    season.save()
    rows = ladder_standings(season)["rows"]
    top = [(r.rank, r.tied, r.name, r.average) for r in rows[:3]]
    assert top == [
        (1, True, "P01 Player", Decimal("5700.0")),
        (1, True, "P02 Player", Decimal("5700.0")),
        (3, False, "P03 Player", Decimal("3075.0")),
    ]


def test_the_ladder_page_shows_the_fund(member_client, season):
    html = member_client.get(reverse("scoring:ladder", args=[season.pk])).content.decode()
    assert "8 player-days × 1.50 = <strong>12.00</strong>" in html
    assert "P01 Player" in html and "Not ranked yet" in html


def test_visitors_and_members_cannot_change_a_ladder(member_client, season):
    url = reverse("scoring:ladder_edit", args=[season.pk])
    assert Client().get(url).status_code == 302  # to the login page
    assert member_client.post(url, {"name": "Mine"}).status_code == 403
    assert Ladder.objects.get().name == "Autumn ladder"


def test_another_clubs_officer_cannot_see_or_change_it(season, other_club, django_user_model):
    user = django_user_model.objects.create_user("southie", password="south-pass-123")
    with in_club(other_club):
        make_officer(user)
    client = Client()
    client.force_login(user)
    assert client.get(f"/club{reverse('scoring:ladder_edit', args=[season.pk])}").status_code == 403
    assert client.get(f"/south{reverse('scoring:ladder', args=[season.pk])}").status_code == 404


def test_an_officer_makes_a_ladder_once_however_often_the_form_is_sent(officer_client, season):
    day_ids = [d.pk for d in season.days.all()]
    data = {
        "name": "Winter ladder",
        "days": day_ids,
        "min_days": "1",
        "ranked_by": "average",
        "per_player": "2.00",
    }
    url = reverse("scoring:ladder_new")
    first = officer_client.post(url, data)
    second = officer_client.post(url, data)
    made = Ladder.objects.get(name="Winter ladder")
    assert first["Location"] == second["Location"] == reverse("scoring:ladder", args=[made.pk])
    assert Ladder.objects.count() == 2 and made.ladder_days.count() == 2


def test_the_form_says_what_to_fix(officer_client):
    response = officer_client.post(
        reverse("scoring:ladder_new"), {"name": "", "min_days": "0", "per_player": "-1"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Choose at least one club day." in html
    assert "Ensure this value is greater than or equal to 1." in html


def test_a_name_is_the_clubs_once_whatever_its_capitals(officer_client, season):
    other = save_ladder(
        None, days=[], name="Spring ladder", min_days=1, ranked_by="total", per_player=0
    )
    with pytest.raises(AlreadyDone) as refused:
        save_ladder(None, days=[], name="autumn LADDER", min_days=1, ranked_by="total")
    assert refused.value.ladder == season
    assert "“Autumn ladder” already exists" in refused.value.message
    # Renaming another ladder to it is refused on the form, which says what to fix.
    data = {"name": " AUTUMN ladder", "min_days": "1", "ranked_by": "total", "per_player": "0"}
    data["days"] = [d.pk for d in season.days.all()]
    response = officer_client.post(reverse("scoring:ladder_edit", args=[other.pk]), data)
    assert response.status_code == 200
    assert "already exists; choose another name." in response.content.decode()
    other.refresh_from_db()
    assert other.name == "Spring ladder" and Ladder.objects.count() == 2
    # A ladder keeps its own name, in other capitals too.
    assert save_ladder(season, days=[], name="AUTUMN LADDER").name == "AUTUMN LADDER"


def test_the_database_holds_the_name_whatever_its_capitals(season):
    with pytest.raises(IntegrityError), transaction.atomic():
        Ladder.objects.create(name="AUTUMN ladder")


def test_another_refusal_of_the_database_is_not_called_a_duplicate_name(season):
    with pytest.raises(IntegrityError):
        save_ladder(None, days=[], name="Broken", min_days=0, ranked_by="total")
    assert not Ladder.objects.filter(name="Broken").exists()
