"""Rules of the code that a reader of docs/development.md is told hold everywhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The start of an element or a closing tag.
TAG = re.compile(r"<[a-zA-Z][\w:-]*[\s>/]|</[a-zA-Z]")


def production_modules():
    for package in ("clubsite", "members", "scoring"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not {"tests", "migrations", "devtools"} & set(rel.split("/")):
                yield rel, ast.parse(path.read_text(), filename=rel)


def test_no_markup_is_built_in_f_strings():
    """Markup is a template (or a django-tables2 cell's ``format_html``, which escapes):
    an f-string puts its values in unescaped."""
    found = []
    for rel, tree in production_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
                if TAG.search(text):
                    found.append(f"{rel}:{node.lineno}")
    assert not found, f"markup built in f-strings (make it a template): {found}"
