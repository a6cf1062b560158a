"""The event's ranking, checked against a hand calculation: victory points from the
burraco 0–20 table, ties shown; the ranking page, the prize list and the command say
the same; who may see them."""

from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.tests.tourney.conftest import START, key, play_round
from scoring.tourney.services.rounds import end_current_round, start_next_round
from scoring.tourney.standings import event_ranking, prizes

pytestmark = pytest.mark.django_db

#: Round 2: East–West wins at table 1 (1,900 to 150), the others play BIG against SMALL
#: (1,400 to 80, North–South ahead); rounds 1 and 3: North–South win 1,900 to 150.
ROUND_2 = {1: 1, 2: "small", 3: "small", 4: "small", 5: "small"}


@pytest.fixture
def played(event):
    now = START
    for number in (1, 2, 3):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row, winners=ROUND_2 if number == 2 else None)
        now += dt.timedelta(minutes=50)
        end_current_round(event, number=number, key=key(), now=now)
    event.refresh_from_db()
    return event


def test_victory_points_match_a_hand_calculation(played):
    # A difference of 1,750 is over 1,500: 20–0. A difference of 1,320: 19–1.
    # NS 1: 20 + 0 + 20 = 40. NS 2–5: 20 + 19 + 20 = 59. East–West pair 5 reaches
    # table 1 in round 2 ((5 + 2 - 2) mod 5 + 1) and wins: 20; East–West 1–4: 1.
    # A Mitchell ranks each line on its own (the club's default): two sets of winners.
    rows = event_ranking(played)
    got = [(row.section, row.rank, row.tied, row.label, row.tally.vp) for row in rows]
    assert got == [
        ("ns", 1, True, "North–South 2", 59),
        ("ns", 1, True, "North–South 3", 59),
        ("ns", 1, True, "North–South 4", 59),
        ("ns", 1, True, "North–South 5", 59),
        ("ns", 5, False, "North–South 1", 40),
        ("ew", 1, False, "East–West 5", 20),
        ("ew", 2, True, "East–West 1", 1),
        ("ew", 2, True, "East–West 2", 1),
        ("ew", 2, True, "East–West 3", 1),
        ("ew", 2, True, "East–West 4", 1),
    ]
    ns2 = rows[0]
    assert ns2.tally.diff == 1750 + 1320 + 1750 and ns2.tally.games == 3


def test_a_mitchell_ranked_as_one_list(played):
    played.sections = "one"
    rows = event_ranking(played)
    got = [(row.section, row.rank, row.tied, row.label, row.tally.vp) for row in rows]
    assert got[4:] == [
        ("", 5, False, "North–South 1", 40),
        ("", 6, False, "East–West 5", 20),
        ("", 7, True, "East–West 1", 1),
        ("", 7, True, "East–West 2", 1),
        ("", 7, True, "East–West 3", 1),
        ("", 7, True, "East–West 4", 1),
    ]
    groups = prizes(rows)
    assert [(name, [r.label for r in won]) for name, won in groups] == [
        ("", ["North–South 2", "North–South 3", "North–South 4", "North–South 5"])
    ]


def test_wins_then_points(played):
    played.ranking = "wins"
    played.tie_break = "diff"
    rows = event_ranking(played)
    assert [(r.label, r.tally.wins) for r in rows[:5]] == [
        ("North–South 2", 3),
        ("North–South 3", 3),
        ("North–South 4", 3),
        ("North–South 5", 3),
        ("North–South 1", 2),
    ]
    assert rows[0].tied  # equal wins, points for and difference


def test_percentage_of_the_most(played):
    played.ranking = "pct"
    rows = event_ranking(played)
    assert rows[0].pct == "98.33"  # 59 of 60
    assert rows[4].pct == "66.67"  # 40 of 60


def test_the_ranking_page_and_the_prize_list(member_client, played):
    html = member_client.get(reverse("scoring:event_ranking", args=[played.pk])).content.decode()
    assert "North–South 2" in html and "1=" in html and "59" in html
    assert html.count('data-section="ns"') == html.count('data-section="ew"') == 1
    assert html.index('data-section="ns"') < html.index("North–South 2")
    assert html.index('data-section="ew"') < html.index("East–West 5")
    page = member_client.get(reverse("scoring:event_prizes", args=[played.pk]))
    text = page.content.decode()
    # Places 1–3 of each line: four pairs share North–South's first place (North–South
    # 1, fifth, wins nothing); East–West 5 is first and four pairs share second place.
    assert page.status_code == 200 and text.count("1st place") == 5 and "(tied)" in text
    assert text.count("2nd place") == 4 and "P11 T1 &amp; P13 T1" not in text
    assert "P12 T1 &amp; P14 T1" in text  # East–West 1, tied second
    assert text.index("<h2>North–South</h2>") < text.index("<h2>East–West</h2>")
    groups = prizes(event_ranking(played))
    assert [(name, len(won)) for name, won in groups] == [("ns", 4), ("ew", 5)]


def test_visitors_need_the_clubs_results_to_be_public(client, played):
    response = client.get(reverse("scoring:event_ranking", args=[played.pk]))
    assert response.status_code in (302, 403)


def test_the_command_prints_the_ranking_as_the_page_shows_it(played):
    out = StringIO()
    call_command("event_ranking", played.day.date.isoformat(), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert [(r["place"], r["entrant"], r["vp"]) for r in data["rows"]][:5] == [
        (1, "North–South 2", 59),
        (1, "North–South 3", 59),
        (1, "North–South 4", 59),
        (1, "North–South 5", 59),
        (5, "North–South 1", 40),
    ]
    assert data["sections"] == ["ns", "ew"]
    assert [(r["section"], r["place"], r["entrant"]) for r in data["rows"]][5] == (
        "ew",
        1,
        "East–West 5",
    )
    text = StringIO()
    call_command("event_ranking", str(played.day_id), stdout=text)
    assert "1=" in text.getvalue() and "VP 59" in text.getvalue()
    lines = text.getvalue().splitlines()
    assert lines.index("North–South") < lines.index("East–West")


def test_the_day_results_link_to_the_events_ranking(member_client, played):
    html = member_client.get(reverse("scoring:day_result", args=[played.day_id])).content.decode()
    assert reverse("scoring:event_ranking", args=[played.pk]) in html


def test_an_ordinary_days_results_have_no_event_link(
    member_client, day, seated, django_assert_max_num_queries
):
    with django_assert_max_num_queries(40) as page:
        html = member_client.get(reverse("scoring:day_result", args=[day.pk])).content.decode()
    assert "/ranking/" not in html
    # The day says it has no event: no read of the event's copy in the shared cache.
    assert not any("tourney" in q["sql"] for q in page.captured_queries)


@pytest.fixture
def bracketed(event):
    """Round 3: East–West pair 5 (at table 2) beats North–South 2."""
    now = START
    for number in (1, 2, 3):
        row = start_next_round(event, number=number, key=key(), now=now)
        winners = {2: ROUND_2, 3: {2: 1}}.get(number)
        play_round(row, winners=winners)
        now += dt.timedelta(minutes=50)
        end_current_round(event, number=number, key=key(), now=now)
    event.refresh_from_db()
    return event


def test_without_brackets_the_last_rounds_can_lift_anyone(bracketed):
    bracketed.sections = "one"  # the two lines in one list, as brackets rank them
    got = [(r.rank, r.label, r.tally.vp) for r in event_ranking(bracketed)][:6]
    assert got == [
        (1, "North–South 3", 59),
        (1, "North–South 4", 59),
        (1, "North–South 5", 59),
        (4, "East–West 5", 40),
        (4, "North–South 1", 40),
        (6, "North–South 2", 39),
    ]


def test_the_upper_bracket_ranks_above_the_lower_one(bracketed, member_client):
    # After round 1 every North–South pair has 20: all five make the upper bracket.
    bracketed.upper_bracket, bracketed.bracket_rounds = 5, 2
    bracketed.save()
    rows = event_ranking(bracketed)
    got = [(r.rank, r.label, r.tally.vp, r.bracket) for r in rows][:7]
    assert got == [
        (1, "North–South 3", 59, "upper"),
        (1, "North–South 4", 59, "upper"),
        (1, "North–South 5", 59, "upper"),
        (4, "North–South 1", 40, "upper"),
        (5, "North–South 2", 39, "upper"),
        (6, "East–West 5", 40, "lower"),
        (7, "East–West 1", 1, "lower"),
    ]
    text = member_client.get(reverse("scoring:event_prizes", args=[bracketed.pk])).content
    text = text.decode()
    assert "Upper bracket" in text and "Lower bracket" in text
    assert text.count("1st place") == 4  # three tied in the upper bracket, one in the lower
    assert text.count("2nd place") == 4  # East–West 1–4, tied


def test_a_second_game_at_an_event_table_is_not_the_events(played):
    from members.models import Table
    from scoring.models import Game
    from scoring.play.services.errors import GameSetupError
    from scoring.play.services.games import next_game, start_game
    from scoring.play.services.hands import record_hand
    from scoring.tests.samples import LOSE, WIN
    from scoring.tourney.models import EventRound

    before = [(r.label, r.tally.vp) for r in event_ranking(played)]
    round3 = EventRound.objects.get(number=3)
    table = Table.objects.get(round_id=round3.round_id, number=1)
    game = Game.objects.get(table=table)
    teams = [list(t.players.order_by("pk")) for t in game.teams.order_by("index")]
    with pytest.raises(GameSetupError):  # the players are offered none
        next_game(game, teams, now=START)
    # An officer starts one all the same, and a hand is saved in it before time is called.
    again = start_game(table, teams, check_seating=False, now=START)
    record_hand(again, [LOSE, WIN], number=1, now=round3.started_at + dt.timedelta(minutes=10))
    assert [(r.label, r.tally.vp) for r in event_ranking(played)] == before


def test_the_command_speaks_the_clubs_language(played, club):
    club.language_code = "es"
    club.save(update_fields=["language_code"])
    text = StringIO()
    call_command("event_ranking", str(played.day_id), stdout=text)
    lines = text.getvalue().splitlines()
    assert lines.index("Norte–Sur") < lines.index("Este–Oeste")
    assert "North–South" not in lines and "East–West" not in lines
    assert "PV 59" in text.getvalue() and "victorias" in text.getvalue()


def test_every_section_and_bracket_has_its_own_words():
    from django.template import Context, Template
    from django.utils import translation

    page = Template("{% load tourney %}{% for s in names %}[{{ s|section_words }}]{% endfor %}")
    names = ["ns", "ew", "upper", "lower", ""]
    assert page.render(Context({"names": names})) == (
        "[North–South][East–West][Upper bracket][Lower bracket][]"
    )
    with translation.override("pt-br"):
        assert page.render(Context({"names": ["upper", "ew"]})) == "[Grupo superior][Leste–Oeste]"
