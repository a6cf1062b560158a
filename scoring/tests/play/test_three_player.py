"""Tables of three (and two) on a club day of four-player rules: the game plays the
day's rules for that many players, everyone alone, from the start form to the next game.
"""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.tests.factories import MemberFactory, SignInFactory, TableFactory
from scoring.models import Game, Hand
from scoring.play.services.errors import GameSetupError
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import record_hand
from scoring.tests.samples import LOSE, SMALL, WIN

from .conftest import quick_post


@pytest.fixture
def trio(db):
    names = [("Eve", "Earl"), ("Fay", "Fox"), ("Gus", "Gray")]
    return [
        MemberFactory(first_name=first, last_name=last, membership_number=str(301 + i))
        for i, (first, last) in enumerate(names)
    ]


@pytest.fixture
def table3(round1, trio):
    table = TableFactory(round=round1, number=3, seated=trio)
    for person in trio:
        SignInFactory(day=round1.day, person=person, card_shown=False)
    return table


@pytest.fixture
def trio_client(table3):
    client = Client()
    assert client.get(f"/t/{table3.token}/").status_code == 302
    return client


def _start(table3, trio, club_rules, **kw):
    return start_game(table3, [[p] for p in trio], rule_set=club_rules, now=timezone.now(), **kw)


def test_a_table_of_three_plays_the_days_rules_for_three(table3, trio, club_rules):
    game = _start(table3, trio, club_rules)
    rules = game.engine_rules()
    day_rules = club_rules.as_engine()
    assert (rules.players, rules.teams, rules.players_per_team) == (3, 3, 1)
    assert rules.cards_dealt == 13
    # The house settings are carried over.
    assert rules.canastas_to_go_out == day_rules.canastas_to_go_out == 2
    assert rules.wilds_may_not_outnumber_naturals and rules.perfect_cut_enabled
    assert game.rules_name == "Club house rules (three players)"
    assert game.rule_set == club_rules
    assert [t.memberships.get().person for t in game.teams.order_by("index")] == trio


def test_a_table_of_three_on_a_classic_day_needs_two_canastas(
    table3, trio, classic_rules, trio_client
):
    """Classic goes out with one canasta; a table of three plays alone and needs two,
    as every three-player game: the start page says so, and the table refuses one."""
    from scoring.play.services.rulesets import set_day_rules

    set_day_rules(table3.round.day, classic_rules)
    page = trio_client.get(reverse("scoring:game_start", args=[table3.pk])).content.decode()
    assert "Classic canasta (three players)" in page
    assert "needs 2 canastas to go out" in page
    game = _start(table3, trio, classic_rules)
    assert game.engine_rules().canastas_to_go_out == 2
    one = {"melded_points": 300, "natural_canastas": 1, "went_out": "out"}
    url = reverse("scoring:hand_new", args=[game.pk])
    html = trio_client.post(url, quick_post([one, SMALL, SMALL], 1)).content.decode()
    assert "Player 1 went out but has only 1 canasta; 2 are needed" in html
    assert not Hand.objects.filter(game=game).exists()


def test_a_table_of_two_plays_the_days_rules_for_two(round1, club_rules):
    pair = [MemberFactory(), MemberFactory()]
    table = TableFactory(round=round1, number=4, seated=pair)
    game = start_game(table, [[p] for p in pair], rule_set=club_rules)
    assert game.rules_name == "Club house rules (two players)"
    assert game.engine_rules().cards_dealt == 15


def test_a_partnership_at_a_table_of_three_is_refused(table3, trio, club_rules):
    eve, fay, gus = trio
    with pytest.raises(GameSetupError, match="Team 2 needs 2 players"):
        start_game(table3, [[eve, fay], [gus]], rule_set=club_rules)
    assert not Game.objects.exists()


def test_the_deal_goes_round_three_players(table3, trio, club_rules):
    eve, fay, gus = trio
    game = _start(table3, trio, club_rules, first_dealer=fay)
    for n in range(1, 5):
        record_hand(game, [SMALL, SMALL, SMALL], number=n)
    hands = Hand.objects.filter(game=game).order_by("number")
    dealers = list(hands.values_list("dealer_id", flat=True))
    assert dealers == [fay.pk, gus.pk, eve.pk, fay.pk]


def test_start_form_at_a_table_of_three(trio_client, table3, trio, club_rules):
    before = trio_client.get(reverse("scoring:table", args=[table3.pk])).content.decode()
    assert "Plays Club house rules (three players)" in before
    assert "Choose the players, the score keeper" in before
    url = reverse("scoring:game_start", args=[table3.pk])
    page = trio_client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Club house rules (three players)" in html
    assert "3 players, each alone" in html
    assert "Everyone plays alone." in html
    form = page.context["form"]
    assert [form[f"team{i}_player0"].value() for i in range(3)] == [str(p.pk) for p in trio]
    assert "team0_player1" not in form.fields
    eve, fay, gus = trio
    data = {f"team{i}_player0": p.pk for i, p in enumerate(trio)}
    response = trio_client.post(url, {**data, "score_keeper": eve.pk, "first_dealer": gus.pk})
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.rules_name == "Club house rules (three players)"
    assert game.first_dealer == gus and game.score_keeper == eve


def test_three_sides_score_a_hand_from_the_table_page(trio_client, table3, trio, club_rules):
    game = _start(table3, trio, club_rules)
    page = trio_client.get(reverse("scoring:table", args=[table3.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Player 3" in html
    assert "partners" not in html
    detail = trio_client.get(reverse("scoring:hand_detail", args=[game.pk, 2]))
    assert detail.status_code == 200
    assert "Cards left in the player's hand" in detail.content.decode()
    preview = trio_client.post(
        reverse("scoring:hand_preview", args=[game.pk]),
        quick_post([WIN, LOSE, LOSE], 1),
        HTTP_HX_REQUEST="true",
    )
    assert preview.status_code == 200
    assert "Total 0 → 1,900" in preview.content.decode()
    assert preview.content.decode().count("Total 0 → 150") == 2
    url = reverse("scoring:hand_new", args=[game.pk])
    response = trio_client.post(url, quick_post([WIN, LOSE, LOSE], 1))
    assert response.status_code == 302
    game.refresh_from_db()
    totals = list(game.teams.order_by("index").values_list("total", flat=True))
    assert totals == [1900, 150, 150]


def _finish(game):
    for n in range(1, 4):
        record_hand(game, [WIN, LOSE, LOSE], number=n)
    game.refresh_from_db()
    assert game.is_finished
    return game


def test_next_game_keeps_everyone_alone_and_the_deal_moves_on(table3, trio, club_rules):
    eve, fay, gus = trio
    first = _finish(_start(table3, trio, club_rules, first_dealer=eve, score_keeper=eve))
    # Three hands dealt by Eve, Fay, Gus: Eve would deal the fourth.
    second = next_game(first, [[p] for p in trio])
    assert second.first_dealer == eve
    assert second.rules_name == "Club house rules (three players)"
    assert second.score_keeper == eve
    _finish(second)
    third = next_game(second, [[fay], [gus], [eve]])
    assert third.first_dealer == eve  # who deals next in game 2's order


def test_next_game_page_at_a_table_of_three(trio_client, table3, trio, club_rules):
    eve, fay, gus = trio
    first = _start(table3, trio, club_rules, first_dealer=fay, score_keeper=eve)
    record_hand(first, [WIN, LOSE, LOSE], number=1)
    record_hand(first, [WIN, LOSE, LOSE], number=2)
    record_hand(first, [WIN, LOSE, LOSE], number=3)
    url = reverse("scoring:next_game", args=[first.pk])
    page = trio_client.get(url)
    html = page.content.decode()
    assert "Everyone plays alone again" in html
    assert "Fay Fox</strong> deals first" in html  # Fay, Gus, Eve dealt: Fay again
    assert page.context["draw_form"] is None
    form = page.context["choose_form"]
    data = {name: form[name].value() for name in form.fields}
    response = trio_client.post(url, {**data, "method": "choose"})
    assert response.status_code == 302
    second = Game.objects.get(number=2)
    assert second.first_dealer == fay
    assert second.teams.count() == 3


def test_a_three_player_hand_is_corrected_with_its_history(
    officer_client, table3, trio, club_rules
):
    game = _start(table3, trio, club_rules)
    record_hand(game, [WIN, LOSE, LOSE], number=1)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    assert officer_client.get(url).status_code == 200
    response = officer_client.post(url, quick_post([LOSE, WIN, LOSE], 1, version=1))
    assert response.status_code == 302
    assert list(game.teams.order_by("index").values_list("total", flat=True)) == [150, 1900, 150]
    html = officer_client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Hand 1 corrected</strong> by Olive Officer" in html
    assert "Player 2 (Fay Fox)" in html
