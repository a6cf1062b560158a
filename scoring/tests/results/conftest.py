import datetime

import pytest

from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.tests import games
from scoring.tests.samples import CONCEALED, LOSE, WIN

DAY1 = datetime.date(2025, 3, 6)
DAY2 = datetime.date(2025, 3, 13)


@pytest.fixture
def small_club(db):
    """Four members and a guest over two club days (see test_standings for the sums).

    Day 1, table 1: game 1 A&B beat C&D 5,700–450 (three WIN hands);
                    game 2 B&D beat A&C 6,600–450 (CONCEALED, WIN, WIN).
    Day 2, table 1: game 3 A&E(guest) beat B&C 5,700–450.
    """
    A = MemberFactory(first_name="Ann", last_name="Able", name_only=True)
    B = MemberFactory(first_name="Bob", last_name="Baker", name_only=True)
    C = MemberFactory(first_name="Cat", last_name="Cole", name_only=True)
    D = MemberFactory(first_name="Dan", last_name="Dale", name_only=True)
    E = GuestFactory(first_name="Eve", last_name="Early", brought_by=None)
    day1 = ClubDayFactory(date=DAY1, title="Thursday", signed_in=[A, B, C, D])
    t1 = TableFactory(round__day=day1, seated=[A, B, C, D])
    g1 = games.win(t1, [A, B], [C, D])
    g2 = games.play(t1, [[A, C], [B, D]], [[LOSE, CONCEALED], [LOSE, WIN], [LOSE, WIN]])
    day2 = ClubDayFactory(date=DAY2, title="Thursday", signed_in=[A, B, C, E])
    t2 = TableFactory(round__day=day2, seated=[A, B, C, E])
    g3 = games.win(t2, [A, E], [B, C])
    return {
        "A": A,
        "B": B,
        "C": C,
        "D": D,
        "E": E,
        "day1": day1,
        "day2": day2,
        "games": [g1, g2, g3],
    }
