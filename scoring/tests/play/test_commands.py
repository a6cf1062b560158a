"""rebuild_totals and the scoring part of load_demo."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from members.models import Seat, Table
from scoring.models import DayRules, Game, GameTeam, Hand, HandConfirmation
from scoring.play.services.hands import record_hand
from scoring.tests.samples import BIG, SMALL


def test_rebuild_totals(game):
    record_hand(game, [BIG, SMALL], number=1)
    GameTeam.objects.filter(game=game).update(total=12345)
    out = StringIO()
    call_command("rebuild_totals", "--game", str(game.pk), stdout=out)
    assert "Rebuilt 1 game." in out.getvalue()
    assert [t.total for t in game.teams.order_by("index")] == [1400, 80]
    call_command("rebuild_totals", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("rebuild_totals", "--game", "999999", stdout=StringIO())


def test_load_demo_scoring_part_is_idempotent(db):
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=StringIO())
    assert "room code" in out.getvalue() and "/t/" in out.getvalue()
    # The code as the table cards show it, in two groups of four.
    assert re.search(r"room code [A-Z0-9]{4}-[A-Z0-9]{4} ", out.getvalue())
    assert Table.objects.count() == 3
    assert Seat.objects.count() == 12
    assert Game.objects.count() == 1
    assert Hand.objects.count() == 2
    assert DayRules.objects.count() == 1
    game = Game.objects.get()
    assert game.teams.get(index=0).total > 0
    # The demo day asks for the other team's OK: hand 1 is confirmed, hand 2 waits.
    assert DayRules.objects.get().confirm_hands is True
    states = dict(HandConfirmation.objects.values_list("hand__number", "status"))
    assert states == {1: "confirmed", 2: "waiting"}


def test_load_demo_runs_again_whatever_officers_did(db):
    """An officer opened a second day with today's date, closed the demo day and signed
    in another guest with a demo guest's name: load_demo still runs, and uses the open
    day (so the printed link works)."""
    from datetime import date

    from members.models import ClubDay, Person
    from members.services.days import close_day, open_day

    call_command("load_demo", stdout=StringIO())
    demo_day = ClubDay.objects.get()
    guest = Person.objects.filter(kind=Person.Kind.GUEST).first()
    Person.objects.create(
        kind=Person.Kind.GUEST, first_name=guest.first_name, last_name=guest.last_name
    )
    second = open_day(date.today(), "Evening")
    call_command("load_demo", stdout=StringIO())
    close_day(demo_day)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Demo club loaded." in out.getvalue()
    assert ClubDay.objects.count() == 2
    # The open day of today is the one the demo fills in now.
    assert Table.objects.filter(round__day=second).count() == 3
    assert Game.objects.filter(day=second).count() == 1
    close_day(second)
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "is closed" in out.getvalue()
    assert ClubDay.objects.count() == 2
