"""Checking the values of a rule set's settings, alone and together.

Each check turns an entered value into the rule set's normal form (a schedule becomes a
sorted tuple of pairs, text is stripped) or explains, in a sentence for people, why it
cannot be used. :class:`~.ruleset.RuleSet` runs them on construction and
:func:`~.spec.rules_from_spec` on the overrides people type; neither raises from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._text import describe, num, sentence_list
from ..cards import CARDS_IN_DECK
from ..results import Refusal
from .fields import FIELDS_BY_NAME, MAX_POINTS, RULESET_FIELD_NAMES, RuleField


def _check_count(spec: RuleField, value: object) -> tuple[object, str | None]:
    low, high = spec.minimum, spec.maximum
    if type(value) is int and low <= value <= high:
        return value, None
    return value, (
        f"{spec.label} must be a whole number from {num(low)} to {num(high)}, "
        f"not {describe(value)}."
    )


def _check_points(spec: RuleField, value: object) -> tuple[object, str | None]:
    low, high = spec.minimum, spec.maximum
    if type(value) is int and low <= value <= high and value % 5 == 0:
        return value, None
    return value, (
        f"{spec.label} must be a whole number of points, a multiple of 5, from {num(low)} "
        f"to {num(high)}, not {describe(value)}."
    )


def _check_bool(spec: RuleField, value: object) -> tuple[object, str | None]:
    if type(value) is bool:
        return value, None
    return value, f"{spec.label} must be true or false, not {describe(value)}."


def _check_text(spec: RuleField, value: object) -> tuple[object, str | None]:
    if isinstance(value, str) and value.strip() and len(value) <= 100:
        return value.strip(), None
    return value, f"{spec.label} must be text of 1 to 100 characters, not {describe(value)}."


def _check_choice(spec: RuleField, value: object) -> tuple[object, str | None]:
    values = [choice for choice, _ in spec.choices]
    if isinstance(value, str) and value in values:
        return value, None
    listed = sentence_list(values, "or")
    return value, f"{spec.label} must be one of {listed}, not {describe(value)}."


def _whole(value: object) -> int | None:
    """``value`` if it is a whole number (not true/false), else None."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)  # JSON object keys are always text: {"4": 800}
    return None


def _check_schedule(spec: RuleField, value: object) -> tuple[object, str | None]:
    if value is None and spec.type == "schedule_or_null":
        return None, None
    wrong = (
        f"{spec.label} must be a list of [number of red threes, total points] pairs, "
        f"such as [[4, 800]], with each number of red threes once and totals that are "
        f"multiples of 5."
    )
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, (list, tuple)):
        pairs = list(value)
    else:
        return value, wrong
    result: dict[int, int] = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return value, wrong
        count, total = _whole(pair[0]), pair[1]
        if count is None or not 1 <= count <= 100 or count in result:
            return value, wrong
        if type(total) is not int or not 0 <= total <= MAX_POINTS or total % 5:
            return value, wrong
        result[count] = total
    return tuple(sorted(result.items())), None


def _check_meld_table(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = (
        f"{spec.label} must be a list of [from score, minimum] rows in rising order, "
        f"the first starting at null, such as [[null, 15], [0, 50], [1500, 90], "
        f"[3000, 120]]; minimums are multiples of 5."
    )
    if not isinstance(value, (list, tuple)) or not value:
        return value, wrong
    rows: list[tuple[int | None, int]] = []
    for index, row in enumerate(value):
        if not isinstance(row, (list, tuple)) or len(row) != 2:
            return value, wrong
        threshold, minimum = row
        if index == 0:
            if threshold is not None:
                return value, wrong
        elif (
            type(threshold) is not int
            or abs(threshold) > MAX_POINTS * 100
            or index > 1
            and threshold <= rows[-1][0]
        ):
            return value, wrong
        if type(minimum) is not int or not 0 <= minimum <= MAX_POINTS or minimum % 5:
            return value, wrong
        rows.append((threshold, minimum))
    return tuple(rows), None


_CHECKS: dict[str, Callable[[RuleField, object], tuple[object, str | None]]] = {
    "text": _check_text,
    "count": _check_count,
    "points": _check_points,
    "bool": _check_bool,
    "schedule": _check_schedule,
    "schedule_or_null": _check_schedule,
    "meld_table": _check_meld_table,
    "choice": _check_choice,
}


def check_value(name: str, value: object) -> tuple[object, Refusal | None]:
    """Check one setting alone: (normal form, None), or (the value as given, a refusal)."""
    spec = FIELDS_BY_NAME[name]
    normalised, message = _CHECKS[spec.type](spec, value)
    if message is None:
        return normalised, None
    return value, Refusal(f"rules.{name}", message)


def check_together(values: dict[str, object]) -> list[Refusal]:
    """Checks that involve more than one setting (each value already checked alone)."""
    errors = []
    players, teams, per_team = values["players"], values["teams"], values["players_per_team"]
    if players != teams * per_team:
        errors.append(
            Refusal(
                "rules.players",
                f"{num(players)} players do not make {num(teams)} teams of "
                f"{num(per_team)}; make players equal to teams times players per team.",
            )
        )
    decks, dealt = values["decks"], values["cards_dealt"]
    if players * dealt >= CARDS_IN_DECK * decks:
        errors.append(
            Refusal(
                "rules.cards_dealt",
                f"Dealing {num(dealt)} cards to each of {num(players)} players needs more "
                f"cards than {num(decks)} decks hold; deal fewer cards or use more decks.",
            )
        )
    return errors


def check_values(values: dict[str, object]) -> tuple[dict[str, object], list[Refusal]]:
    """Check and normalise a full set of values; the refusals name ``rules.<field>``."""
    errors: list[Refusal] = []
    result: dict[str, object] = {}
    for name in RULESET_FIELD_NAMES:
        value, error = check_value(name, values[name])
        if error is not None:
            errors.append(error)
        result[name] = value
    if not errors:
        errors.extend(check_together(result))
    return result, errors
