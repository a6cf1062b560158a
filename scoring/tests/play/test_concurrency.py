"""Two devices at once. On SQLite writers are serialised (IMMEDIATE transactions); on
PostgreSQL the game row is locked (select_for_update). Either way exactly one device
saves hand N and the other is told who did: no lost or doubled hand."""

import contextvars
import threading

import pytest
from django.db import connection, connections

from scoring.models import Game, GameTeam, Hand, TeamHand
from scoring.play.services.games import start_game
from scoring.play.services.hands import HandConflict, StaleEdit, correct_hand, record_hand
from scoring.tests.samples import BIG, SMALL


def _in_this_club(target, *args) -> threading.Thread:
    """A thread running ``target(*args)`` in the test's club (a new thread starts
    outside every scope)."""
    return threading.Thread(target=contextvars.copy_context().run, args=(target, *args))


def test_sequential_double_save_on_any_database(game):
    record_hand(game, [BIG, SMALL], number=1, via="Table 1 link")
    behind = Game.objects.get(pk=game.pk)
    behind.hand_count = 0
    with pytest.raises(HandConflict) as info:
        record_hand(behind, [SMALL, BIG], number=1, via="Table 1 link")
    assert info.value.message.startswith("Hand 1 was already entered by Table 1 link at ")
    assert Hand.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_real_transactions_save_one_hand(table, players, club_rules):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    ann, bob, cat, dan = players
    game = start_game(table, [[ann, cat], [bob, dan]], rule_set=club_rules)
    rounds = 8
    outcomes = []
    lock = threading.Lock()

    def device(name, inputs, barrier, number):
        try:
            barrier.wait(timeout=10)
            mine = Game.objects.get(pk=game.pk)
            try:
                hand = record_hand(mine, inputs, number=number, via=name)
            except HandConflict as exc:
                result = ("conflict", name, exc.message, exc.existing_hand.entered_via)
            else:
                result = ("saved", name, hand.number, None)
            with lock:
                outcomes.append(result)
        finally:
            connections.close_all()

    for number in range(1, rounds + 1):
        barrier = threading.Barrier(2)
        threads = [
            _in_this_club(device, "Device A", [SMALL, SMALL], barrier, number),
            _in_this_club(device, "Device B", [SMALL, SMALL], barrier, number),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    assert len(outcomes) == rounds * 2
    saved = [o for o in outcomes if o[0] == "saved"]
    conflicts = [o for o in outcomes if o[0] == "conflict"]
    assert len(saved) == rounds and len(conflicts) == rounds
    for _kind, name, message, winner in conflicts:
        assert winner != name  # told about the other device
        assert f"already entered by {winner}" in message
    assert Hand.objects.filter(game=game).count() == rounds
    assert sorted(Hand.objects.values_list("number", flat=True)) == list(range(1, rounds + 1))
    assert TeamHand.objects.filter(game=game).count() == rounds * 2
    assert [t.total for t in GameTeam.objects.filter(game=game).order_by("index")] == [
        80 * rounds,
        80 * rounds,
    ]
    game.refresh_from_db()
    assert game.hand_count == rounds and game.version == rounds


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_corrections_never_overwrite_a_newer_one(table, players, club_rules):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run with DATABASE_URL=postgres://...)")
    ann, bob, cat, dan = players
    game = start_game(table, [[ann, cat], [bob, dan]], rule_set=club_rules)
    record_hand(game, [SMALL, SMALL], number=1)
    results = []
    barrier = threading.Barrier(2)

    def device(inputs):
        try:
            barrier.wait(timeout=10)
            hand = Hand.objects.get(game=game, number=1)
            try:
                correct_hand(hand, inputs, expected_version=1)
                results.append("saved")
            except StaleEdit:
                results.append("stale")
        finally:
            connections.close_all()

    threads = [_in_this_club(device, x) for x in ([BIG, SMALL], [SMALL, BIG])]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(results) == ["saved", "stale"]
    hand = Hand.objects.get(game=game, number=1)
    assert hand.version == 2
    totals = [t.total for t in GameTeam.objects.filter(game=game).order_by("index")]
    assert totals in ([1400, 80], [80, 1400])
