"""The table page of each variant (issue 25): only the boxes its game has, its kinds of
canasta on the pad, card by card with wild melds, sequences and a second meld of a rank,
special hands and unfinished melds under "More", and a day that plays classic at one
table and Hand and Foot at another."""

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Game, Hand, RuleSet, TeamHand
from scoring.play.forms import HandEntry, hand_form_data
from scoring.play.services.games import start_game

pytestmark = pytest.mark.django_db


def _start(table, players, slug):
    ann, bob, cat, dan = players
    return start_game(
        table,
        [[ann, cat], [bob, dan]],
        rule_set=RuleSet.objects.get(slug=slug),
        score_keeper=ann,
        first_dealer=ann,
        now=timezone.now(),
    )


def _pad(html: str) -> str:
    return html[html.index('<div class="pad ') : html.index('<details class="more-items"')]


def _save(client, game, teams, number):
    url = reverse("scoring:hand_new", args=[game.pk])
    return client.post(url, hand_form_data(teams, number))


def test_the_classic_pad_has_no_variant_boxes(link_client, game):
    html = link_client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    pad = _pad(html)
    assert "Natural canastas" in pad and "Sambas" not in pad
    assert "special hand" not in html.lower() and "Unfinished" not in html
    assert "t0-canasta_" not in html and "t0-seq1" not in html


def test_the_samba_pad_has_a_samba_row(link_client, table, players):
    game = _start(table, players, "samba")
    pad = _pad(link_client.get(reverse("scoring:table", args=[table.pk])).content.decode())
    assert pad.index("Mixed canastas") < pad.index("Sambas") < pad.index("Points left in hand")
    hand = {"melded_points": 300, "canastas": {"natural": 1, "sequence": 1}, "went_out": "out"}
    response = _save(link_client, game, [hand, {"melded_points": 60}], 1)
    assert response.status_code == 302
    saved = TeamHand.objects.get(hand__game=game, team__index=0)
    assert saved.canastas_by_kind == {"natural": 1, "sequence": 1}
    assert saved.hand_score == 300 + 500 + 1500 + 200
    assert Hand.objects.get(game=game).inputs[0]["canastas"] == {"sequence": 1}


def test_a_samba_card_by_card_with_a_sequence_and_two_melds_of_kings(link_client, table, players):
    game = _start(table, players, "samba")
    melds = [
        {"rank": "K", "naturals": 7},
        {"rank": "K", "naturals": 5, "twos": 2},
        {"sequence": ["4", "5", "6", "7", "8", "9", "10"]},
    ]
    team = {"melds": melds, "hand_cards": {"A": 1}, "went_out": "none"}
    response = _save(link_client, game, [team, {"melded_points": 60}], 1)
    assert response.status_code == 302, response.content.decode()[:2000]
    saved = TeamHand.objects.get(hand__game=game, team__index=0)
    assert saved.canastas_by_kind == {"natural": 1, "mixed": 1, "sequence": 1}
    assert saved.melded_points == 70 + 50 + 40 + 50
    # The saved hand opens again with the same boxes.
    entry = HandEntry(game.engine_rules(), list(game.teams.order_by("index")), inputs=[team, {}])
    initial = entry.teams[0].initial
    assert initial["extra1_rank"] == "K" and initial["extra1_twos"] == 2
    assert (initial["seq1_from"], initial["seq1_cards"]) == ("4", 7)


def test_a_sequence_with_a_gap_is_said_on_its_row(link_client, table, players):
    game = _start(table, players, "bolivia")
    data = hand_form_data([{"melds": [{"rank": "K", "naturals": 4}]}, {}], 1)
    data |= {"t0-seq1_from": "J", "t0-seq1_cards": "5"}  # J Q K A and past the ace
    html = link_client.post(reverse("scoring:hand_new", args=[game.pk]), data).content.decode()
    assert "The hand was not saved." in html
    assert 'href="#id_t0-seq1_from"' in html and "4 up to A" in html


def test_modern_american_boxes_and_a_special_hand(link_client, table, players):
    game = _start(table, players, "modern-american")
    html = link_client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    pad = _pad(html)
    for label in ("Canastas of sevens", "Canastas of aces"):
        assert label in pad
    assert "Wild canastas" not in pad  # three kinds of them: under More
    more = html[html.index('<details class="more-items"') :]
    assert "Wild canastas of twos" in more and "Unfinished canastas of sevens" in more
    assert "Wild canastas with four jokers" in more and "Wild canastas</label>" in more
    assert "Went out with a special hand" in more and "Straight (3,000)" in more
    assert "Held three or more sevens" in more
    special = {"special_hand": "straight", "went_out": "out"}
    other = {"melded_points": 120, "unfinished": {"sevens": 1}, "hand_points": 30}
    assert _save(link_client, game, [special, other], 1).status_code == 302
    first, second = TeamHand.objects.filter(hand__game=game).order_by("team__index")
    assert first.hand_score == 3000
    assert second.hand_score == 120 - 2500 - 30


def test_modern_american_sevens_take_no_wild_cards_card_by_card(link_client, table, players):
    game = _start(table, players, "modern-american")
    form = HandEntry(game.engine_rules(), list(game.teams.order_by("index"))).teams[0]
    assert "meld_7_naturals" in form.fields and "meld_7_jokers" not in form.fields
    assert "meld_wild_jokers" in form.fields and "seq1_from" not in form.fields


def test_hand_and_foot_pad_and_its_end_after_four_hands(link_client, table, players):
    game = _start(table, players, "hand-and-foot")
    html = link_client.get(reverse("scoring:table", args=[table.pk])).content.decode()
    assert "Perfect cut (+100)" in html and "Black threes" not in html
    books = {"melded_points": 400, "canastas": {"natural": 2, "mixed": 2}, "went_out": "out"}
    for number in range(1, 5):
        other = {"melded_points": 50 * number + 50, "hand_points": 40}
        assert _save(link_client, game, [books, other], number).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.index == 0
    # Hand 4's minimum was 150: team 2's 250 melded points hold it.
    team = game.teams.get(index=1)
    assert team.total == sum(50 * n + 50 - 40 for n in range(1, 5))


def test_hand_and_foot_minimum_follows_the_round(link_client, table, players):
    game = _start(table, players, "hand-and-foot")
    books = {"melded_points": 400, "canastas": {"natural": 2, "mixed": 2}, "went_out": "out"}
    assert _save(link_client, game, [books, {"melded_points": 60}], 1).status_code == 302
    html = _save(link_client, game, [books, {"melded_points": 60}], 2).content.decode()
    assert "at least 90" in html and "hand 2" in html


def test_a_day_plays_classic_at_one_table_and_hand_and_foot_at_another(
    link_client, table, other_table, players, club_rules
):
    classic = _start(table, players, "club")
    people = [s.person for s in other_table.seats.order_by("position")]
    feet = start_game(
        other_table,
        [[people[0], people[2]], [people[1], people[3]]],
        rule_set=RuleSet.objects.get(slug="hand-and-foot"),
        now=timezone.now(),
    )
    assert classic.engine_rules().name == "club" and feet.engine_rules().hands_in_game == 4
    pad = _pad(link_client.get(reverse("scoring:table", args=[table.pk])).content.decode())
    assert "Natural canastas" in pad
