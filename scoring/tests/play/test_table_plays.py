"""The seating says what each table will play before play starts: the day's rules at
a table of four, their three- or two-player variant at a smaller table, and what to do
when a table has no game; moving people changes it."""

import pytest
from django.urls import reverse

from members.models import Seat
from members.tests.factories import MemberFactory, SignInFactory
from scoring.play.services.games import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def fourteen(day, club_rules):
    people = [MemberFactory() for _ in range(14)]
    for person in people:
        SignInFactory(day=day, person=person, card_shown=False)
    return people


def _plays(html: str) -> list[str]:
    return [line.split("</p>")[0] for line in html.split('class="helptext table-plays">')[1:]]


def test_the_draw_shows_what_each_table_plays(officer_client, day, fourteen):
    response = officer_client.post(
        reverse("members:seating_draw", args=[day.pk]), {"remainder": "threes"}, follow=True
    )
    html = response.content.decode()
    assert "The day's rules: <strong>Club house rules</strong>" in html
    assert (
        _plays(html)
        == ["Plays Club house rules"] * 2 + ["Plays Club house rules (three players)"] * 2
    )
    screen = officer_client.get(reverse("members:seating_display", args=[day.pk]))
    assert screen.content.decode().count("Plays Club house rules (three players)") == 2
    cards = officer_client.get(reverse("scoring:table_cards", args=[day.pk]))
    assert cards.content.decode().count("Plays Club house rules (three players)") == 2


def test_moving_people_changes_what_a_table_plays(officer_client, day, fourteen):
    officer_client.post(reverse("members:seating_draw", args=[day.pk]), {"remainder": "threes"})
    mover = Seat.objects.filter(table__number=3).first().person
    url = reverse("members:seating_move", args=[day.pk])
    response = officer_client.post(
        url, {"round": 1, "person": mover.pk, "table": "4", "position": ""}, follow=True
    )
    html = response.content.decode()
    assert f"{mover.full_name} moved to table 4" in html
    assert _plays(html) == [
        "Plays Club house rules",
        "Plays Club house rules",
        "Plays Club house rules (two players)",
        "Plays Club house rules",
    ]
    # One more to table 4 leaves one at table 3 and five at table 4: the page says
    # what to do.
    other = Seat.objects.filter(table__number=3).first().person
    response = officer_client.post(
        url, {"round": 1, "person": other.pk, "table": "4", "position": ""}, follow=True
    )
    plays = _plays(response.content.decode())
    assert plays[2] == (
        "Club house rules has no game for 1 player: "
        "move people to or from this table before play starts."
    )
    assert plays[3].startswith("Club house rules has no game for 5 players")


def test_a_game_started_at_a_moved_table_plays_what_the_seating_said(
    officer_client, day, fourteen, club_rules
):
    officer_client.post(reverse("members:seating_draw", args=[day.pk]), {"remainder": "threes"})
    table = Seat.objects.filter(table__number=3).first().table
    people = [s.person for s in table.seats.order_by("position")]
    game = start_game(table, [[p] for p in people], rule_set=club_rules)
    assert game.rules_name == "Club house rules (three players)"
