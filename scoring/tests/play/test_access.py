"""Permission boundaries: table links, room codes, closed days, personas."""

import pytest
from django.urls import reverse
from django.utils import timezone

from clubsite.devices import GRANT_KEY
from members.models import ClubDay
from scoring.models import Hand
from scoring.play import rooms
from scoring.play.services.games import start_game
from scoring.play.services.hands import record_hand

from .conftest import BIG, SMALL, quick_post


def table_url(table):
    return reverse("scoring:table", args=[table.pk])


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    """Room-code counters live in the shared (database) cache: empty it around each test
    (with the database, which that cache needs)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def day(db):
    """Today's club day: table links and room codes end at the end of the day's date,
    so the open day these tests score must be today (in the club's time zone)."""
    return ClubDay.objects.create(date=timezone.localdate(), title="Thursday")


def close(day):
    ClubDay.objects.filter(pk=day.pk).update(status=ClubDay.Status.CLOSED, closed_at=timezone.now())


# -- the secret link ---------------------------------------------------------------------


def test_link_opens_its_table(client, table, game):
    response = client.get(reverse("scoring:table_link", args=[table.token]))
    assert response.status_code == 302 and response["Location"] == table_url(table)
    page = client.get(table_url(table))
    assert page.status_code == 200
    assert b"Save hand 1" in page.content


def test_link_cannot_reach_another_table_or_day(link_client, table, other_table, other_day_table):
    assert link_client.get(table_url(other_table)).status_code == 404
    assert link_client.get(table_url(other_day_table)).status_code == 404
    assert link_client.get(reverse("scoring:game_start", args=[other_table.pk])).status_code == 404


def test_link_cannot_reach_another_tables_game(link_client, other_table, players, club_rules):
    people = [s.person for s in other_table.seats.order_by("position")]
    other_game = start_game(
        other_table, [[people[0], people[2]], [people[1], people[3]]], rule_set=club_rules
    )
    for name in ("scoring:game", "scoring:hand_undo", "scoring:next_game"):
        assert link_client.get(reverse(name, args=[other_game.pk])).status_code == 404
    response = link_client.post(
        reverse("scoring:hand_new", args=[other_game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 404
    assert not Hand.objects.filter(game=other_game).exists()


def test_wrong_token_is_404(client, table):
    assert client.get("/t/not-a-real-token/").status_code == 404


def test_grant_for_the_same_table_number_on_another_day_does_not_work(
    client, table, other_day_table
):
    session = client.session
    session[GRANT_KEY] = {"table": other_day_table.pk, "day": table.round.day_id}
    session.save()
    assert client.get(table_url(other_day_table)).status_code == 404


def test_closed_day_kills_the_link(link_client, table, game):
    close(table.round.day)
    response = link_client.get(table_url(table))
    assert response.status_code == 410
    assert b"This club day is closed; the scores are final." in response.content
    response = link_client.post(
        reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 410
    assert not Hand.objects.exists()
    fresh = link_client.get(reverse("scoring:table_link", args=[table.token]))
    assert fresh.status_code == 410
    assert b"the scores are final" in fresh.content


# -- room codes --------------------------------------------------------------------------


def test_room_code_opens_the_table(client, table):
    response = client.post(reverse("scoring:room"), {"room_code": " kxm-7qp "})
    assert response.status_code == 302 and response["Location"] == table_url(table)
    assert client.get(table_url(table)).status_code == 200


def test_wrong_room_code_is_told_on_the_same_box(client, table):
    response = client.post(reverse("scoring:room"), {"room_code": "AAAAAA"})
    assert response.status_code == 200
    assert b"No table has the room code AAAAAA" in response.content
    assert b'name="room_code"' in response.content
    assert client.get(table_url(table)).status_code == 404


def test_room_code_of_a_closed_day(client, table):
    close(table.round.day)
    response = client.post(reverse("scoring:room"), {"room_code": "KXM7QP"})
    assert response.status_code == 200
    assert b"This club day is closed; the scores are final." in response.content


def test_room_codes_cannot_be_guessed_forever(client, table):
    for _ in range(rooms.ROOM_CODE_TRIES):
        client.post(reverse("scoring:room"), {"room_code": "BBBBBB"})
    response = client.post(reverse("scoring:room"), {"room_code": "KXM7QP"})
    assert response.status_code == 200
    assert b"Too many wrong codes" in response.content
    assert client.get(table_url(table)).status_code == 404


@pytest.mark.parametrize("junk", ["", "x" * 5000, "\x00", "ÄÖÜ", "<script>"])
def test_room_code_junk_never_fails(client, table, junk):
    assert client.post(reverse("scoring:room"), {"room_code": junk}).status_code == 200


def test_room_get_goes_home(client, db):
    assert client.get(reverse("scoring:room")).status_code == 302


# -- personas ----------------------------------------------------------------------------


def test_outsider_gets_404(client, table, game):
    assert client.get(table_url(table)).status_code == 404
    assert client.get(reverse("scoring:game", args=[game.pk])).status_code == 404
    response = client.post(reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1))
    assert response.status_code == 404
    response = client.post(
        reverse("scoring:hand_preview", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 404


def test_member_not_at_the_table_cannot_edit(member_client, table, game):
    assert member_client.get(table_url(table)).status_code == 404
    response = member_client.post(
        reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 404
    record_hand(game, [BIG, SMALL], number=1)
    response = member_client.post(
        reverse("scoring:hand_edit", args=[game.pk, 1]), quick_post([SMALL, SMALL], 1, version=1)
    )
    assert response.status_code == 404
    response = member_client.post(reverse("scoring:hand_undo", args=[game.pk]), {"hand_count": "1"})
    assert response.status_code == 404
    assert Hand.objects.get().inputs[0] == BIG


def test_seated_member_can_score(seated_member_client, table, game):
    response = seated_member_client.post(
        reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.entered_by.username == "ann"


def test_seated_member_only_looks_after_the_day_closes(seated_member_client, table, game):
    close(table.round.day)
    page = seated_member_client.get(table_url(table))
    assert page.status_code == 200
    assert b"Save hand" not in page.content
    response = seated_member_client.post(
        reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 410
    assert not Hand.objects.exists()


def test_officer_can_score_any_table(officer_client, table, game):
    response = officer_client.post(
        reverse("scoring:hand_new", args=[game.pk]), quick_post([BIG, SMALL], 1)
    )
    assert response.status_code == 302
    assert Hand.objects.get().entered_by.username == "officer"


@pytest.mark.parametrize(
    "name,args",
    [
        ("scoring:rulesets", []),
        ("scoring:ruleset_new", []),
        ("scoring:ruleset_edit", ["rs"]),
        ("scoring:day_rules", ["day"]),
        ("scoring:table_cards", ["day"]),
    ],
)
def test_officer_only_pages(client, member_client, table, club_rules, name, args):
    values = {"rs": club_rules.pk, "day": table.round.day_id}
    url = reverse(name, args=[values[a] for a in args])
    client.logout()
    assert client.get(url).status_code == 302  # to the login page
    member_client.force_login(member_client_user(member_client))
    assert member_client.get(url).status_code == 403
    assert member_client.post(url, {}).status_code == 403


def member_client_user(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="member")


def test_link_device_cannot_reach_officer_pages(link_client, table, club_rules):
    url = reverse("scoring:ruleset_edit", args=[club_rules.pk])
    assert link_client.get(url).status_code == 302
    assert (
        link_client.get(reverse("scoring:table_cards", args=[table.round.day_id])).status_code
        == 302
    )


def test_nonexistent_ids_are_404(officer_client, game):
    for url in [
        reverse("scoring:table", args=[999999]),
        reverse("scoring:game", args=[999999]),
        reverse("scoring:hand_edit", args=[game.pk, 99]),
        reverse("scoring:ruleset_edit", args=[999999]),
        reverse("scoring:day_rules", args=[999999]),
        reverse("scoring:table_cards", args=[999999]),
        "/tables/99999999999999999999999/",
        "/games/99999999999999999999999/",
        f"/games/{game.pk}/hands/99999999999999999999/edit/",
        "/rules/99999999999999999999999/edit/",
        "/days/99999999999999999999999/rules/",
    ]:
        assert officer_client.get(url).status_code == 404, url
    assert officer_client.post(f"/games/{game.pk}/hands/70000/edit/", {}).status_code == 404
