"""The other team's OK cannot be given by the team that entered the hand: when nobody
was named score keeper, the table names one (once, with its history), and only the
other side's players -- at a table of three, the two who did not enter the hand -- may
confirm. The server refuses the rest, whatever the page offered."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from members.permissions import make_officer
from members.tests.factories import MemberFactory, SignInFactory, TableFactory
from scoring.models import HandConfirmation, KeeperChange
from scoring.play.services.confirmations import ConfirmRefused, confirm_hand, name_score_keeper
from scoring.play.services.games import start_game
from scoring.play.services.hands import correct_hand, record_hand
from scoring.play.services.rulesets import set_day_rules
from scoring.tests.samples import BIG, LOSE, SMALL, WIN

Status = HandConfirmation.Status


@pytest.fixture
def confirming(day, club_rules):
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.fixture
def unkept(confirming, table, players, club_rules):
    """A game started with "Score keeper: nobody in particular"."""
    ann, bob, cat, dan = players
    return start_game(table, [[ann, cat], [bob, dan]], rule_set=club_rules)


@pytest.fixture
def trio(db):
    return [
        MemberFactory(first_name=first, last_name=last, membership_number=str(301 + i))
        for i, (first, last) in enumerate([("Eve", "Earl"), ("Fay", "Fox"), ("Gus", "Gray")])
    ]


@pytest.fixture
def game3(confirming, round1, trio, club_rules):
    table = TableFactory(round=round1, number=3, seated=trio)
    for person in trio:
        SignInFactory(day=round1.day, person=person, card_shown=False)
    return start_game(table, [[p] for p in trio], rule_set=club_rules, now=timezone.now())


@pytest.fixture
def officer(django_user_model):
    user = django_user_model.objects.create_user("olive", first_name="Olive", last_name="Officer")
    make_officer(user)
    return user


def test_naming_the_keeper_lets_only_the_other_team_confirm_the_waiting_hands(unkept, players):
    ann, bob, cat, dan = players
    first = record_hand(unkept, [BIG, SMALL], number=1)
    second = record_hand(unkept, [SMALL, BIG], number=2)
    game, changed = name_score_keeper(unkept, cat, via="Table 1 link")
    assert changed and game.score_keeper == cat
    # The hands that waited with no known side were entered by Cat's side (team 1)...
    for hand in (first, second):
        assert HandConfirmation.objects.get(hand=hand).keeper_team.index == 0
    # ... so Ann and Cat may not OK them; Bob and Dan may.
    for own in (ann, cat):
        with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
            confirm_hand(first, own, expected_version=1)
    assert confirm_hand(first, bob, expected_version=1)[1]
    # Hands saved afterwards know their side straight away.
    third = record_hand(unkept, [BIG, SMALL], number=3)
    assert third.confirmation.keeper_team.index == 0


def test_naming_is_kept_in_history_and_asked_once(unkept, players, officer):
    ann, bob, cat, dan = players
    name_score_keeper(unkept, ann, via="Table 1 link")
    # A second tap on the same name changes nothing and records nothing more.
    assert name_score_keeper(unkept, ann, via="Table 1 link")[1] is False
    # Once named, the table cannot swap the keeper (the other team could name itself).
    with pytest.raises(ConfirmRefused, match="Ann Able already keeps the score"):
        name_score_keeper(unkept, bob, via="Table 1 link")
    # An officer can.
    assert name_score_keeper(unkept, bob, user=officer)[1]
    changes = list(KeeperChange.objects.filter(game=unkept))
    assert [(c.person, c.via, c.named_by) for c in changes] == [
        (ann, "Table 1 link", None),
        (bob, "", officer),
    ]


def test_the_keeper_must_play_in_the_game(unkept):
    with pytest.raises(ConfirmRefused, match="Choose the score keeper from the players"):
        name_score_keeper(unkept, MemberFactory())
    with pytest.raises(ConfirmRefused, match="Choose the score keeper from the players"):
        name_score_keeper(unkept, None)
    unkept.refresh_from_db()
    assert unkept.score_keeper is None and not KeeperChange.objects.exists()


def test_at_a_table_of_three_the_two_who_did_not_enter_the_hand_confirm(game3, trio):
    eve, fay, gus = trio
    hand = record_hand(game3, [WIN, LOSE, LOSE], number=1)
    assert hand.confirmation.keeper_team is None
    with pytest.raises(ConfirmRefused, match="Who keeps the score"):
        confirm_hand(hand, eve, expected_version=1)
    name_score_keeper(game3, fay)
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        confirm_hand(hand, fay, expected_version=1)
    assert confirm_hand(hand, gus, expected_version=1)[0].person == gus


# ---------------------------------------------------------------------------------------
# Through the table page


@pytest.fixture
def link(table):
    client = Client()
    assert client.get(f"/t/{table.token}/").status_code == 302
    return client


def table_page(client, game) -> str:
    return client.get(reverse("scoring:table", args=[game.table_id])).content.decode()


def test_the_table_asks_who_keeps_the_score_and_then_offers_only_the_other_team(
    link, unkept, players
):
    ann, bob, cat, dan = players
    record_hand(unkept, [BIG, SMALL], number=1)
    page = table_page(link, unkept)
    # Not "Ann Able: it is right" for everyone: first, who keeps the score.
    assert "Who keeps the score?" in page
    assert ": it is right" not in page
    assert "Hand 1 waits for an OK" in page
    url = reverse("scoring:game_keeper", args=[unkept.pk])
    response = link.post(url, {"person": str(ann.pk)})
    assert response.status_code == 302
    page = link.get(response["Location"], follow=True).content.decode()
    assert "Ann Able keeps the score: the other team confirms the hands." in page
    assert "Who keeps the score?" not in page  # asked once
    assert "Hand 1 waits for Team 2&#x27;s OK" in page
    assert "Bob Baker: it is right" in page and "Dan Dunn: it is right" in page
    assert "Ann Able: it is right" not in page and "Cat Cole: it is right" not in page
    assert KeeperChange.objects.get(game=unkept).via == "Table 1 link"


def test_the_server_refuses_the_entering_team_whatever_the_page_sent(link, unkept, players):
    ann, bob, cat, dan = players
    hand = record_hand(unkept, [BIG, SMALL], number=1)
    url = reverse("scoring:hand_confirm", args=[unkept.pk, 1])
    data = {"action": "confirm", "person": str(cat.pk), "version": "1"}
    page = link.post(url, data, follow=True).content.decode()
    assert "Who keeps the score?" in page
    assert HandConfirmation.objects.get(hand=hand).status == Status.WAITING
    link.post(reverse("scoring:game_keeper", args=[unkept.pk]), {"person": str(ann.pk)})
    page = link.post(url, data, follow=True).content.decode()
    assert "Only a player of the other team can confirm" in page
    assert HandConfirmation.objects.get(hand=hand).status == Status.WAITING


def test_a_bad_keeper_choice_is_refused_in_plain_words(link, unkept):
    url = reverse("scoring:game_keeper", args=[unkept.pk])
    for value in ("", "abc", str(MemberFactory().pk)):
        page = link.post(url, {"person": value}, follow=True).content.decode()
        assert "Choose the score keeper from the players of this game." in page
    assert link.get(url).status_code == 302


def test_many_waiting_hands_are_one_line_that_opens_the_list(link, game, players):
    """The panel is one summary line above the pad whatever the number of hands."""
    set_day_rules(game.day, game.rule_set, confirm_hands=True)
    for n in range(1, 4):
        record_hand(game, [BIG, SMALL], number=n)
    page = table_page(link, game)
    panel = page[page.index('id="confirm"') : page.index("</section>", page.index('id="confirm"'))]
    assert '<details class="confirm-open">' in panel  # closed until tapped
    assert "3 hands wait for Team 2&#x27;s OK</summary>" in panel
    assert "<h2" not in panel
    assert panel.count('class="confirm-hand"') == 3


def test_a_table_of_three_is_offered_the_two_who_did_not_enter_it(game3, trio):
    eve, fay, gus = trio
    game3.score_keeper = eve
    game3.save()
    record_hand(game3, [WIN, LOSE, LOSE], number=1)
    client = Client()
    assert client.get(f"/t/{game3.table.token}/").status_code == 302
    page = table_page(client, game3)
    assert "Eve Earl: it is right" not in page
    assert "Fay Fox: it is right" in page and "Gus Gray: it is right" in page


# ---------------------------------------------------------------------------------------
# The keeper rule, for corrections and for a keeper named again: the side that entered a
# hand or its latest correction never confirms it.


@pytest.fixture
def bob_user(players, django_user_model):
    """Bob (team 2) with a login of his own, scoring from his phone."""
    user = django_user_model.objects.create_user("bob", first_name="Bob", last_name="Baker")
    bob = players[1]
    bob.user = user
    bob.save()
    return user


def _side(hand) -> int | None:
    keeper_team = HandConfirmation.objects.get(hand=hand).keeper_team
    return None if keeper_team is None else keeper_team.index


def test_a_correction_through_the_link_is_the_keepers_side_not_the_first_enterers(
    game, players, bob_user
):
    """Bob (logged in) enters hand 1; the table's link (Ann keeps the score) corrects it:
    Ann's side entered the correction, so Bob's side confirms it and Ann's may not."""
    ann, bob, cat, dan = players
    set_day_rules(game.day, game.rule_set, confirm_hands=True)
    hand = record_hand(game, [BIG, SMALL], number=1, user=bob_user)
    assert _side(hand) == 1
    correct_hand(hand, [SMALL, BIG], expected_version=1, via="Table 1 link")
    assert _side(hand) == 0
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        confirm_hand(hand, cat, expected_version=2)
    assert confirm_hand(hand, dan, expected_version=2)[0].person == dan


def test_a_correction_by_a_logged_in_player_is_that_players_side(game, players, bob_user):
    ann, bob, cat, dan = players
    set_day_rules(game.day, game.rule_set, confirm_hands=True)
    hand = record_hand(game, [BIG, SMALL], number=1, via="Table 1 link")
    assert _side(hand) == 0  # Ann keeps the score
    correct_hand(hand, [SMALL, BIG], expected_version=1, user=bob_user)
    assert _side(hand) == 1
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        confirm_hand(hand, bob, expected_version=2)
    assert confirm_hand(hand, ann, expected_version=2)[1]


def test_a_link_correction_with_no_keeper_asks_again_who_keeps_the_score(unkept, players, bob_user):
    """Nobody keeps the score and Bob's own phone entered the hand: a correction from the
    table's link is by a side nobody knows yet, so nobody confirms it (not Ann's side on
    the strength of Bob's first entry) until the table names its keeper."""
    ann, bob, cat, dan = players
    hand = record_hand(unkept, [BIG, SMALL], number=1, user=bob_user)
    assert _side(hand) == 1
    correct_hand(hand, [SMALL, BIG], expected_version=1, via="Table 1 link")
    assert _side(hand) is None
    with pytest.raises(ConfirmRefused, match="Who keeps the score"):
        confirm_hand(hand, ann, expected_version=2)
    name_score_keeper(unkept, cat, via="Table 1 link")
    assert _side(hand) == 0
    assert confirm_hand(hand, bob, expected_version=2)[1]


def test_an_officer_naming_another_keeper_moves_the_hands_the_link_saved(
    game, players, bob_user, officer
):
    """Ann was named keeper by mistake; an officer names Dan. The waiting hands the
    table's link saved were Dan's side's, so Ann's side now confirms them; a hand Bob
    saved logged in stays his side's. The first naming does not decide for good."""
    ann, bob, cat, dan = players
    set_day_rules(game.day, game.rule_set, confirm_hands=True)
    by_link = record_hand(game, [BIG, SMALL], number=1, via="Table 1 link")
    by_bob = record_hand(game, [SMALL, BIG], number=2, user=bob_user)
    corrected = record_hand(game, [BIG, SMALL], number=3, user=bob_user)
    correct_hand(corrected, [SMALL, SMALL], expected_version=1, via="Table 1 link")
    assert [_side(h) for h in (by_link, by_bob, corrected)] == [0, 1, 0]
    assert name_score_keeper(game, dan, user=officer)[1]
    assert [_side(h) for h in (by_link, by_bob, corrected)] == [1, 1, 1]
    with pytest.raises(ConfirmRefused, match="Only a player of the other team"):
        confirm_hand(by_link, dan, expected_version=1)
    assert confirm_hand(by_link, ann, expected_version=1)[1]
    assert confirm_hand(corrected, cat, expected_version=2)[1]
    # A confirmed hand is not moved by a later naming.
    name_score_keeper(game, ann, user=officer)
    assert _side(by_link) == 1 and _side(by_bob) == 1


def test_the_game_history_shows_each_keeper_named_by_whom_and_when(
    unkept, players, officer, client
):
    ann, bob, cat, dan = players
    record_hand(unkept, [BIG, SMALL], number=1, via="Table 1 link")
    at_table = timezone.localtime().replace(hour=19, minute=5, second=0, microsecond=0)
    name_score_keeper(unkept, ann, via="Table 1 link", now=at_table)
    name_score_keeper(unkept, bob, user=officer, now=at_table.replace(hour=20, minute=10))
    client.force_login(officer)
    page = client.get(reverse("scoring:game", args=[unkept.pk])).content.decode()
    history = page[page.index('id="history-title"') :]
    assert "<strong>Ann Able named score keeper</strong> by Table 1 link" in history
    assert "<strong>Bob Baker named score keeper</strong> by Olive Officer" in history
    assert "7:05" in history and "8:10" in history
    # Newest first, among the hands' own entries.
    assert history.index("Bob Baker named") < history.index("Ann Able named")
    assert "<strong>Hand 1 entered</strong>" in history
    assert "Hands still waiting for an OK count as entered by Bob Baker&#x27;s side." in history
    # The side each naming gave hand 1 is said by the naming, not as a hand sent back.
    assert "sent back to the other team" not in history
