"""The other team's OK of a hand, through the services: when it is asked for, who may
give it, double taps, disputes, corrections and officers' settlements, the history."""

import pytest

from members.models import Seat
from members.permissions import make_officer
from members.tests.factories import MemberFactory
from scoring.models import HandConfirmation, RuleSet
from scoring.play.history import hand_history
from scoring.play.services.confirmations import (
    ConfirmRefused,
    confirm_hand,
    dispute_hand,
    settle_hand,
    unconfirmed_days_between,
    unconfirmed_hand_counts,
)
from scoring.play.services.games import start_game
from scoring.play.services.hands import correct_hand, record_hand, undo_last_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.play.services.who_confirms import confirmation_required
from scoring.tests.samples import BIG, SMALL

Status = HandConfirmation.Status


@pytest.fixture
def confirming(day, club_rules):
    """Today's day asks for the other team's OK."""
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.fixture
def officer(django_user_model):
    user = django_user_model.objects.create_user("olive", first_name="Olive", last_name="Officer")
    make_officer(user)
    return user


def saved(game, number=1):
    return record_hand(game, [BIG, SMALL], number=number)


def test_off_in_every_preset_and_no_confirmation_is_opened(game):
    assert RuleSet.objects.presets().exists()
    assert not RuleSet.objects.presets().filter(confirm_hands=True).exists()
    hand = saved(game)
    assert not HandConfirmation.objects.filter(hand=hand).exists()
    assert unconfirmed_hand_counts([game.day_id]) == {}


def test_the_rule_set_turns_it_on_and_the_day_value_wins(game, day, club_rules):
    club_rules.confirm_hands = True
    club_rules.save()
    assert confirmation_required(game)  # the game's rule set; the day says nothing
    set_day_rules(day, club_rules, confirm_hands=False)
    assert not confirmation_required(game)
    club_rules.confirm_hands = False
    club_rules.save()
    set_day_rules(day, club_rules, confirm_hands=True)
    assert confirmation_required(game)
    set_day_rules(day, club_rules, confirm_hands=None)
    assert not confirmation_required(game)


def test_a_saved_hand_waits_and_a_player_of_the_other_team_confirms(confirming, game, players):
    ann, bob, cat, dan = players
    hand = saved(game)
    waiting = hand.confirmation
    assert waiting.status == Status.WAITING
    assert waiting.keeper_team.index == 0  # Ann keeps the score, for team 1
    # The next hand can be entered while hand 1 waits.
    saved(game, 2)
    result, changed = confirm_hand(hand, bob, expected_version=1, via="Table 1 link")
    assert changed and result.status == Status.CONFIRMED and result.person == bob
    assert result.via == "Table 1 link"
    assert unconfirmed_hand_counts([game.day_id]) == {game.day_id: 1}  # hand 2 still waits


@pytest.mark.parametrize("who", ["cat", "stranger", "nobody"])
def test_only_a_player_of_the_other_team_may_confirm_or_dispute(confirming, game, players, who):
    ann, bob, cat, dan = players
    person = {"cat": cat, "stranger": MemberFactory(), "nobody": None}[who]
    hand = saved(game)
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        confirm_hand(hand, person, expected_version=1)
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        dispute_hand(hand, person, expected_version=1)
    assert HandConfirmation.objects.get(hand=hand).status == Status.WAITING


def test_a_logged_in_player_who_saves_makes_their_team_the_keepers(
    confirming, game, players, django_user_model
):
    ann, bob, cat, dan = players
    bob.user = django_user_model.objects.create_user("bob")
    bob.save()
    hand = record_hand(game, [BIG, SMALL], number=1, user=bob.user)
    assert hand.confirmation.keeper_team.index == 1
    with pytest.raises(ConfirmRefused):
        confirm_hand(hand, dan, expected_version=1)
    assert confirm_hand(hand, cat, expected_version=1)[1]


def test_without_a_score_keeper_nobody_may_confirm_until_one_is_named(
    confirming, table, players, club_rules
):
    """Nobody in particular keeps the score and the hand came from the table's link:
    nobody can tell which team entered it, so neither team may OK it (that let the team
    that entered it confirm its own numbers) until the table names its score keeper."""
    ann, bob, cat, dan = players
    game = start_game(table, [[ann, cat], [bob, dan]], rule_set=club_rules)
    hand = saved(game)
    assert hand.confirmation.keeper_team is None
    for person in players:
        with pytest.raises(ConfirmRefused, match="Who keeps the score"):
            confirm_hand(hand, person, expected_version=1)
        with pytest.raises(ConfirmRefused, match="Who keeps the score"):
            dispute_hand(hand, person, expected_version=1)
    assert HandConfirmation.objects.get(hand=hand).status == Status.WAITING


def test_a_double_tap_counts_once(confirming, game, players):
    bob, dan = players[1], players[3]
    hand = saved(game)
    confirm_hand(hand, bob, expected_version=1)
    records = HandConfirmation.history.count()
    result, changed = confirm_hand(hand, bob, expected_version=1)
    assert not changed and result.person == bob
    # Another player of the same team tapping later changes nothing either.
    result, changed = confirm_hand(hand, dan, expected_version=1)
    assert not changed and result.person == bob
    assert HandConfirmation.history.count() == records


def test_a_confirmation_of_numbers_since_corrected_is_refused(confirming, game, players):
    bob = players[1]
    hand = saved(game)
    correct_hand(hand, [SMALL, BIG], expected_version=1)
    with pytest.raises(ConfirmRefused, match="corrected after this page was drawn"):
        confirm_hand(hand, bob, expected_version=1)
    assert confirm_hand(hand, bob, expected_version=2)[0].hand_version == 2


def test_a_correction_puts_a_confirmed_hand_back_to_waiting(confirming, game, players):
    bob = players[1]
    hand = saved(game)
    confirm_hand(hand, bob, expected_version=1)
    correct_hand(hand, [SMALL, BIG], expected_version=1, via="Table 1 link")
    back = HandConfirmation.objects.get(hand=hand)
    assert back.status == Status.WAITING and back.person is None and back.hand_version == 2


def test_an_officers_correction_settles_the_hand(confirming, game, players, officer):
    hand = saved(game)
    dispute_hand(hand, players[1], reason="We had two red threes", expected_version=1)
    correct_hand(hand, [SMALL, BIG], expected_version=1, user=officer)
    settled = HandConfirmation.objects.get(hand=hand)
    assert settled.status == Status.SETTLED and settled.officer == officer
    assert settled.who == "Olive Officer"


def test_a_dispute_is_settled_by_an_officer_only(confirming, game, players, officer):
    ann, bob, cat, dan = players
    hand = saved(game)
    result, changed = dispute_hand(hand, dan, reason="  Wrong   melds ", expected_version=1)
    assert changed and result.status == Status.DISPUTED and result.reason == "Wrong melds"
    assert not dispute_hand(hand, dan, expected_version=1)[1]  # twice counts once
    with pytest.raises(ConfirmRefused, match="disputed by Dan Dunn"):
        confirm_hand(hand, bob, expected_version=1)
    with pytest.raises(ConfirmRefused, match="Only an officer"):
        settle_hand(hand, officer=None, expected_version=1)
    result, changed = settle_hand(hand, officer=officer, expected_version=1)
    assert changed and result.status == Status.SETTLED and result.officer == officer
    assert result.person == dan and result.reason == "Wrong melds"  # kept for the record
    assert not settle_hand(hand, officer=officer, expected_version=1)[1]
    assert unconfirmed_hand_counts([game.day_id]) == {}


def test_a_confirmed_hand_cannot_be_disputed(confirming, game, players):
    hand = saved(game)
    confirm_hand(hand, players[1], expected_version=1)
    with pytest.raises(ConfirmRefused, match="confirmed by Bob Baker"):
        dispute_hand(hand, players[3], expected_version=1)


def test_a_hand_saved_while_it_was_off_needs_nothing(game, players, day, club_rules):
    hand = saved(game)
    set_day_rules(day, club_rules, confirm_hands=True)
    with pytest.raises(ConfirmRefused, match="does not need"):
        confirm_hand(hand, players[1], expected_version=1)


def test_undo_removes_the_waiting_hand(confirming, game):
    saved(game)
    undo_last_hand(game, expected_hand_count=1)
    assert unconfirmed_hand_counts([game.day_id]) == {}


def test_counts_per_day_for_the_workbook(confirming, game, players, other_table, club_rules):
    seats = Seat.objects.filter(table=other_table).select_related("person").order_by("position")
    e, f, g, h = (seat.person for seat in seats)
    other = start_game(other_table, [[e, g], [f, h]], rule_set=club_rules, score_keeper=e)
    for number in (1, 2):
        saved(game, number)
    third = saved(other)
    dispute_hand(third, f, expected_version=1)
    assert unconfirmed_hand_counts([game.day_id, 999_999]) == {game.day_id: 3}
    assert unconfirmed_days_between(confirming.date, confirming.date) == [(confirming, 3)]
    assert unconfirmed_days_between(None, confirming.date.replace(year=2000)) == []


def test_the_history_says_who_did_each(confirming, game, players, officer):
    ann, bob, cat, dan = players
    first, second = saved(game), saved(game, 2)
    confirm_hand(first, bob, expected_version=1, via="Table 1 link")
    dispute_hand(second, dan, reason="Count again", expected_version=1)
    settle_hand(second, officer=officer, expected_version=1)
    lines = [(e.number, e.action_words, e.who, e.changes) for e in hand_history(game, [])]
    assert (1, "confirmed", "Bob Baker (Table 1 link)", []) in lines
    assert (2, "disputed", "Dan Dunn", ["Why: Count again"]) in lines
    assert (2, "settled", "Olive Officer", []) in lines
    assert lines[0][1] == "settled"  # newest first
