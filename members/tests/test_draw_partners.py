"""The draw seats partners booked together facing each other (members.draw, pure and
seeded): properties over any count, remainder and pairs."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from members import draw


def _partner_of(table, person):
    i = table.index(person)
    return table[(i + 2) % 4] if len(table) == 4 else (table[2] if i == 0 else table[0])


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=3, max_value=40),
    remainder=st.sampled_from(draw.REMAINDER_CHOICES),
    pair_count=st.integers(min_value=0, max_value=20),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_partners_face_each_other_and_everyone_plays_once(count, remainder, pair_count, seed):
    people = list(range(1, count + 1))
    pairs = [(people[2 * i], people[2 * i + 1]) for i in range(min(pair_count, count // 2))]
    try:
        result = draw.draw(people, remainder, random.Random(seed), partners=pairs)
    except draw.SeatingImpossible:
        return
    seated = [p for table in result.tables for p in table]
    assert sorted(seated + result.sitting_out) == people  # everyone once
    sizes = [len(t) for t in result.tables]
    assert sizes == draw.table_sizes(count, remainder)[0]  # the same tables as without pairs
    out = set(result.sitting_out)
    slots = sum(1 + (size == 4) for size in sizes)
    together = 0
    for a, b in pairs:
        if a in out or b in out:
            continue
        table = next(t for t in result.tables if a in t)
        if b in table and _partner_of(table, a) == b:
            together += 1
    kept = sum(1 for a, b in pairs if a not in out and b not in out)
    assert together == min(kept, slots)  # every pair that fits sits as partners


def test_without_partners_a_seed_draws_what_it_drew_before():
    people = list(range(1, 23))
    for seed in range(20):
        for remainder in draw.REMAINDER_CHOICES:
            plain = draw.draw(people, remainder, random.Random(seed), spread={3, 9, 14})
            again = draw.draw(
                people, remainder, random.Random(seed), spread={3, 9, 14}, partners=()
            )
            assert plain == again


def test_the_same_seed_replays_the_same_draw_with_partners():
    people = list(range(1, 18))
    pairs = [(1, 2), (5, 9), (11, 17)]
    first = draw.draw(people, draw.SIT_OUT, random.Random(7), partners=pairs)
    second = draw.draw(people, draw.SIT_OUT, random.Random(7), partners=pairs)
    assert first == second


def test_partners_sit_out_last():
    # Nine people, tables of four, one sits out: never one of the four paired people.
    people = list(range(1, 10))
    for seed in range(50):
        result = draw.draw(people, draw.SIT_OUT, random.Random(seed), partners=[(1, 2), (3, 4)])
        assert set(result.sitting_out).isdisjoint({1, 2, 3, 4})


def test_guests_spread_but_partners_not_moved():
    people = list(range(1, 17))
    guests = {13, 14, 15, 16}
    for seed in range(30):
        result = draw.draw(
            people, draw.THREES, random.Random(seed), spread=guests, partners=[(1, 13), (2, 14)]
        )
        for a, b in ((1, 13), (2, 14)):
            table = next(t for t in result.tables if a in t)
            assert _partner_of(table, a) == b


def test_odd_pairs_ignored():
    people = [1, 2, 3, 4, 5, 6, 7, 8]
    pairs = [(1, 1), (2, 99), (3, 4), (4, 5)]  # self, absent, then 4 twice: the first wins
    result = draw.draw(people, draw.SIT_OUT, random.Random(1), partners=pairs)
    table = next(t for t in result.tables if 3 in t)
    assert _partner_of(table, 3) == 4
