"""The factories every app's tests build their rows with do what their docstrings say:
a mistake here would quietly change the data of hundreds of tests."""

import pytest

from members.models import Round
from members.tests.factories import (
    ClubDayFactory,
    GuestFactory,
    MemberFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
)

pytestmark = pytest.mark.django_db


def test_signed_in_people_show_a_card_unless_they_are_guests():
    ann, gus = MemberFactory(), GuestFactory(brought_by=None)
    day = ClubDayFactory(signed_in=[ann, gus])
    shown = {s.person: s.card_shown for s in day.signins.all()}
    assert shown == {ann: True, gus: False}


def test_seated_people_sit_in_order_in_the_tables_round():
    people = MemberFactory.create_batch(4)
    table = TableFactory(seated=people)
    seats = list(table.seats.order_by("position"))
    assert [(s.position, s.person) for s in seats] == list(enumerate(people, start=1))
    assert {s.round_id for s in seats} == {table.round_id}


def test_tables_of_one_day_share_a_round_and_are_numbered_in_turn():
    day = ClubDayFactory()
    first = TableFactory(round__day=day)
    second = TableFactory(round__day=day)
    later = TableFactory(round__day=day, round__number=2)
    assert first.round == second.round == RoundFactory(day=day, number=1)
    assert (first.number, second.number, later.number) == (1, 2, 1)
    assert Round.objects.filter(day=day).count() == 2


def test_a_seat_takes_the_next_position_and_a_name_only_member_has_no_contact():
    table = TableFactory(seated=MemberFactory.create_batch(2))
    seat = SeatFactory(table=table, person=MemberFactory(name_only=True))
    assert seat.position == 3 and seat.round == table.round
    assert (seat.person.email, seat.person.phone, seat.person.joined) == ("", "", None)
