"""The two games of four at one table of a generated club day.

The first game has partners opposite (seats 1 & 3, 2 & 4), the second new partnerships
drawn the club's way (``partnerships.club_partnerships``). Every game is started through
:mod:`scoring.play.services` and its hands, drawn by :mod:`scoring.devtools.simulate`,
are written at once by ``hands.record_played_game`` — or hand by hand with
``hands.record_hand`` when the writer asks for it (the same rows; a test compares
the two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from members.models import Person, Table
from scoring.devtools.simulate import play_game
from scoring.models import Game
from scoring.play.partnerships import club_partnerships, keeper_neighbours
from scoring.play.services.games import next_game, start_game
from scoring.play.services.hands import record_hand, record_played_game

if TYPE_CHECKING:
    from scoring.devtools.league.days import DayWriter

MINUTES_PER_HAND = (8, 16)


def play_table(writer: DayWriter, table: Table, people: list[Person]) -> None:
    """Two games of four at the table: partners opposite (seats 1 & 3, 2 & 4), then
    new partnerships drawn the club's way."""
    rng = writer.rng
    a, b, c, d = people
    keeper = rng.choice(people)
    clock = rng.uniform(0, 10)
    game = start_game(
        table,
        [[a, c], [b, d]],
        rule_set=writer.rule_set,
        score_keeper=keeper,
        first_dealer=rng.choice(people),
        now=writer.at(table.round.day.date, clock),
    )
    clock = _play_game(writer, game, table, clock)
    left, right = keeper_neighbours(people, keeper)
    teams = club_partnerships(people, keeper, rng.choice((left, right)))
    clock += rng.uniform(3, 10)
    second = next_game(
        game,
        teams,
        score_keeper=keeper,
        first_dealer=rng.choice(people),
        now=writer.at(table.round.day.date, clock),
    )
    _play_game(writer, second, table, clock)


def _play_game(writer: DayWriter, game: Game, table: Table, clock: float) -> float:
    """Every hand of ``game`` to its end; returns the clock (minutes) after the last."""
    rng = writer.rng
    inputs_list, times = [], []
    date = table.round.day.date
    for inputs, _before, _outcome in play_game(rng, game.engine_rules()):
        clock += rng.uniform(*MINUTES_PER_HAND)
        inputs_list.append(inputs)
        times.append(writer.at(date, clock))
    via = f"Table {table.number} link"
    if not writer.hand_by_hand:
        # Ratings are replayed once a year (the same numbers, much faster).
        record_played_game(game, inputs_list, times=times, via=via, rate=False)
    else:
        for number, (inputs, moment) in enumerate(zip(inputs_list, times, strict=True), 1):
            record_hand(game, inputs, number=number, via=via, now=moment)
    writer.summary.games += 1
    writer.summary.hands += len(inputs_list)
    return clock
