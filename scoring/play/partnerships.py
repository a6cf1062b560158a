"""Who sits where and who partners whom, as pure rules: the seat order of a game and
the club's partner draw for the next game (who deals each hand is the game's own:
``Game.dealer_for``, given the seat order from here).

Nothing here reads or writes the database: the functions take players (or anything with
``person_id``, ``seat`` and ``pk``) and return ids or people, so the services, the views
and the league generator all share one implementation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def seated(players: Iterable) -> list:
    """A game's TeamPlayer rows clockwise from game seat 1."""
    return sorted(players, key=lambda p: (p.seat or 0, p.pk or 0))


def seat_order(players: Iterable) -> list[int]:
    """Person ids clockwise from game seat 1 (``players``: a game's TeamPlayer rows)."""
    return [p.person_id for p in seated(players)]


def club_partnerships(seat_order_people: Sequence, score_keeper, high_card) -> list[list]:
    """The club's rule for the next game (seed 002): the players to the right and to the
    left of the score keeper draw a card, and the one with the higher card partners the
    score keeper; the other two play together.

    ``seat_order_people`` is the four players clockwise (each player's left is the next
    one clockwise); ``high_card`` the player (left or right of the keeper) who drew
    higher. Returns ``[[score_keeper, high_card], [across, other]]``.
    """
    # The services package re-exports these rules: its error is imported here, when
    # needed, so that either module can be loaded first.
    from scoring.play.services.errors import GameSetupError

    people = list(seat_order_people)
    if len(people) != 4:
        raise GameSetupError(
            "The club's partnership draw is for tables of four; choose the partners instead."
        )
    if score_keeper not in people:
        raise GameSetupError("The score keeper must be one of the four players.")
    k = people.index(score_keeper)
    left, across, right = people[(k + 1) % 4], people[(k + 2) % 4], people[(k + 3) % 4]
    if high_card not in (left, right):
        raise GameSetupError(
            "Only the players to the left and to the right of the score keeper draw; "
            "choose one of them as the high card."
        )
    other = right if high_card == left else left
    return [[score_keeper, high_card], [across, other]]


def keeper_neighbours(seat_order_people: Sequence, score_keeper) -> tuple:
    """(left, right) of the score keeper in a clockwise seat order of four players."""
    people = list(seat_order_people)
    k = people.index(score_keeper)
    return people[(k + 1) % len(people)], people[(k - 1) % len(people)]
