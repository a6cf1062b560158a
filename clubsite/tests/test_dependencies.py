"""Dependencies point one way, followed through every module in between
(../shared/docs/design.md): `scoring` imports `members`, never the reverse; `clubsite`
is the frame (settings, urls, middleware that only wires) and its modules reach no app;
no import circle runs through `members` or `clubsite`, or between two packages.

Every import counts, also one inside a function (a lazy import is still a dependency);
a model named as a string (``apps.get_model``) or a signal another app answers is not an
import, which is how `members` reaches what `scoring` keeps.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("clubsite", "members", "scoring", "testsupport")

#: The frame's modules that may name the apps: the URL table and the settings wire them.
FRAME_WIRING = ("clubsite.urls", "clubsite.settings", "clubsite.wsgi")

#: Circles inside `scoring` from before this test (each inside one part of it). The list
#: only shrinks: a circle that is gone fails the test until it is taken off.
KNOWN_CIRCLES = {
    frozenset({"scoring.engine.rules.ruleset", "scoring.engine.rules.tables"}),
    frozenset({"scoring.models.games", "scoring.models.results", "scoring.models.rulesets"}),
    frozenset(
        {
            "scoring.results.ratings",
            "scoring.results.standings",
            "scoring.results.standings.individual",
            "scoring.results.standings.player",
        }
    ),
    frozenset({"scoring.devtools.league.days", "scoring.devtools.league.games"}),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules ``name`` imports (each package on the way counts: Python runs
    it), anywhere in the file. A package's own parents are left out: a module of
    ``scoring.models`` naming ``scoring.models`` is not a circle between parts."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([module] if module else [])])
            targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                candidate = ".".join(parts[:i])
                if (
                    candidate in known
                    and candidate != name
                    and not name.startswith(candidate + ".")
                ):
                    found.add(candidate)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    paths = {
        module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if ".venv" not in path.parts
    }
    known = set(paths)
    return {name: frozenset(imported(name, path, known)) for name, path in paths.items()}


def chain(start: str, forbidden) -> list[str] | None:
    """The shortest import chain from ``start`` to a module ``forbidden`` accepts."""
    edges = graph()
    before = {start: None}
    queue = [start]
    while queue:
        here = queue.pop(0)
        for there in sorted(edges[here]):
            if there in before:
                continue
            before[there] = here
            if forbidden(there):
                found = [there]
                while before[found[-1]] is not None:
                    found.append(before[found[-1]])
                return found[::-1]
            queue.append(there)
    return None


def offenders(sources, forbidden) -> list[str]:
    return [
        " -> ".join(found)
        for name in sorted(graph())
        if sources(name) and (found := chain(name, forbidden))
    ]


def in_package(*names):
    return lambda module: any(module == n or module.startswith(n + ".") for n in names)


def circles() -> set[frozenset[str]]:
    """Every import circle (Tarjan's strongly connected components of two or more)."""
    edges = graph()
    index, low, stack, on_stack, found = {}, {}, [], set(), set()

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.add(other)
                if other == node:
                    break
            if len(part) > 1:
                found.add(frozenset(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_lazy_and_relative_imports():
    edges = graph()
    # A lazy import inside a function (scoring.apps.ready) and a relative one.
    assert "scoring.play.receivers" in edges["scoring.apps"]
    assert {"scoring.engine.hand", "scoring.engine.rules.presets"} <= edges[
        "scoring.engine.contract"
    ]


def test_members_never_reaches_scoring():
    """Not directly, not through `clubsite` or any module in between."""
    found = offenders(in_package("members"), in_package("scoring"))
    assert not found, "members reaches scoring:\n" + "\n".join(found)


def test_the_frame_reaches_no_app():
    """`clubsite` (but its URL table and settings, which wire the apps) imports nothing
    of `members` or `scoring`, through any module."""

    def frame(module):
        return (
            in_package("clubsite")(module)
            and module not in FRAME_WIRING
            and not in_package("clubsite.tests", "clubsite.migrations")(module)
        )

    found = offenders(frame, in_package("members", "scoring"))
    assert not found, "the frame reaches an app:\n" + "\n".join(found)


def test_no_import_circle_through_members_or_clubsite():
    found = circles()
    touching = [
        sorted(part)
        for part in found
        if any(in_package("members", "clubsite", "testsupport")(m) for m in part)
        or len({m.split(".")[0] for m in part}) > 1
    ]
    assert not touching, f"import circles: {touching}"
    assert found <= KNOWN_CIRCLES, (
        f"new import circles: {[sorted(p) for p in found - KNOWN_CIRCLES]}"
    )
    gone = KNOWN_CIRCLES - found
    assert not gone, f"circles gone, take them off KNOWN_CIRCLES: {[sorted(p) for p in gone]}"


def test_the_play_services_never_reach_the_events_app():
    """Recording hands and starting games (`scoring.play`) do not depend on the events
    app (`scoring.tourney`), through any module: it connects its checks to the
    signals of `scoring.signals` when it starts."""
    found = offenders(in_package("scoring.play"), in_package("scoring.tourney"))
    assert not found, "scoring.play reaches scoring.tourney:\n" + "\n".join(found)
