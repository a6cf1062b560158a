"""scoring/events is pure like the engine: nothing of Django or the project, no clock;
randomness only through a seeded ``random.Random``."""

from __future__ import annotations

import ast
from pathlib import Path

import scoring.events
from scoring.tests.engine.test_purity import FORBIDDEN_PACKAGES, imported_modules

EVENTS_DIR = Path(scoring.events.__file__).parent
# The engine's list less `random`: a seeded draw is the point of a movement.
FORBIDDEN_MODULES = {"time", "datetime", "importlib", "os", "sqlite3"}


def sources() -> list[Path]:
    paths = sorted(EVENTS_DIR.rglob("*.py"))
    assert {p.name for p in paths} >= {"__init__.py", "movements.py", "ranking.py"}
    return paths


def problems_in(tree: ast.AST, name: str) -> list[str]:
    problems = []
    for line, module, level in imported_modules(tree):
        top = module.split(".")[0]
        if module.endswith("()") or level > 1:
            problems.append(f"{name}:{line}: {module or '.'} (leaves scoring/events)")
        elif level == 0 and (top in FORBIDDEN_PACKAGES or top in FORBIDDEN_MODULES):
            problems.append(f"{name}:{line}: {module}")
    for node in ast.walk(tree):  # random only as random.Random(seed)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            problems.append(f"{name}:{node.lineno}: random.{node.attr} (unseeded)")
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            problems.append(f"{name}:{node.lineno}: from random import …")
    return problems


def test_scoring_events_imports_nothing_of_django_or_the_project():
    problems = []
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        problems += problems_in(tree, path.name)
    assert problems == []


def test_the_checker_catches_django_the_project_a_clock_and_unseeded_randomness():
    for source in (
        "import django",
        "from scoring.models import Game",
        "from members import draw",
        "import datetime",
        "import random\nrandom.shuffle(x)",
        "from random import shuffle",
        "from .. import engine",
    ):
        assert problems_in(ast.parse(source), "x.py"), source
    assert problems_in(ast.parse("import random\nrandom.Random(1)"), "x.py") == []
