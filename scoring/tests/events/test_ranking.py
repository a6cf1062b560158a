"""Property tests of the event rankings: victory points exactly at the table's
boundaries, tie-aware places (1, 1, 3) that do not depend on the order of the input."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.events.ranking import (
    BURRACO_3_HANDS,
    BURRACO_4_HANDS,
    Game,
    RankingError,
    VictoryPointTable,
    rank,
    rank_games,
    rank_in_brackets,
    rank_in_sections,
    tally,
    upper_bracket,
)
from scoring.results.standings.ranking import positions

SETTINGS = settings(max_examples=60, deadline=None)


@st.composite
def vp_tables(draw):
    bounds = sorted(draw(st.sets(st.integers(0, 3000), min_size=0, max_size=8)))
    tie = draw(st.integers(0, 20))
    rows = [(bounds[0] if bounds else None, tie, tie)]
    winner, loser = tie, tie
    for bound in [*bounds[1:], None] if bounds else []:
        winner += draw(st.integers(0, 3))
        loser = draw(st.integers(0, winner))
        rows.append((bound, winner, loser))
    return VictoryPointTable(tuple(rows))


@SETTINGS
@given(table=vp_tables())
def test_victory_points_change_exactly_at_each_boundary(table):
    for (bound, winner, loser), following in itertools.pairwise(table.rows):
        assert table.points(bound) == (winner, loser)  # the bound is in its row
        assert table.points(bound + 1) == following[1:]  # one more is the next row
        assert table.points(-bound) == (winner, loser)  # the difference's sign is no matter


def test_the_burraco_preset_by_hand():
    assert BURRACO_3_HANDS.points(0) == (10, 10)
    assert BURRACO_3_HANDS.points(50) == (10, 10)
    assert BURRACO_3_HANDS.points(55) == (11, 9)
    assert BURRACO_3_HANDS.points(1500) == (19, 1)
    assert BURRACO_3_HANDS.points(1505) == (20, 0)
    assert BURRACO_4_HANDS.points(2005) == (20, 0) and BURRACO_4_HANDS.points(100) == (10, 10)
    assert BURRACO_3_HANDS.maximum == 20


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ((), "at least one row"),
        (((50, 10, 10), (40, 12, 8), (None, 20, 0)), "must go up"),
        (((50, 10, 10), (150, 11, 9)), "last row"),
        (((50, 10, 10), (None, 8, 12)), "loser more than the winner"),
        (((50, 11, 9), (None, 20, 0)), "covers a draw"),
        (((50, 10, 10), (None, -1, 0)), "whole numbers"),
        (((50, 10, 10), (150, 15, 5), (None, 12, 8)), "less for a bigger difference"),
    ],
)
def test_a_victory_point_table_that_cannot_be_used_is_refused_in_plain_words(rows, message):
    with pytest.raises(RankingError, match=message):
        VictoryPointTable(rows)


def test_a_ranking_by_victory_points_matches_a_hand_calculation():
    # Three rounds, pairs A–F. Differences: 120 → 11–9, 40 → 10–10, 1600 → 20–0 …
    games = [
        Game(("A",), ("B",), 1320, 1200),  # A 11, B 9
        Game(("C",), ("D",), 900, 860),  # C 10, D 10
        Game(("E",), ("F",), 1800, 200),  # E 20, F 0
        Game(("A",), ("C",), 700, 1000),  # C +300 → C 13, A 7
        Game(("B",), ("E",), 1000, 1000),  # draw: 10, 10
        Game(("D",), ("F",), 1255, 1000),  # D +255 → D 13, F 7
    ]
    places = rank_games(games, ["vp", "diff"], BURRACO_3_HANDS)
    got = [(p.rank, p.tally.entrant, p.tally.vp, p.tally.diff, p.tied) for p in places]
    assert got == [
        (1, "E", 30, 1600, False),
        (2, "C", 23, 340, False),
        (3, "D", 23, 215, False),
        (4, "B", 19, -120, False),
        (5, "A", 18, -180, False),
        (6, "F", 7, -1855, False),
    ]
    assert places[0].tally.pct == Fraction(30, 40)


def test_wins_then_points_and_individual_events_rank_people():
    games = [Game((1, 3), (2, 4), 5000, 3000), Game((1, 2), (3, 4), 4000, 4100)]
    places = rank_games(games, ["wins", "points_for"])
    assert [(p.tally.entrant, p.rank, p.tally.wins, p.tally.points_for) for p in places] == [
        (3, 1, 2, 9100),
        (1, 2, 1, 9000),
        (4, 3, 1, 7100),
        (2, 4, 0, 7000),
    ]


rows = st.lists(st.tuples(st.integers(0, 3), st.integers(-50, 50)), min_size=1, max_size=12).map(
    lambda values: [(i, w, d) for i, (w, d) in enumerate(values)]
)


def tallies_of(values):
    out = []
    for entrant, wins, diff in values:
        games = [Game((entrant,), (f"x{entrant}-{n}",), 1, 0) for n in range(wins)]
        games.append(Game((entrant,), (f"y{entrant}",), max(diff, 0), max(-diff, 0)))
        out.append(next(t for t in tally(games) if t.entrant == entrant))
    return out


@SETTINGS
@given(values=rows, data=st.data())
def test_ranking_is_tie_aware_and_does_not_depend_on_the_input_order(values, data):
    tallies = tallies_of(values)
    places = rank(tallies, ["wins", "diff"])
    shuffled = data.draw(st.permutations(tallies))
    again = rank(shuffled, ["wins", "diff"])
    assert [(p.rank, p.tally.entrant) for p in places] == [(p.rank, p.tally.entrant) for p in again]
    keys = [(p.tally.wins, p.tally.diff) for p in places]
    assert keys == sorted(keys, key=lambda k: (-k[0], -k[1]))  # best first
    assert [p.rank for p in places] == positions(keys)  # 1, 1, 3 as the standings do
    for p in places:
        assert p.tied == (keys.count((p.tally.wins, p.tally.diff)) > 1)


def test_brackets_rank_the_upper_bracket_above_the_lower_and_keep_ties_together():
    after_two = [
        Game(("A",), ("B",), 10, 0),
        Game(("C",), ("D",), 10, 0),
        Game(("E",), ("F",), 0, 0),
    ]
    before = rank_games(after_two, ["wins"])
    upper = upper_bracket(before, 1)
    assert upper == {"A", "C"}  # tied with the first place: they come up with it
    last = [Game(("B",), ("A",), 99, 0), Game(("D",), ("C",), 99, 0), Game(("E",), ("F",), 9, 0)]
    places = rank_in_brackets(after_two + last, ["wins", "diff"], upper)
    assert [(p.rank, p.tally.entrant, p.bracket) for p in places] == [
        (1, "A", "upper"),
        (1, "C", "upper"),
        (3, "B", "lower"),  # B now has more points than A, yet ranks below the bracket
        (3, "D", "lower"),
        (5, "E", "lower"),
        (6, "F", "lower"),
    ]
    with pytest.raises(RankingError, match="between 1 and 5 places"):
        upper_bracket(before, 6)


def test_bad_measures_are_refused_in_plain_words():
    with pytest.raises(RankingError, match="'speed' is not a measure"):
        rank_games([], ["speed"])
    with pytest.raises(RankingError, match="needs a victory point table"):
        rank_games([], ["vp"])


@st.composite
def mitchell_games(draw):
    """Games of a Mitchell: each between a North–South and an East–West pair."""
    tables = draw(st.integers(1, 6))
    count = draw(st.integers(0, 3 * tables))
    games = []
    for _ in range(count):
        ns, ew = draw(st.integers(1, tables)), draw(st.integers(1, tables))
        points = draw(st.tuples(st.integers(-40, 400), st.integers(-40, 400)))
        games.append(Game((f"ns{ns}",), (f"ew{ew}",), points[0] * 5, points[1] * 5))
    sections = {f"ns{t}": "ns" for t in range(1, tables + 1)}
    sections |= {f"ew{t}": "ew" for t in range(1, tables + 1)}
    return games, sections


@SETTINGS
@given(
    drawn=mitchell_games(),
    measures=st.sampled_from([["vp", "diff"], ["wins", "points_for"], ["pct"]]),
    data=st.data(),
)
def test_each_line_of_a_mitchell_is_ranked_on_its_own(drawn, measures, data):
    games, sections = drawn
    places = rank_in_sections(games, measures, sections, BURRACO_3_HANDS)
    everyone = {t.entrant for t in tally(games)}
    assert sorted(p.tally.entrant for p in places) == sorted(everyone)  # each once
    lines = [p.section for p in places]
    assert lines == sorted(lines, key=["ns", "ew"].index)  # North–South first, then East–West
    for line in ("ns", "ew"):
        mine = [p for p in places if p.section == line]
        assert all(p.tally.entrant.startswith(line) for p in mine)
        alone = rank([p.tally for p in mine], measures)  # as if the line were alone
        assert [(p.rank, p.tied, p.tally.entrant) for p in mine] == [
            (p.rank, p.tied, p.tally.entrant) for p in alone
        ]
        assert not mine or mine[0].rank == 1  # each line has its winner
    again = rank_in_sections(data.draw(st.permutations(games)), measures, sections, BURRACO_3_HANDS)
    assert [(p.section, p.rank, p.tally.entrant) for p in again] == [
        (p.section, p.rank, p.tally.entrant) for p in places
    ]


def test_sections_by_hand():
    games = [
        Game(("ns1",), ("ew1",), 1900, 150),  # 20–0
        Game(("ns2",), ("ew2",), 400, 300),  # 11–9
        Game(("ns1",), ("ew2",), 0, 1400),  # 1–19 (a difference of 1,400)
        Game(("ns2",), ("ew1",), 300, 300),  # 10–10
    ]
    sections = {"ns1": "ns", "ns2": "ns", "ew1": "ew", "ew2": "ew"}
    places = rank_in_sections(games, ["vp"], sections, BURRACO_3_HANDS)
    assert [(p.section, p.rank, p.tied, p.tally.entrant, p.tally.vp) for p in places] == [
        ("ns", 1, True, "ns1", 21),
        ("ns", 1, True, "ns2", 21),
        ("ew", 1, False, "ew2", 28),
        ("ew", 2, False, "ew1", 10),
    ]
    stray = rank_in_sections(games + [Game(("x",), ("ew1",), 5, 0)], ["wins"], sections)
    assert [(p.section, p.tally.entrant) for p in stray][-1] == ("", "x")  # not in a line
    with pytest.raises(RankingError, match="needs a victory point table"):
        rank_in_sections(games, ["vp"], sections)
