"""The services: the only code that writes scores."""

import pytest
from django.utils import timezone

from members.tests.factories import MemberFactory
from scoring import engine
from scoring.models import Game, GameTeam, Hand, TeamHand
from scoring.play.partnerships import club_partnerships, keeper_neighbours
from scoring.play.services.errors import GameClosed, GameSetupError, HandRefused
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import (
    HandConflict,
    StaleEdit,
    correct_hand,
    count_failed_meld,
    failed_meld_counts,
    rebuild_game,
    record_hand,
    undo_last_hand,
)
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.samples import BIG, SMALL, quick


def play_to_end(game, user=None):
    """Team 1 scores 1,400 a hand, team 2 80, until the game ends (4 hands)."""
    n = 0
    while not game.is_finished:
        n += 1
        record_hand(game, [BIG, SMALL], number=n, user=user)
    return n


def test_full_game_to_5000(game):
    hands = play_to_end(game)
    assert hands == 4  # 1,400 x 4 = 5,600 >= 5,000
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    assert game.hand_count == 4
    teams = list(game.teams.order_by("index"))
    assert game.winner_id == teams[0].pk
    assert [t.total for t in teams] == [5600, 320]
    assert teams[0].won and not teams[1].won
    assert teams[0].points_against == 320 and teams[1].points_against == 5600
    assert teams[0].hands == 4
    assert teams[0].natural_canastas == 4 and teams[0].mixed_canastas == 4
    assert teams[0].red_threes == 4 and teams[0].times_out == 4
    assert teams[0].best_hand == 1400
    # Minimums for the next hand, from the engine's table.
    rules = game.engine_rules()
    assert teams[0].minimum == engine.initial_meld_minimum(rules, 5600)
    assert teams[1].minimum == engine.initial_meld_minimum(rules, 320)
    with pytest.raises(GameClosed):
        record_hand(game, [BIG, SMALL], number=5)


def test_running_totals_and_minimums_per_hand(game):
    record_hand(game, [BIG, SMALL], number=1)
    record_hand(game, [BIG, SMALL], number=2)
    rows = list(TeamHand.objects.filter(team__index=0).order_by("hand__number"))
    assert [(r.score_before, r.score_after) for r in rows] == [(0, 1400), (1400, 2800)]
    assert [(r.minimum_before, r.minimum_next) for r in rows] == [(50, 50), (50, 90)]
    assert rows[0].breakdown["canastas"] == 800
    team = GameTeam.objects.get(game=game, index=0)
    assert team.minimum == 90
    game.refresh_from_db()
    assert game.version == 2


def test_dealer_rotates_clockwise_from_the_first_dealer(game, players):
    ann, bob, cat, dan = players
    for n in range(1, 6):
        record_hand(game, [SMALL, SMALL], number=n)
    dealers = list(
        Hand.objects.filter(game=game).order_by("number").values_list("dealer", flat=True)
    )
    # Game seats alternate teams: Ann, Bob, Cat, Dan (partners opposite).
    assert dealers == [ann.pk, bob.pk, cat.pk, dan.pk, ann.pk]


def test_refused_hand_saves_nothing(game):
    bad = quick(melded=0, natural=1)
    with pytest.raises(HandRefused) as info:
        record_hand(game, [bad, SMALL], number=1)
    assert any(e.field.startswith("teams[0]") for e in info.value.errors)
    assert Hand.objects.count() == 0
    game.refresh_from_db()
    assert game.hand_count == 0 and game.version == 0


def test_second_save_of_the_same_hand_is_a_conflict_naming_who(game, officer_user):
    record_hand(game, [BIG, SMALL], number=1, user=officer_user)
    stale_copy = Game.objects.get(pk=game.pk)
    stale_copy.hand_count = 0  # the other device still thinks hand 1 is next
    with pytest.raises(HandConflict) as info:
        record_hand(stale_copy, [SMALL, BIG], number=1, via="Table 1 link")
    assert info.value.existing_hand.number == 1
    assert "Hand 1 was already entered by Olive Officer at" in info.value.message
    assert Hand.objects.count() == 1


def test_conflict_names_the_table_link(game):
    record_hand(game, [BIG, SMALL], number=1, via="Table 1 link")
    with pytest.raises(HandConflict) as info:
        record_hand(game, [BIG, SMALL], number=1)
    assert "already entered by Table 1 link" in info.value.message


def test_hand_number_ahead_is_refused(game):
    with pytest.raises(HandConflict) as info:
        record_hand(game, [BIG, SMALL], number=3)
    assert info.value.existing_hand is None
    assert "the next is hand 1" in info.value.message
    for number in (0, -1, "1", None):
        with pytest.raises(HandConflict):
            record_hand(game, [BIG, SMALL], number=number)


def test_correction_recomputes_later_hands(game):
    for n in (1, 2, 3):
        record_hand(game, [SMALL, SMALL], number=n)
    first = Hand.objects.get(game=game, number=1)
    correct_hand(first, [BIG, SMALL], expected_version=1)
    first.refresh_from_db()
    assert first.version == 2
    after = list(
        TeamHand.objects.filter(team__index=0)
        .order_by("hand__number")
        .values_list("score_before", "score_after", "minimum_next")
    )
    assert after == [(0, 1400, 50), (1400, 1480, 50), (1480, 1560, 90)]
    assert GameTeam.objects.get(game=game, index=0).total == 1560


def test_stale_edit_is_refused(game):
    record_hand(game, [SMALL, SMALL], number=1)
    hand = Hand.objects.get(game=game, number=1)
    correct_hand(hand, [BIG, SMALL], expected_version=1)
    with pytest.raises(StaleEdit) as info:
        correct_hand(hand, [SMALL, BIG], expected_version=1)
    assert "was changed after you opened it" in info.value.message
    hand.refresh_from_db()
    assert hand.inputs[0] == BIG


def test_correction_ending_game_before_later_hands_is_refused(game):
    # 3 hands of 1,400 = 4,200: not over.
    for n in (1, 2, 3):
        record_hand(game, [BIG, SMALL], number=n)
    hand1 = Hand.objects.get(game=game, number=1)
    huge = quick(melded=1100, natural=3, mixed=1, red=4, out="out")  # 3,800: 5,200 at hand 2
    with pytest.raises(HandRefused) as info:
        correct_hand(hand1, [huge, quick(melded=50)], expected_version=1)
    assert "ends at hand 2" in info.value.message
    assert "hand 3 was played after it" in info.value.message
    hand1.refresh_from_db()
    assert hand1.version == 1 and hand1.inputs[0] == BIG


def test_correction_can_reopen_a_finished_game(game):
    play_to_end(game)
    last = Hand.objects.get(game=game, number=4)
    correct_hand(last, [SMALL, SMALL], expected_version=1)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.winner is None and game.finished_at is None
    assert not GameTeam.objects.filter(game=game, won=True).exists()


def test_undo_reopens_a_finished_game(game, officer_user):
    play_to_end(game)
    game.refresh_from_db()
    undone = undo_last_hand(game, expected_hand_count=4, user=officer_user)
    assert undone.number == 4
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.hand_count == 3
    assert GameTeam.objects.get(game=game, index=0).total == 4200
    assert not Hand.objects.filter(game=game, number=4).exists()
    record = Hand.history.filter(game_id=game.pk, number=4, history_type="-").get()
    assert record.history_user == officer_user
    # The next hand is 4 again.
    record_hand(game, [BIG, SMALL], number=4)
    game.refresh_from_db()
    assert game.is_finished


def test_undo_with_a_stale_count_changes_nothing(game):
    record_hand(game, [BIG, SMALL], number=1)
    with pytest.raises(StaleEdit):
        undo_last_hand(game, expected_hand_count=2)
    assert Hand.objects.count() == 1


def test_rebuild_restores_derived_rows(game):
    for n in (1, 2):
        record_hand(game, [BIG, SMALL], number=n)
    GameTeam.objects.filter(game=game).update(total=0, hands=0, minimum=15)
    TeamHand.objects.filter(hand__number=2).delete()
    rebuild_game(game)
    assert [t.total for t in game.teams.order_by("index")] == [2800, 160]
    assert TeamHand.objects.filter(game=game).count() == 4
    assert GameTeam.objects.get(game=game, index=0).minimum == 90


def test_saved_hands_score_the_same_as_the_contract(game):
    record_hand(game, [BIG, SMALL], number=1)
    record_hand(
        game,
        [
            {
                "melds": [{"rank": "K", "naturals": 7}, {"rank": "5", "naturals": 3}],
                "red_threes": 1,
                "went_out": "none",
                "hand_cards": {"A": 1, "4": 1},
                "penalties": [{"kind": "discard_unused"}],
            },
            quick(melded=300, natural=1, mixed=1, out="out", cut=True),
        ],
        number=2,
    )
    game.refresh_from_db()
    for hand in Hand.objects.filter(game=game).order_by("number"):
        rows = list(TeamHand.objects.filter(hand=hand).order_by("team__index"))
        result, ok = engine.score_request(
            {
                "rules": game.rules,
                "scores_before": [r.score_before for r in rows],
                "teams": hand.inputs,
            }
        )
        assert ok, result
        for row, team in zip(rows, result["teams"], strict=True):
            assert row.breakdown == team["breakdown"]
            assert row.hand_score == team["hand_score"]
            assert row.score_after == team["score_after"]
            assert row.minimum_before == team["minimum_before"]
            assert row.minimum_next == team["minimum_next"]


def test_club_partnerships(players):
    ann, bob, cat, dan = players  # clockwise; keeper Ann: left Bob, right Dan, across Cat
    assert club_partnerships(players, ann, bob) == [[ann, bob], [cat, dan]]
    assert club_partnerships(players, ann, dan) == [[ann, dan], [cat, bob]]
    assert keeper_neighbours(players, ann) == (bob, dan)
    with pytest.raises(GameSetupError):
        club_partnerships(players, ann, cat)
    with pytest.raises(GameSetupError):
        club_partnerships(players[:3], ann, bob)


def test_start_game_checks_teams_and_seating(table, players, club_rules, other_table):
    ann, bob, cat, dan = players
    with pytest.raises(GameSetupError, match="need 2 teams"):
        start_game(table, [[ann, cat]], rule_set=club_rules)
    with pytest.raises(GameSetupError, match="needs 2 players"):
        start_game(table, [[ann], [bob, dan]], rule_set=club_rules)
    with pytest.raises(GameSetupError, match="two places"):
        start_game(table, [[ann, cat], [ann, dan]], rule_set=club_rules)
    stranger = MemberFactory(first_name="Sam", last_name="Stranger", membership_number="999")
    with pytest.raises(GameSetupError, match="not seated"):
        start_game(table, [[ann, cat], [bob, stranger]], rule_set=club_rules)
    # Officers may override the seating.
    game = start_game(
        table, [[ann, cat], [bob, stranger]], rule_set=club_rules, check_seating=False
    )
    with pytest.raises(GameSetupError, match="still being played"):
        start_game(table, [[ann, cat], [bob, dan]], rule_set=club_rules)
    assert game.number == 1


def test_start_game_uses_the_day_rules_or_the_club_default(table, players, classic_rules):
    ann, bob, cat, dan = players
    game = start_game(table, [[ann, cat], [bob, dan]])
    assert game.rule_set.slug == "club"  # the club default
    assert game.rules == engine.PRESETS["club"].to_dict()
    Game.objects.filter(pk=game.pk).update(status="finished", finished_at=timezone.now())
    set_day_rules(table.round.day, classic_rules)
    second = start_game(table, [[ann, cat], [bob, dan]])
    assert second.rule_set == classic_rules and second.number == 2


def test_editing_a_rule_set_never_rescores_an_old_game(game, club_rules):
    record_hand(game, [BIG, SMALL], number=1)
    settings = dict(club_rules.settings)
    settings["natural_canasta_bonus"] = 1000
    club_rules.settings = settings
    club_rules.save()
    record_hand(game, [BIG, SMALL], number=2)
    rebuild_game(game)
    assert GameTeam.objects.get(game=game, index=0).total == 2800


def test_two_player_and_three_team_games(table, players, db):
    from scoring.models import RuleSet

    ann, bob, cat, dan = players
    two = start_game(table, [[ann], [bob]], rule_set=RuleSet.objects.get(slug="two-player"))
    record_hand(two, [BIG, SMALL], number=1)
    assert two.teams.count() == 2
    Game.objects.filter(pk=two.pk).update(status="finished", finished_at=timezone.now())
    more = [
        MemberFactory(first_name=n, last_name="More", membership_number=str(300 + i))
        for i, n in enumerate("XY")
    ]
    three = start_game(
        table,
        [[ann, cat], [bob, dan], more],
        rule_set=RuleSet.objects.get(slug="three-teams"),
        check_seating=False,
    )
    record_hand(three, [BIG, SMALL, SMALL], number=1)
    assert [t.total for t in three.teams.order_by("index")] == [1400, 80, 80]


def test_next_game_sets_new_partners(game, players):
    ann, bob, cat, dan = players
    with pytest.raises(GameSetupError, match="still being played"):
        next_game(game, [[ann, bob], [cat, dan]])
    play_to_end(game)
    teams = club_partnerships([ann, bob, cat, dan], ann, dan)
    second = next_game(game, teams)
    assert second.number == 2 and second.score_keeper == ann
    assert second.rules == game.rules
    names = [
        [m.person for m in t.memberships.order_by("seat")] for t in second.teams.order_by("index")
    ]
    assert names == [[ann, dan], [cat, bob]] or names == [[ann, dan], [bob, cat]]


def test_ratings_hooks_are_called(game, monkeypatch, django_capture_on_commit_callbacks):
    calls = []
    monkeypatch.setattr(
        "scoring.results.ratings.game_finished", lambda g: calls.append(("finished", g.pk))
    )
    monkeypatch.setattr(
        "scoring.results.ratings.game_changed", lambda g: calls.append(("changed", g.pk))
    )
    with django_capture_on_commit_callbacks(execute=True):
        play_to_end(game)
    assert calls == [("finished", game.pk)]
    hand = Hand.objects.get(game=game, number=2)
    with django_capture_on_commit_callbacks(execute=True):
        correct_hand(hand, [BIG, SMALL], expected_version=1)
    assert calls[-1] == ("changed", game.pk)


def test_record_hand_uses_a_fixed_number_of_queries(game, django_assert_max_num_queries):
    for n in range(1, 3):
        record_hand(game, [SMALL, SMALL], number=n)
    with django_assert_max_num_queries(12):
        record_hand(game, [SMALL, SMALL], number=3)


def test_failed_melds_count_for_the_hand_being_played_only(game):
    assert count_failed_meld(game, 1) == [0, 1]
    assert count_failed_meld(game, 1) == [0, 2]
    assert count_failed_meld(game, 0, step=-1) == [0, 2]  # never below 0
    assert count_failed_meld(game, 7) == [0, 2]  # no such team: nothing changes
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 2]
    record_hand(game, [SMALL, SMALL], number=1)
    assert failed_meld_counts(game) == [0, 0]
    game.refresh_from_db()
    # Nothing counts for hand 2; hand 1 keeps its counts (the workbook's Hands sheet).
    assert game.failed_melds == {"saved": {"1": [0, 2]}}


def test_failed_melds_refused_once_the_game_is_over(game):
    number = 0
    while not game.is_finished:
        number += 1
        record_hand(game, [BIG, SMALL], number=number)
    with pytest.raises(GameClosed):
        count_failed_meld(game, 0)
