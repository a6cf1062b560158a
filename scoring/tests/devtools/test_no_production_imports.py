"""Production code never imports the developer tooling (``scoring/devtools/``): only
the tooling itself, its two commands (``benchmark``, ``generate_league``) and test code
may. Every project .py file is parsed with ``ast`` (nothing is imported), so an import
anywhere in a module — at the top, inside a function, relative, or by dotted name in a
string such as ``ROOT_URLCONF`` or ``import_module`` — is found."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TOOLING = "scoring.devtools"
ALLOWED = {
    "scoring/management/commands/benchmark.py",
    "scoring/management/commands/generate_league.py",
}
SKIPPED_DIRS = {"__pycache__", "node_modules", "staticfiles"}
DOTTED = re.compile(r"scoring\.devtools(\.\w+)*")


def _is_tooling(name: str) -> bool:
    return name == TOOLING or name.startswith(TOOLING + ".")


def _may_import(relative: str) -> bool:
    parts = relative.split("/")
    return (
        relative.startswith("scoring/devtools/")
        or relative in ALLOWED
        or "tests" in parts[:-1]
        or parts[-1] == "conftest.py"
        or parts[-1].startswith("test_")
    )


def _package(relative: str) -> list[str]:
    """The dotted package a module's relative imports start from."""
    return relative.removesuffix(".py").split("/")[:-1]


def tooling_imports(source: str, relative: str) -> list[str]:
    """What the module at ``relative`` (a path from the project root) imports of the
    tooling, one description per import."""
    found = []
    for node in ast.walk(ast.parse(source, filename=relative)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if _is_tooling(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = _package(relative)[: len(_package(relative)) - node.level + 1]
            module = ".".join([*(base if node.level else []), *filter(None, [node.module])])
            names = [f"{module}.{a.name}" for a in node.names]
            if _is_tooling(module) or any(_is_tooling(n) for n in names):
                found.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''}")
        elif isinstance(node, ast.Constant) and DOTTED.fullmatch(str(node.value)):
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


def _project_files():
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if any(p.startswith(".") or p in SKIPPED_DIRS for p in relative.parts[:-1]):
            continue
        yield path, relative.as_posix()


def test_production_code_never_imports_the_tooling():
    checked, offenders = 0, []
    for path, relative in _project_files():
        if _may_import(relative):
            continue
        checked += 1
        offenders += [f"{relative}: {hit}" for hit in tooling_imports(path.read_text(), relative)]
    assert checked > 50  # the walk really found the project
    assert offenders == [], "production code imports scoring.devtools:\n" + "\n".join(offenders)


def test_every_way_of_importing_the_tooling_is_found():
    where = "scoring/results/views.py"
    for source in (
        "import scoring.devtools.bench",
        "from scoring.devtools.league.generate import generate_league",
        "from scoring import devtools",
        "from .. import devtools",
        "from ..devtools.simulate import play_game",
        "def f():\n    from scoring.devtools import simulate",
        "ROOT_URLCONF = 'scoring.devtools.urls'",
    ):
        assert tooling_imports(source, where), source
    for source in (
        "from scoring import engine",
        "from . import devtools",  # scoring.results.devtools: another module
        "import scoring.devtoolsmith",
        '"""Never imported by production code, unlike scoring.devtools."""',
    ):
        assert not tooling_imports(source, where), source


def test_the_tooling_commands_do_import_it():
    for relative in sorted(ALLOWED):
        assert tooling_imports((ROOT / relative).read_text(), relative), relative
