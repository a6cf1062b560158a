""" "Not final" where it matters: the results e-mail and the printed day sheet say how
many hands still wait for the other team's OK; a player's rating reads the same in
the page's totals and in the games table."""

import secrets

import pytest
from django.core import mail
from django.test import TestCase
from django.urls import reverse

from members.services.days import close_day
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import RatingPoint, RuleSet
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting_day():
    """A closed day whose one game (won 5,700 to 450) has three hands nobody of the
    other team has confirmed."""
    people = [
        MemberFactory(first_name=n, last_name="Test", results_by_email=True)
        for n in ("Ann", "Bob", "Cat", "Dan")
    ]
    day = ClubDayFactory(signed_in=people)
    set_day_rules(day, RuleSet.objects.get(slug="club"), confirm_hands=True)
    a, b, c, d = people
    game = games.play(TableFactory(round__day=day, seated=people), [[a, b], [c, d]], [])
    for number in (1, 2, 3):
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_hand(game, [dict(WIN), dict(LOSE)], number=number)
    close_day(day)
    return day


def test_the_email_says_the_results_are_not_final(officer_client, waiting_day):
    officer_client.post(
        reverse("scoring:send_results", args=[waiting_day.pk]),
        {"key": secrets.token_urlsafe(24), "again": "no"},
    )
    message = mail.outbox[0]
    assert "NOT FINAL: 3 hands still wait for the other team's OK" in message.body
    html = message.alternatives[0][0]
    assert "<strong>Not final:</strong> 3 hands still wait for the other team" in html


def test_the_day_sheet_says_the_results_are_not_final(officer_client, waiting_day):
    page = officer_client.get(reverse("scoring:day_sheet", args=[waiting_day.pk]))
    text = page.content.decode()
    assert "<strong>Not final:</strong> 3 hands still wait for the other team" in text


def test_a_final_day_says_nothing_of_the_kind(officer_client):
    people = [MemberFactory() for _ in range(4)]
    day = ClubDayFactory(signed_in=people)
    games.win(TableFactory(round__day=day, seated=people), people[:2], people[2:])
    close_day(day)
    page = officer_client.get(reverse("scoring:day_sheet", args=[day.pk])).content.decode()
    assert "Not final" not in page


def test_the_rating_reads_the_same_in_the_totals_and_the_games_row(member_client):
    """An ordinal of 2.44 is 1,048.8 on the shown scale: 1,049 everywhere (rounding it
    to 2.4 first made the totals say 1,048)."""
    people = [MemberFactory() for _ in range(4)]
    day = ClubDayFactory(signed_in=people)
    game = games.win(TableFactory(round__day=day, seated=people), people[:2], people[2:])
    ann = people[0]
    RatingPoint.objects.filter(game=game, person=ann).update(ordinal=2.44)
    page = member_client.get(reverse("scoring:player", args=[ann.pk])).content.decode()
    totals = page.split('id="all-heading"')[1].split("</section>")[0]
    assert "<dt>Rating</dt><dd>1,049</dd>" in totals
    games_table = page.split('id="all-heading"')[1].split("</section>", 1)[1]
    assert "1,049" in games_table and "1,048" not in page
