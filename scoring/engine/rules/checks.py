"""Checking the values of a rule set's settings, alone and together.

Each check turns an entered value into the rule set's normal form (a schedule becomes a
sorted tuple of pairs, text is stripped) or explains, in a sentence for people, why it
cannot be used. :class:`~.ruleset.RuleSet` runs them on construction and
:func:`~.spec.rules_from_spec` on the overrides people type; neither raises from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._text import _, describe, num, sentence_list
from ..cards import CARD_VALUES, CARDS_IN_DECK, HAND_CARD_KEYS
from ..results import Refusal
from .fields import FIELDS_BY_NAME, MAX_POINTS, RULESET_FIELD_NAMES, RuleField
from .kinds import (
    CATALOGUE_BY_KEY,
    DEFAULT_KEYS,
    EXTRA_KEYS,
    SAME_CANASTAS,
    KindEntry,
    sort_entries,
)


def _check_count(spec: RuleField, value: object) -> tuple[object, str | None]:
    low, high = spec.minimum, spec.maximum
    if type(value) is int and low <= value <= high:
        return value, None
    return value, (
        _("%(label)s must be a whole number from %(num)s to %(num2)s, not %(describe)s.")
        % {"label": _(spec.label), "num": num(low), "num2": num(high), "describe": describe(value)}
    )


def _check_points(spec: RuleField, value: object) -> tuple[object, str | None]:
    low, high = spec.minimum, spec.maximum
    if type(value) is int and low <= value <= high and value % 5 == 0:
        return value, None
    return value, (
        _(
            "%(label)s must be a whole number of points, a multiple of 5, "
            "from %(num)s to %(num2)s, not %(describe)s."
        )
        % {"label": _(spec.label), "num": num(low), "num2": num(high), "describe": describe(value)}
    )


def _check_bool(spec: RuleField, value: object) -> tuple[object, str | None]:
    if type(value) is bool:
        return value, None
    return value, _("%(label)s must be true or false, not %(describe)s.") % {
        "label": _(spec.label),
        "describe": describe(value),
    }


def _check_text(spec: RuleField, value: object) -> tuple[object, str | None]:
    if isinstance(value, str) and value.strip() and len(value) <= 100:
        return value.strip(), None
    return value, _("%(label)s must be text of 1 to 100 characters, not %(describe)s.") % {
        "label": _(spec.label),
        "describe": describe(value),
    }


def _check_choice(spec: RuleField, value: object) -> tuple[object, str | None]:
    values = [choice for choice, _ in spec.choices]
    if isinstance(value, str) and value in values:
        return value, None
    listed = sentence_list(values, "or")
    return value, _("%(label)s must be one of %(listed)s, not %(describe)s.") % {
        "label": _(spec.label),
        "listed": listed,
        "describe": describe(value),
    }


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
    wrong = _(
        "%(label)s must be a list of [number of red threes, total "
        "points] pairs, such as [[4, 800]], with each number of red "
        "threes once and totals that are multiples of 5."
    ) % {"label": _(spec.label)}
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
    wrong = _(
        "%(label)s must be a list of [from score, minimum] rows in "
        "rising order, the first starting at null, such as [[null, 15], "
        "[0, 50], [1500, 90], [3000, 120]]; minimums are multiples of 5."
    ) % {"label": _(spec.label)}
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


def _points(value: object, high: int = MAX_POINTS) -> bool:
    return type(value) is int and 0 <= value <= high and not value % 5


_KIND_LIST = sentence_list(list(EXTRA_KEYS), "or")
_KIND_ENTRY_KEYS = frozenset({"kind", "bonus", "unfinished", "held", "blocks_going_out", "label"})


def _check_kinds(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = _(
        '%(label)s must be a list of kinds, each such as {"kind": '
        '"sevens", "bonus": 2500, "unfinished": 2500}: the kind one of '
        "%(kind_list)s, each once, with points that are multiples of 5."
    ) % {"label": _(spec.label), "kind_list": _KIND_LIST}
    if not isinstance(value, (list, tuple)):
        return value, wrong
    entries: list[KindEntry] = []
    for item in value:
        if isinstance(item, KindEntry):
            item = item._asdict()
        if not isinstance(item, Mapping) or not _KIND_ENTRY_KEYS.issuperset(item):
            return value, wrong
        kind = item.get("kind")
        if not isinstance(kind, str) or kind not in EXTRA_KEYS:
            if isinstance(kind, str) and kind in DEFAULT_KEYS:
                return value, (
                    _(
                        "%(label)s lists %(kind)s canastas, whose bonus is a setting of "
                        "its own; leave them out of this list."
                    )
                    % {"label": _(spec.label), "kind": kind}
                )
            return value, wrong
        if any(entry.kind == kind for entry in entries):
            return value, wrong
        numbers = [item.get(key, 0) for key in ("bonus", "unfinished", "held")]
        if "bonus" not in item or not all(_points(n) for n in numbers):
            return value, wrong
        blocks = item.get("blocks_going_out", False)
        label = item.get("label", "")
        if type(blocks) is not bool or not isinstance(label, str) or len(label) > 60:
            return value, wrong
        if numbers[2] and CATALOGUE_BY_KEY[kind].rank is None:
            return value, (
                _(
                    "%(label)s: only a kind of one rank (sevens, aces) can have a "
                    "penalty for holding three or more of it; take it off %(kind)s."
                )
                % {"label": _(spec.label), "kind": kind}
            )
        entries.append(KindEntry(kind, *numbers, blocks, label.strip()))
    if all(any(entry.kind == key for entry in entries) for key in SAME_CANASTAS):
        return value, (
            _(
                "%(label)s lists both wild and bolivia canastas, which are the "
                "same canastas (seven wild cards); keep one of them."
            )
            % {"label": _(spec.label)}
        )
    return sort_entries(entries), None


_ALL_KIND_KEYS = (*DEFAULT_KEYS, *EXTRA_KEYS)


def _check_kind_counts(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = _(
        "%(label)s must be a list of [kind, number] pairs, such as "
        '[["sequence", 1]], each kind (%(sentence_list)s) once, numbers '
        "from 1 to 30."
    ) % {"label": _(spec.label), "sentence_list": sentence_list(list(_ALL_KIND_KEYS), "or")}
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, (list, tuple)):
        return value, wrong
    found: dict[str, int] = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return value, wrong
        kind, count = pair
        if not isinstance(kind, str) or kind not in CATALOGUE_BY_KEY or kind in found:
            return value, wrong
        if type(count) is not int or not 1 <= count <= 30:
            return value, wrong
        found[kind] = count
    order = list(CATALOGUE_BY_KEY)
    return tuple(sorted(found.items(), key=lambda pair: order.index(pair[0]))), None


def _check_card_values(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = _(
        "%(label)s must give points for cards by name (%(join)s), such "
        'as {"joker": 50, "3": 5}: whole numbers from 0 to 1,000, '
        "multiples of 5; a card not given keeps its usual value."
    ) % {"label": _(spec.label), "join": ", ".join(HAND_CARD_KEYS)}
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, (list, tuple)):
        return value, wrong
    found = dict(CARD_VALUES)
    seen: set[str] = set()
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return value, wrong
        card, points = pair
        if not isinstance(card, str) or card not in found or card in seen:
            return value, wrong
        if not _points(points, 1000):
            return value, wrong
        found[card] = points
        seen.add(card)
    return tuple((card, found[card]) for card in HAND_CARD_KEYS), None


def _check_minimums(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = _(
        "%(label)s must be a list of minimums, one for each hand in "
        "order, such as [50, 90, 120, 150]: whole numbers that are "
        "multiples of 5 (at most 100 of them)."
    ) % {"label": _(spec.label)}
    if not isinstance(value, (list, tuple)) or len(value) > 100:
        return value, wrong
    if not all(_points(minimum) for minimum in value):
        return value, wrong
    return tuple(value), None


def _check_special_hands(spec: RuleField, value: object) -> tuple[object, str | None]:
    wrong = _(
        "%(label)s must be a list of [name, points] pairs, such as "
        '[["straight", 3000]]: each name once, in small letters, digits '
        "and _ (at most 30), points that are multiples of 5."
    ) % {"label": _(spec.label)}
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, (list, tuple)) or len(pairs) > 20:
        return value, wrong
    found: dict[str, int] = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return value, wrong
        name, points = pair
        if not isinstance(name, str) or name in found or not _is_name(name):
            return value, wrong
        if not _points(points):
            return value, wrong
        found[name] = points
    return tuple(found.items()), None


def _is_name(text: str) -> bool:
    allowed = "abcdefghijklmnopqrstuvwxyz0123456789_"
    return 0 < len(text) <= 30 and all(c in allowed for c in text) and text[0].isalpha()


_CHECKS: dict[str, Callable[[RuleField, object], tuple[object, str | None]]] = {
    "text": _check_text,
    "count": _check_count,
    "points": _check_points,
    "bool": _check_bool,
    "schedule": _check_schedule,
    "schedule_or_null": _check_schedule,
    "meld_table": _check_meld_table,
    "choice": _check_choice,
    "kinds": _check_kinds,
    "kind_counts": _check_kind_counts,
    "card_values": _check_card_values,
    "minimums": _check_minimums,
    "special_hands": _check_special_hands,
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
                _(
                    "%(num)s players do not make %(num2)s teams of %(num3)s; make "
                    "players equal to teams times players per team."
                )
                % {"num": num(players), "num2": num(teams), "num3": num(per_team)},
            )
        )
    decks, dealt = values["decks"], values["cards_dealt"]
    if players * dealt >= CARDS_IN_DECK * decks:
        errors.append(
            Refusal(
                "rules.cards_dealt",
                _(
                    "Dealing %(num)s cards to each of %(num2)s players needs more "
                    "cards than %(num3)s decks hold; deal fewer cards or use more "
                    "decks."
                )
                % {"num": num(dealt), "num2": num(players), "num3": num(decks)},
            )
        )
    errors.extend(_check_going_out_kinds(values))
    return errors


def _check_going_out_kinds(values: dict[str, object]) -> list[Refusal]:
    """The kinds needed to go out are kinds of the game, and fit in the canastas needed."""
    have = {*DEFAULT_KEYS, *(entry.kind for entry in values["canasta_kinds"])}
    errors = []
    missing = [kind for kind, _ in values["going_out_kinds"] if kind not in have]
    if missing:
        errors.append(
            Refusal(
                "rules.going_out_kinds",
                _(
                    "Going out needs %(sentence_list)s canastas, which this game "
                    "does not have; add them to the other kinds of canasta or take "
                    "them out of going out."
                )
                % {"sentence_list": sentence_list(missing)},
            )
        )
    kinds_needed = sum(count for _, count in values["going_out_kinds"])
    if kinds_needed > values["canastas_to_go_out"]:
        errors.append(
            Refusal(
                "rules.canastas_to_go_out",
                _(
                    "Going out needs %(num)s canastas of particular kinds but only "
                    "%(num2)s canastas in all; make the canastas needed to go out at "
                    "least %(num)s."
                )
                % {"num": num(kinds_needed), "num2": num(values["canastas_to_go_out"])},
            )
        )
    if 0 < values["max_meld_cards"] < 7:
        errors.append(
            Refusal(
                "rules.max_meld_cards",
                _(
                    "A meld of at most %(num)s cards can never be a canasta; allow "
                    "at least 7 cards, or 0 for no limit."
                )
                % {"num": num(values["max_meld_cards"])},
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
