"""The pure partnership rules: seat order, the dealer of each hand, the club's draw.

These tests use plain objects and no database (pytest-django refuses a query here)."""

import ast
import inspect
from types import SimpleNamespace

import pytest

from scoring.models import Game
from scoring.play import partnerships
from scoring.play.services.errors import GameSetupError


def test_partnerships_imports_nothing_of_the_database():
    tree = ast.parse(inspect.getsource(partnerships))
    modules = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    ]
    assert not [m for m in modules if m and (m.startswith("django") or m.endswith("models"))]


def test_seat_order_and_dealer():
    rows = [
        SimpleNamespace(person_id=30, seat=3, pk=1),
        SimpleNamespace(person_id=10, seat=1, pk=2),
        SimpleNamespace(person_id=40, seat=4, pk=3),
        SimpleNamespace(person_id=20, seat=2, pk=4),
    ]
    order = partnerships.seat_order(rows)
    assert order == [10, 20, 30, 40]
    # The game deals from its first dealer clockwise in that order (an unsaved row).
    game = Game(first_dealer_id=30)
    assert [game.dealer_for(n, order) for n in (1, 2, 3, 5)] == [30, 40, 10, 30]
    assert Game(first_dealer_id=99).dealer_for(2, order) == 20
    assert game.dealer_for(1, []) is None


def test_club_partnerships_and_keeper_neighbours():
    ann, bob, cat, dan = "ann", "bob", "cat", "dan"
    assert partnerships.keeper_neighbours([ann, bob, cat, dan], ann) == (bob, dan)
    assert partnerships.club_partnerships([ann, bob, cat, dan], ann, dan) == [
        [ann, dan],
        [cat, bob],
    ]
    with pytest.raises(GameSetupError, match="tables of four"):
        partnerships.club_partnerships([ann, bob, cat], ann, bob)
    with pytest.raises(GameSetupError, match="left and to the right"):
        partnerships.club_partnerships([ann, bob, cat, dan], ann, cat)
