"""The engine is pure: it imports nothing of Django or of the project, and reads no clock."""

from __future__ import annotations

import ast
from pathlib import Path

import scoring.engine

ENGINE_DIR = Path(scoring.engine.__file__).parent
FORBIDDEN_PACKAGES = {"django", "clubsite", "members", "scoring"}
FORBIDDEN_MODULES = {"time", "datetime", "random", "importlib", "os", "sqlite3"}


def imported_modules(tree: ast.AST) -> list[tuple[int, str, int]]:
    """(line, module, relative level) for every import and every __import__() call."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, node.module or "", node.level))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"__import__", "import_module", "exec", "eval"}
        ):
            found.append((node.lineno, f"{node.func.id}()", 0))
    return found


def engine_sources() -> list[Path]:
    paths = sorted(ENGINE_DIR.rglob("*.py"))
    assert ENGINE_DIR / "__init__.py" in paths and len(paths) >= 5
    return paths


def test_the_engine_imports_nothing_of_django_or_the_project():
    problems = []
    for path in engine_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        depth = len(path.relative_to(ENGINE_DIR).parts) - 1  # subpackages may go up to engine
        for line, module, level in imported_modules(tree):
            top = module.split(".")[0]
            where = f"{path.relative_to(ENGINE_DIR)}:{line}: {module or '.'}"
            if module.endswith("()"):
                problems.append(f"{where} (dynamic import)")
            elif level == 0 and top in FORBIDDEN_PACKAGES:
                problems.append(f"{where} (the engine must not import {top})")
            elif level == 0 and top in FORBIDDEN_MODULES:
                problems.append(f"{where} (no clock, randomness or environment in the engine)")
            elif level > depth + 1:
                problems.append(f"{where} (a relative import that leaves the engine)")
    assert problems == []


def test_the_checker_catches_forbidden_imports():
    samples = {
        "import django": "django",
        "from django.db import models": "django",
        "from members.models import Person": "members",
        "from scoring.models import Game": "scoring",
        "from .. import models": "",
        "import time": "time",
    }
    for source, module in samples.items():
        found = imported_modules(ast.parse(source))
        assert found and found[0][1].split(".")[0] == module


def test_the_package_says_it_is_pure():
    doc = scoring.engine.__doc__ or ""
    assert "pure" in doc and "database" in doc
