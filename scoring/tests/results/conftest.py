import datetime

import pytest

from scoring.tests.results import builders as b

DAY1 = datetime.date(2025, 3, 6)
DAY2 = datetime.date(2025, 3, 13)


@pytest.fixture
def small_club(db):
    """Four members and a guest over two club days (see test_standings for the sums).

    Day 1, table 1: game 1 A&B beat C&D 5,700–450 (three WIN hands);
                    game 2 B&D beat A&C 6,600–450 (BIG, WIN, WIN).
    Day 2, table 1: game 3 A&E(guest) beat B&C 5,700–450.
    """
    A = b.person("Ann", "Able")
    B = b.person("Bob", "Baker")
    C = b.person("Cat", "Cole")
    D = b.person("Dan", "Dale")
    E = b.person("Eve", "Early", guest=True)
    day1 = b.club_day(DAY1, "Thursday", sign_in=[A, B, C, D])
    t1 = b.table(day1, [A, B, C, D])
    g1 = b.win(t1, [A, B], [C, D])
    g2 = b.play(t1, [[A, C], [B, D]], [[b.LOSE, b.BIG], [b.LOSE, b.WIN], [b.LOSE, b.WIN]])
    day2 = b.club_day(DAY2, "Thursday", sign_in=[A, B, C, E])
    t2 = b.table(day2, [A, B, C, E])
    g3 = b.win(t2, [A, E], [B, C])
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
