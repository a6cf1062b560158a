"""Small helpers that write numbers and entered values into messages for score keepers.

They never fail, whatever they are given: a value from the outside world may be a huge
integer (``str()`` refuses very long ones), a deeply nested list (``repr()`` could recurse)
or anything else, so only scalars are ever shown and long text is cut short.
"""

from __future__ import annotations

_BIG = 10**15


def num(n: int) -> str:
    """``1180`` -> ``"1,180"``; absurdly large numbers are not spelled out."""
    if -_BIG < n < _BIG:
        return f"{n:,}"
    return "an impossibly large number"


def plural(n: int, one: str, many: str | None = None) -> str:
    """``plural(1, "canasta")`` -> ``"1 canasta"``; ``plural(2, "canasta")`` -> ``"2 canastas"``."""
    if n == 1:
        return f"1 {one}"
    return f"{num(n)} {many if many is not None else one + 's'}"


def describe(value: object) -> str:
    """A short description of an entered value, e.g. ``"35.5"``, ``'the text "ten"'``."""
    if value is None:
        return "an empty entry"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return num(value)
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            return "a value that is not a number"
        if abs(value) < _BIG:
            return repr(value)
        return "an impossibly large number"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a value of the wrong kind"


def quote(text: str) -> str:
    """Entered text in double quotes, cut short when long."""
    shown = text if len(text) <= 30 else text[:27] + "..."
    return '"' + shown.replace('"', "'") + '"'


def sentence_list(items: list[str], last: str = "and") -> str:
    """``["1", "2", "3"]`` -> ``"1, 2 and 3"`` (or ``"1, 2 or 3"`` with ``last="or"``)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def key_name(key: object) -> str:
    """A dictionary key as it may appear in a field path."""
    if isinstance(key, str):
        return key if len(key) <= 40 else key[:37] + "..."
    return "?"
