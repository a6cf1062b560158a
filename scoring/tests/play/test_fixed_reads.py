"""The table's reads compiled once (scoring.play.reads, issue #14) give what their
querysets give: the same rows, in the same order, with the same field values and the
same related objects already joined; and they are built once, not per call."""

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from members.models import Table
from scoring.models import Game, Hand, Submission, TeamHand, TeamPlayer
from scoring.play import reads, services
from scoring.play.fixed import FixedRead
from scoring.play.services.confirmations import confirm_hand
from scoring.play.services.submissions import submit_hand

from .conftest import BIG, SMALL


def _values(obj, related=()):
    """Every concrete field of ``obj`` and of its joined ``related`` objects."""
    out = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    for path in related:
        target = obj
        for name in path.split("__"):
            assert name in target._state.fields_cache, f"{path} is not joined"
            target = getattr(target, name)
        out[path] = _values(target) if target is not None else None
    return out


def _same(read, queryset, pk, related=()):
    fixed, orm = read(pk), list(queryset)
    assert [_values(o, related) for o in fixed] == [_values(o, related) for o in orm]
    return fixed


@pytest.fixture
def played(day, game, players, club_rules):
    services.set_day_rules(day, club_rules, confirm_hands=True)
    hands = [services.record_hand(game, [BIG, SMALL], number=n) for n in (1, 2, 3)]
    confirm_hand(hands[0], players[1], expected_version=1)
    submit_hand(game, [SMALL, SMALL], key="k" * 22, number=4)
    game.refresh_from_db()
    return game


def test_each_read_gives_what_its_queryset_gives(played):
    g = played
    tables = Table.objects.select_related("round__day").filter(pk=g.table_id)
    _same(reads.table_by_pk, tables, g.table_id, ["round", "round__day"])
    games = Game.objects.select_related("table__round__day").filter(pk=g.pk)
    _same(reads.game_by_pk, games, g.pk, ["table", "table__round", "table__round__day"])
    latest = Game.objects.filter(table_id=g.table_id).order_by("-number")[:1]
    assert [x.pk for x in _same(reads.latest_game, latest, g.table_id)] == [g.pk]
    keys = Submission.objects.filter(game_id=g.pk).order_by("-pk")
    assert reads.recent_keys(g.pk) == list(keys.values_list("key", flat=True)[:20])
    assert "k" * 22 in reads.recent_keys(g.pk)
    players = TeamPlayer.objects.filter(game_id=g.pk).select_related("team", "person")
    players = players.order_by("team__index", "seat", "pk")
    assert len(_same(reads.players, players, g.pk, ["team", "person"])) == 4
    hands = Hand.objects.filter(game_id=g.pk).order_by("number")
    fixed = _same(reads.hands, hands.select_related("confirmation"), g.pk, ["confirmation"])
    assert [h.number for h in fixed] == [1, 2, 3, 4] and fixed[0].confirmation is not None
    assert fixed[0].inputs == hands.get(number=1).inputs  # the JSON as lists and dicts
    both = ["confirmation", "entered_by"]
    _same(reads.hands_entered_by, hands.select_related(*both), g.pk, both)
    rows = sorted(_values(r).items() for r in reads.team_hands(g.pk))
    assert rows == sorted(_values(r).items() for r in TeamHand.objects.filter(game_id=g.pk))
    assert len(rows) == 8


def test_the_saving_read_locks_and_annotates_as_its_queryset(played, day):
    g = played
    locked = (
        TeamPlayer.objects.select_for_update(of=("team", "team__game"))
        .select_related("team__game")
        .filter(team__game_id=g.pk)
        .annotate(
            confirm_day=F("team__game__day__rules__confirm_hands"),
            confirm_rules=F("team__game__rule_set__confirm_hands"),
        )
        .order_by("team__index", "seat", "pk")
    )
    with transaction.atomic():
        fixed = _same(reads.players_locked, locked, g.pk, ["team", "team__game"])
        orm = list(locked)
    got = [(p.confirm_day, p.confirm_rules) for p in fixed]
    assert got == [(p.confirm_day, p.confirm_rules) for p in orm]
    assert got[0][0] is True  # the day's rules ask for the other team's OK


def test_a_missing_or_malformed_key_is_a_404(db):
    for pk in (987654, "x", None, 10**23):
        with pytest.raises(Http404):
            reads.one_or_404(reads.game_by_pk, pk, Game)


def test_a_read_is_compiled_once_and_runs_one_query(played):
    built = []
    read = FixedRead(lambda pk: (built.append(pk), Game.objects.filter(pk=pk))[1])
    for _ in range(3):
        with CaptureQueriesContext(connection) as captured:
            assert [g.pk for g in read(played.pk)] == [played.pk]
        assert len(captured.captured_queries) == 1
    assert len(built) == 1  # the queryset was built once, with stand-ins
    assert read(played.pk + 1000) == []


def test_a_read_whose_parameter_is_not_in_its_sql_is_refused(db):
    read = FixedRead(lambda pk: Game.objects.filter(pk=1))
    with pytest.raises(ValueError):
        read(1)
