"""The other team's OK through the pages: the table's panel and each hand's state, the
day page's list for officers, the settings, the results note; one test per permission
boundary (the table's link, a seated player, another table's link, an outsider, a
closed day, a non-officer settling)."""

import pytest
from django.test import Client
from django.urls import reverse

from members.models import ClubRole
from members.services import close_day
from scoring.models import DayRules, HandConfirmation
from scoring.play.services.confirmations import dispute_hand, settle_hand
from scoring.play.services.hands import record_hand
from scoring.play.services.rulesets import copy_rule_set, set_day_rules
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL

Status = HandConfirmation.Status


@pytest.fixture
def confirming(day, club_rules):
    set_day_rules(day, club_rules, confirm_hands=True)
    return day


@pytest.fixture
def waiting(confirming, game):
    """Hand 1 of the game, saved by Ann (team 1), waiting for team 2's OK."""
    return record_hand(game, [BIG, SMALL], number=1)


def confirm_url(hand):
    return reverse("scoring:hand_confirm", args=[hand.game_id, hand.number])


def settle_url(hand):
    return reverse("scoring:hand_settle", args=[hand.game_id, hand.number])


def status_of(hand):
    return HandConfirmation.objects.get(hand=hand).status


def tap(client, hand, person, action="confirm", **extra):
    data = {"action": action, "person": str(person.pk), "version": str(hand.version), **extra}
    return client.post(confirm_url(hand), data)


def test_the_table_shows_the_other_teams_names_and_one_tap_confirms(link_client, waiting, players):
    ann, bob, cat, dan = players
    page = link_client.get(reverse("scoring:table", args=[waiting.game.table_id])).content
    assert b"Hand 1 waits for Team 2&#x27;s OK" in page
    assert b"Bob Baker: it is right" in page and b"Dan Dunn: it is right" in page
    assert b"Cat Cole: it is right" not in page  # Ann's partner: the keeper's own team
    assert b"Waiting for OK" in page
    response = tap(link_client, waiting, bob)
    # Back to the top of the table page, where the message says it was done.
    table_url = reverse("scoring:table", args=[waiting.game.table_id])
    assert response.status_code == 302 and response["Location"] == table_url
    confirmation = HandConfirmation.objects.get(hand=waiting)
    assert confirmation.status == Status.CONFIRMED and confirmation.via == "Table 1 link"
    page = link_client.get(response["Location"], follow=True).content
    assert b"Hand 1 was confirmed by Bob Baker." in page
    assert b"OK by Bob" in page and b"Hand 1 waits" not in page


def test_a_double_tap_counts_once_and_says_it_once(link_client, waiting, players):
    bob = players[1]
    tap(link_client, waiting, bob)
    records = HandConfirmation.history.count()
    tap(link_client, waiting, bob)
    assert HandConfirmation.history.count() == records
    page = link_client.get(reverse("scoring:table", args=[waiting.game.table_id])).content
    assert page.count(b"Hand 1 was confirmed by Bob Baker.") == 1


def test_the_keepers_partner_is_refused_with_a_message(link_client, waiting, players):
    cat = players[2]
    response = tap(link_client, waiting, cat)
    assert status_of(waiting) == Status.WAITING
    page = link_client.get(response["Location"]).content
    assert b"Only a player of the other team can confirm" in page


def test_a_dispute_with_a_reason_is_listed_for_officers_and_settled_there(
    link_client, waiting, players, officer_user
):
    dan = players[3]
    response = tap(link_client, waiting, dan, action="dispute", reason="We had 4 red threes")
    assert status_of(waiting) == Status.DISPUTED
    page = link_client.get(response["Location"]).content
    assert b"marked as disputed by Dan Dunn" in page
    assert b"Disputed by Dan" in page and b'id="confirm"' not in page  # nothing to tap
    officer = Client()
    officer.force_login(officer_user)
    table_page = officer.get(reverse("scoring:table", args=[waiting.game.table_id])).content
    assert b"Hand 1 is disputed" in table_page
    assert "Disputed by Dan Dunn: “We had 4 red threes”".encode() in table_page
    day_url = reverse("members:day", args=[waiting.game.day_id])
    day_page = officer.get(day_url).content
    assert b"Hands to settle (1)" in day_page and b"We had 4 red threes" in day_page
    response = officer.post(
        settle_url(waiting), {"version": "1", "next": day_url + "#hands-to-settle"}
    )
    assert response["Location"] == day_url + "#hands-to-settle"
    confirmation = HandConfirmation.objects.get(hand=waiting)
    assert confirmation.status == Status.SETTLED and confirmation.officer == officer_user
    day_page = officer.get(day_url).content
    assert b"settled by Olive Officer" in day_page and b"Hands to settle" not in day_page
    game_page = officer.get(reverse("scoring:game", args=[waiting.game_id])).content
    assert b"Hand 1 settled</strong> by Olive Officer" in game_page
    assert b"Hand 1 disputed</strong> by Dan Dunn (Table 1 link)" in game_page


def test_a_player_seated_at_the_table_confirms_from_their_own_login(
    seated_member_client, waiting, players, django_user_model
):
    # Ann is logged in and seated; she taps for Bob on her phone: the table's devices
    # are trusted to hand the phone over, as on paper.
    response = tap(seated_member_client, waiting, players[1])
    assert response.status_code == 302 and status_of(waiting) == Status.CONFIRMED


def test_another_tables_link_gets_404(client, waiting, players, other_table):
    client.get(f"/t/{other_table.token}/")
    assert tap(client, waiting, players[1]).status_code == 404
    assert status_of(waiting) == Status.WAITING


def test_an_outsider_gets_404(client, waiting, players):
    assert tap(client, waiting, players[1]).status_code == 404
    assert client.post(settle_url(waiting), {"version": "1"}).status_code == 404
    assert status_of(waiting) == Status.WAITING


def test_a_closed_days_link_can_no_longer_confirm(link_client, waiting, players, day):
    close_day(day)
    assert tap(link_client, waiting, players[1]).status_code == 410
    assert status_of(waiting) == Status.WAITING


def test_the_tables_link_cannot_settle(link_client, waiting):
    assert link_client.post(settle_url(waiting), {"version": "1"}).status_code == 403
    assert status_of(waiting) == Status.WAITING


def test_an_officer_settles_after_the_day_is_closed(officer_client, waiting, day):
    close_day(day)
    response = officer_client.post(settle_url(waiting), {"version": "1"})
    assert response.status_code == 302 and status_of(waiting) == Status.SETTLED


def test_an_officer_on_the_table_page_can_settle_or_correct(officer_client, waiting):
    page = officer_client.get(reverse("scoring:table", args=[waiting.game.table_id])).content
    assert b"Settle hand 1: right as it stands" in page
    assert reverse("scoring:hand_edit", args=[waiting.game_id, 1]).encode() in page


def test_a_correction_from_the_table_sends_the_hand_back_to_waiting(link_client, waiting, players):
    tap(link_client, waiting, players[1])
    edit = reverse("scoring:hand_edit", args=[waiting.game_id, 1])
    assert link_client.post(edit, quick_post([SMALL, BIG], 1, version=1)).status_code == 302
    assert status_of(waiting) == Status.WAITING
    page = link_client.get(reverse("scoring:table", args=[waiting.game.table_id])).content
    assert b"Hand 1 waits for Team 2&#x27;s OK" in page and b'name="version" value="2"' in page


def test_a_stale_page_is_refused_and_a_get_goes_to_the_table(link_client, waiting, players):
    response = tap(link_client, waiting, players[1], version="7")
    assert status_of(waiting) == Status.WAITING
    assert b"corrected after this page was drawn" in link_client.get(response["Location"]).content
    response = link_client.get(confirm_url(waiting))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[waiting.game.table_id])


def test_the_day_rules_page_turns_it_on_for_the_day(officer_client, day, club_rules):
    url = reverse("scoring:day_rules", args=[day.pk])
    page = officer_client.get(url).content
    assert b"The other team confirms every hand" in page
    response = officer_client.post(url, {"rule_set": club_rules.pk, "confirm_hands": "on"})
    assert response.status_code == 302
    assert DayRules.objects.get(day=day).confirm_hands is True
    page = officer_client.get(url).content
    assert b"The other team confirms every hand saved from now on." in page
    officer_client.post(url, {"rule_set": club_rules.pk, "confirm_hands": ""})
    assert DayRules.objects.get(day=day).confirm_hands is None


def test_the_rule_set_form_turns_it_on(officer_client, club_rules):
    own = copy_rule_set(club_rules, "Careful rules")
    url = reverse("scoring:ruleset_edit", args=[own.pk])
    page = officer_client.get(url)
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data["confirm_hands"] = "on"
    response = officer_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    own.refresh_from_db()
    assert own.confirm_hands is True
    listed = officer_client.get(reverse("scoring:rulesets")).content
    assert listed.count(b"the other team confirms every hand") == 1  # presets: off


def test_results_pages_note_a_day_with_unconfirmed_hands(
    officer_client, officer_user, waiting, day
):
    note = b"1 hand the other team has not confirmed"
    assert note in officer_client.get(reverse("scoring:day_result", args=[day.pk])).content
    assert note in officer_client.get(reverse("scoring:day_results")).content
    assert note in officer_client.get(reverse("scoring:standings")).content
    settle_hand(waiting, officer=officer_user, expected_version=1)
    assert note not in officer_client.get(reverse("scoring:day_result", args=[day.pk])).content


def test_the_day_page_lists_many_hands_in_few_queries(
    officer_client, confirming, game, players, django_assert_max_num_queries
):
    for number in range(1, 4):
        hand = record_hand(game, [SMALL, SMALL], number=number)
        if number == 2:
            dispute_hand(hand, players[1], expected_version=1)
    url = reverse("members:day", args=[confirming.pk])
    with django_assert_max_num_queries(30) as few:
        assert b"Hands to settle (3)" in officer_client.get(url).content
    for number in range(4, 8):
        record_hand(game, [SMALL, SMALL], number=number)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert b"Hands to settle (7)" in officer_client.get(url).content


def test_a_non_officer_member_is_never_shown_the_settle_button(seated_member_client, waiting):
    assert not ClubRole.objects.exists()
    page = seated_member_client.get(reverse("scoring:table", args=[waiting.game.table_id]))
    assert b"Settle hand" not in page.content
    response = seated_member_client.post(settle_url(waiting), {"version": "1"})
    assert response.status_code == 403 and status_of(waiting) == Status.WAITING


def test_the_admin_lists_confirmations_read_only(admin_client, waiting):
    url = reverse("admin:scoring_handconfirmation_changelist")
    assert admin_client.get(url, {"q": "link"}).status_code == 200
    change = reverse("admin:scoring_handconfirmation_change", args=[waiting.confirmation.pk])
    assert b'name="status"' not in admin_client.get(change).content


def test_the_correction_page_says_what_a_correction_does(link_client, officer_user, waiting):
    url = reverse("scoring:hand_edit", args=[waiting.game_id, 1])
    page = link_client.get(url).content
    assert b"the other team confirms the new numbers again" in page
    assert b'<span class="hand-state state-waiting">Waiting for OK</span>' in page
    # The state stands on its own line (confirm.css), with no stray full stop after it.
    assert b"css/confirm.css" in page
    assert b"</span>\n." not in page and b"</span>." not in page
    officer = Client()
    officer.force_login(officer_user)
    assert b"Saving your correction settles this hand" in officer.get(url).content


def test_the_table_page_shows_waiting_hands_in_few_queries(
    link_client, confirming, game, django_assert_max_num_queries
):
    url = reverse("scoring:table", args=[game.table_id])
    record_hand(game, [SMALL, SMALL], number=1)
    with django_assert_max_num_queries(30) as few:
        assert b"waits for Team 2&#x27;s OK" in link_client.get(url).content
    for number in range(2, 6):
        record_hand(game, [SMALL, SMALL], number=number)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert b"5 hands wait for Team 2&#x27;s OK" in link_client.get(url).content


def test_the_correction_page_ends_a_morning_time_with_one_full_stop(link_client, waiting):
    import datetime

    from django.utils import timezone

    from clubsite.clock import clock
    from scoring.models import Hand

    morning = timezone.make_aware(
        datetime.datetime.combine(waiting.game.day_date, datetime.time(7, 11))
    )
    Hand.objects.filter(pk=waiting.pk).update(created_at=morning)
    url = reverse("scoring:hand_edit", args=[waiting.game_id, 1])
    page = link_client.get(url).content.decode()
    assert f"Saved by another device at {clock(morning)} Change" in page, page[
        page.find("Saved by") :
    ][:80]
    assert f"{clock(morning)}." not in page
