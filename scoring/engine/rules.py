"""Rule sets: every setting in which the sources of canasta disagree, and the presets.

A :class:`RuleSet` is frozen and always valid: constructing one with impossible values
raises ``ValueError``, and :func:`rules_from_spec` turns a preset name or an object of
overrides into a rule set or a list of refusals (it never raises). A game keeps a copy
of its rule set (:meth:`RuleSet.to_dict`), so later changes never rescore old games.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ._text import describe, key_name, num, quote, sentence_list
from .cards import (
    CARD_POINTS_PER_DECK,
    CARDS_IN_DECK,
    CARDS_PER_DECK,
    RED_THREES_PER_DECK,
)
from .results import Refusal

#: Upper bound for any points setting: far above any real value, and well inside the
#: integer columns of a database.
MAX_POINTS = 1_000_000


class RuleField(NamedTuple):
    """Describes one setting of a rule set, so that a form or a README can be generated.

    ``type`` is one of:

    - ``"text"``: a short piece of text;
    - ``"count"``: a whole number (``minimum`` to ``maximum``);
    - ``"points"``: a whole number of points, a multiple of 5 (``minimum`` to ``maximum``);
    - ``"bool"``: true or false;
    - ``"schedule"``: a list of ``[number of red threes, total points]`` pairs;
    - ``"schedule_or_null"``: the same, or null;
    - ``"meld_table"``: a list of ``[from score, minimum]`` rows, the first from null.
    """

    name: str
    type: str
    label: str
    help: str
    minimum: int | None = None
    maximum: int | None = None


RULESET_FIELDS: tuple[RuleField, ...] = (
    RuleField("name", "text", "Short name", "A short name for the rule set, such as 'club'."),
    RuleField("label", "text", "Title", "The rule set's title as players see it."),
    RuleField("players", "count", "Players", "Players at the table.", 2, 12),
    RuleField("teams", "count", "Teams", "Teams (partnerships) that score.", 2, 6),
    RuleField(
        "players_per_team",
        "count",
        "Players per team",
        "Players in each team; 1 means every player scores alone.",
        1,
        4,
    ),
    RuleField("decks", "count", "Decks", "Decks shuffled together, each with 2 jokers.", 1, 6),
    RuleField("cards_dealt", "count", "Cards dealt", "Cards dealt to each player.", 1, 30),
    RuleField(
        "natural_canasta_bonus",
        "points",
        "Natural canasta bonus",
        "Bonus for each canasta without wild cards (its cards count on top).",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "mixed_canasta_bonus",
        "points",
        "Mixed canasta bonus",
        "Bonus for each canasta with wild cards (its cards count on top).",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "red_three_value",
        "points",
        "Red three value",
        "Points for each red three when the schedule does not list that number of red threes.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "red_three_schedule",
        "schedule",
        "Red three schedule",
        "Totals for special numbers of red threes, as [number, total] pairs: "
        "all four count 800 with two decks.",
    ),
    RuleField(
        "red_three_schedule_without_meld",
        "schedule_or_null",
        "Red three schedule without a meld",
        "Totals taken off a team that has not melded, as [number, total] pairs; "
        "null means the same amounts as the schedule above (some games use 400 for four).",
    ),
    RuleField(
        "red_threes_negative_without_meld",
        "bool",
        "Red threes count minus without a meld",
        "If on, a team that has not melded loses its red threes' value instead of gaining it.",
    ),
    RuleField(
        "going_out_bonus",
        "points",
        "Going out bonus",
        "Bonus for the team that goes out.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "concealed_bonus",
        "points",
        "Concealed going out bonus",
        "Bonus, in all (not on top of the going out bonus), for going out concealed.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "canastas_to_go_out",
        "count",
        "Canastas needed to go out",
        "Canastas a team must have before one of its players may go out.",
        0,
        10,
    ),
    RuleField(
        "initial_meld_table",
        "meld_table",
        "Initial meld requirement",
        "Minimum count of a team's first meld, by its score before the hand, as "
        "[from score, minimum] rows: the first row starts at null (any lower score).",
    ),
    RuleField(
        "failed_meld_increase",
        "points",
        "Failed initial meld increase",
        "How much the minimum rises for the rest of the hand after a failed initial meld.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "target_score",
        "points",
        "Game target",
        "Cumulative score that ends the game at the end of a hand.",
        5,
        MAX_POINTS,
    ),
    RuleField(
        "perfect_cut_enabled",
        "bool",
        "Perfect cut bonus",
        "If on, the team of a player who cuts exactly the cards needed for the deal "
        "scores the perfect cut bonus in that hand.",
    ),
    RuleField(
        "perfect_cut_bonus",
        "points",
        "Perfect cut bonus points",
        "Points for a perfect cut, when the perfect cut bonus is on.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_ask_to_go_out",
        "points",
        "Penalty: failed to go out after asking",
        "Taken off a team whose player asked 'May I go out?', got yes, then did not go out.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_discard_unused",
        "points",
        "Penalty: top discard not used",
        "Taken off a team whose player took the top discard and then could not use it.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_red_three_in_hand",
        "points",
        "Penalty: red three kept in hand",
        "Taken off a team for each red three kept in a hand instead of placed on the table.",
        0,
        MAX_POINTS,
    ),
    RuleField(
        "max_wild_per_meld",
        "count",
        "Most wild cards in a meld",
        "The most jokers and twos one meld (or canasta) may hold.",
        0,
        10,
    ),
    RuleField(
        "min_naturals_per_meld",
        "count",
        "Fewest natural cards in a meld",
        "The fewest natural cards (not jokers or twos) a meld must hold.",
        1,
        7,
    ),
    RuleField(
        "wilds_may_not_outnumber_naturals",
        "bool",
        "Wild cards may not outnumber naturals",
        "Club option: a meld may hold as many wild cards as natural cards, never more.",
    ),
    RuleField(
        "black_three_meld",
        "bool",
        "Black threes may be melded when going out",
        "If on, the player going out may meld 3 or 4 black threes, with no wild card.",
    ),
)

#: Field names in order, for quick checks.
RULESET_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in RULESET_FIELDS)
_FIELDS_BY_NAME: dict[str, RuleField] = {f.name: f for f in RULESET_FIELDS}


@dataclass(frozen=True, slots=True)
class DeckTotals:
    """What the decks of a rule set hold: the limits that make a hand possible or not."""

    decks: int
    cards: int
    red_threes: int
    card_points: int
    per_natural_rank: int
    black_threes: int
    twos: int
    jokers: int

    def limit(self, card: str) -> int:
        """How many of ``card`` (a key of ``HAND_CARD_KEYS``) the decks hold."""
        return CARDS_PER_DECK[card] * self.decks


class _Derived:
    """Tables precomputed once per rule set so that scoring a hand stays cheap."""

    __slots__ = (
        "deck",
        "limits",
        "red_melded",
        "red_unmelded",
        "meld_thresholds",
        "meld_minimums",
        "team_word",
        "teams_word",
        "going_out",
        "canastas_needed",
        "penalties",
    )

    def __init__(self, rules: RuleSet) -> None:
        decks = rules.decks
        self.deck = DeckTotals(
            decks=decks,
            cards=CARDS_IN_DECK * decks,
            red_threes=RED_THREES_PER_DECK * decks,
            card_points=CARD_POINTS_PER_DECK * decks,
            per_natural_rank=CARDS_PER_DECK["A"] * decks,
            black_threes=CARDS_PER_DECK["3"] * decks,
            twos=CARDS_PER_DECK["2"] * decks,
            jokers=CARDS_PER_DECK["joker"] * decks,
        )
        self.limits = {key: n * decks for key, n in CARDS_PER_DECK.items()}
        most = RED_THREES_PER_DECK * decks
        schedule = dict(rules.red_three_schedule)
        without = (
            schedule
            if rules.red_three_schedule_without_meld is None
            else dict(rules.red_three_schedule_without_meld)
        )
        value = rules.red_three_value
        # Index = number of red threes held; the value added to the team's hand score.
        self.red_melded = tuple(schedule.get(n, n * value) for n in range(most + 1))
        if rules.red_threes_negative_without_meld:
            self.red_unmelded = tuple(-without.get(n, n * value) for n in range(most + 1))
        else:
            self.red_unmelded = self.red_melded
        # For bisect: the minimum of a score is meld_minimums[bisect_right(thresholds, score)].
        self.meld_thresholds = tuple(t for t, _ in rules.initial_meld_table[1:])
        self.meld_minimums = tuple(m for _, m in rules.initial_meld_table)
        # Indexed by went_out (0 none, 1 out, 2 concealed).
        self.going_out = (0, rules.going_out_bonus, rules.concealed_bonus)
        # A concealed hand includes a canasta whatever the rules ask for going out.
        self.canastas_needed = (
            0,
            rules.canastas_to_go_out,
            max(rules.canastas_to_go_out, 1),
        )
        self.penalties = {
            "ask_to_go_out_failed": rules.penalty_ask_to_go_out,
            "discard_unused": rules.penalty_discard_unused,
            "red_three_in_hand": rules.penalty_red_three_in_hand,
        }
        self.team_word = "Player" if rules.players_per_team == 1 else "Team"
        self.teams_word = "Players" if rules.players_per_team == 1 else "Teams"


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every setting the scoring rules depend on. See :data:`RULESET_FIELDS` for help.

    ``red_three_schedule`` is a tuple of ``(count, total)`` pairs for the numbers of red
    threes that do not score ``count * red_three_value`` (e.g. ``((4, 800),)``).
    ``initial_meld_table`` is a tuple of ``(from_score, minimum)`` rows in rising order;
    the first row's ``from_score`` is ``None`` and covers every lower score, e.g.
    ``((None, 15), (0, 50), (1500, 90), (3000, 120))``: below 0 the minimum is 15.
    """

    name: str
    label: str
    players: int
    teams: int
    players_per_team: int
    decks: int
    cards_dealt: int
    natural_canasta_bonus: int
    mixed_canasta_bonus: int
    red_three_value: int
    red_three_schedule: tuple[tuple[int, int], ...]
    red_three_schedule_without_meld: tuple[tuple[int, int], ...] | None
    red_threes_negative_without_meld: bool
    going_out_bonus: int
    concealed_bonus: int
    canastas_to_go_out: int
    initial_meld_table: tuple[tuple[int | None, int], ...]
    failed_meld_increase: int
    target_score: int
    perfect_cut_enabled: bool
    perfect_cut_bonus: int
    penalty_ask_to_go_out: int
    penalty_discard_unused: int
    penalty_red_three_in_hand: int
    max_wild_per_meld: int
    min_naturals_per_meld: int
    wilds_may_not_outnumber_naturals: bool
    black_three_meld: bool
    _derived: _Derived | None = field(
        default=None, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        values = {name: getattr(self, name) for name in RULESET_FIELD_NAMES}
        normalised, errors = _check_values(values)
        if errors:
            raise ValueError(" ".join(error.message for error in errors))
        for name, value in normalised.items():
            if value is not values[name]:
                object.__setattr__(self, name, value)
        object.__setattr__(self, "_derived", _Derived(self))

    # -- conversions -------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """All settings as plain JSON values; :meth:`from_dict` gives the rule set back."""
        result: dict[str, object] = {}
        for name in RULESET_FIELD_NAMES:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [list(pair) for pair in value]
            result[name] = value
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """Strictly rebuild a stored rule set: every field present, nothing unknown.

        Raises ``ValueError`` naming every problem; use :func:`rules_from_spec` for input
        typed by people.
        """
        if not isinstance(data, Mapping):
            raise ValueError("A stored rule set must be an object of settings.")
        problems = []
        missing = [name for name in RULESET_FIELD_NAMES if name not in data]
        if missing:
            problems.append(f"The stored rule set lacks {sentence_list(missing)}.")
        unknown = [key_name(key) for key in data if key not in _FIELDS_BY_NAME]
        if unknown:
            problems.append(f"The stored rule set has unknown settings {sentence_list(unknown)}.")
        if problems:
            raise ValueError(" ".join(problems))
        values, errors = _check_values(dict(data))
        if errors:
            raise ValueError(" ".join(error.message for error in errors))
        return cls(**values)

    # -- derived values ----------------------------------------------------------------

    @property
    def deck_totals(self) -> DeckTotals:
        """What the decks hold: cards, red threes (2 a deck), card points (590 a deck),
        cards of each natural rank (4 a deck), black threes, twos and jokers."""
        return self._derived.deck

    @property
    def perfect_cut_cards(self) -> int:
        """Cards a perfect cut must hold: the cards of the deal (44 for 4 players x 11)."""
        return self.players * self.cards_dealt

    @property
    def team_word(self) -> str:
        """How messages name a side: "Player" when everyone plays alone, else "Team"."""
        return self._derived.team_word

    def team_label(self, index: int) -> str:
        """How pages and messages name side ``index`` (0-based): "Team 1", "Player 2"."""
        return f"{self._derived.team_word} {index + 1}"

    def red_three_score(self, count: int, melded: bool) -> int:
        """Points ``count`` red threes add to a team's hand score (negative if a malus)."""
        table = self._derived.red_melded if melded else self._derived.red_unmelded
        return table[count]

    def minimum(self, cumulative_score: int, failed_attempts: int = 0) -> int:
        """Shortcut for :func:`initial_meld_minimum`."""
        return initial_meld_minimum(self, cumulative_score, failed_attempts)


def initial_meld_minimum(rules: RuleSet, cumulative_score: int, failed_attempts: int = 0) -> int:
    """The minimum count of a team's first meld, from its cumulative score before the hand.

    With the classic table: below 0 -> 15, 0 to 1,495 -> 50, 1,500 to 2,995 -> 90,
    3,000 and over -> 120. Each failed initial meld in the hand raises the minimum for
    the rest of that hand by ``rules.failed_meld_increase`` (10).
    """
    derived = rules._derived
    minimum = derived.meld_minimums[bisect_right(derived.meld_thresholds, cumulative_score)]
    if failed_attempts > 0:
        minimum += failed_attempts * rules.failed_meld_increase
    return minimum


# -- checking values -------------------------------------------------------------------


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
}


def _check_value(name: str, value: object) -> tuple[object, Refusal | None]:
    spec = _FIELDS_BY_NAME[name]
    normalised, message = _CHECKS[spec.type](spec, value)
    if message is None:
        return normalised, None
    return value, Refusal(f"rules.{name}", message)


def _check_together(values: dict[str, object]) -> list[Refusal]:
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


def _check_values(values: dict[str, object]) -> tuple[dict[str, object], list[Refusal]]:
    """Check and normalise a full set of values; the refusals name ``rules.<field>``."""
    errors: list[Refusal] = []
    result: dict[str, object] = {}
    for name in RULESET_FIELD_NAMES:
        value, error = _check_value(name, values[name])
        if error is not None:
            errors.append(error)
        result[name] = value
    if not errors:
        errors.extend(_check_together(result))
    return result, errors


# -- presets ---------------------------------------------------------------------------

_CLASSIC_MELD_TABLE = ((None, 15), (0, 50), (1500, 90), (3000, 120))
_THREE_DECK_RED_THREES = ((4, 800), (5, 1000), (6, 1200))

CLASSIC = RuleSet(
    name="classic",
    label="Classic canasta",
    players=4,
    teams=2,
    players_per_team=2,
    decks=2,
    cards_dealt=11,
    natural_canasta_bonus=500,
    mixed_canasta_bonus=300,
    red_three_value=100,
    red_three_schedule=((4, 800),),
    red_three_schedule_without_meld=None,
    red_threes_negative_without_meld=True,
    going_out_bonus=100,
    concealed_bonus=200,
    canastas_to_go_out=1,
    initial_meld_table=_CLASSIC_MELD_TABLE,
    failed_meld_increase=10,
    target_score=5000,
    perfect_cut_enabled=False,
    perfect_cut_bonus=100,
    penalty_ask_to_go_out=100,
    penalty_discard_unused=50,
    penalty_red_three_in_hand=500,
    max_wild_per_meld=3,
    min_naturals_per_meld=2,
    wilds_may_not_outnumber_naturals=False,
    black_three_meld=True,
)


def _variant(**changes: object) -> RuleSet:
    values = {name: getattr(CLASSIC, name) for name in RULESET_FIELD_NAMES}
    values.update(changes)
    return RuleSet(**values)


#: The rule sets the engine ships, by slug (see rules.md, "Presets the engine ships").
PRESETS: dict[str, RuleSet] = {
    "classic": CLASSIC,
    "club": _variant(
        name="club",
        label="Club house rules",
        canastas_to_go_out=2,
        perfect_cut_enabled=True,
        wilds_may_not_outnumber_naturals=True,
    ),
    "two-player": _variant(
        name="two-player",
        label="Two-player canasta",
        players=2,
        teams=2,
        players_per_team=1,
        cards_dealt=15,
        canastas_to_go_out=2,
    ),
    "six-player": _variant(
        name="six-player",
        label="Six players, two teams of three",
        players=6,
        teams=2,
        players_per_team=3,
        decks=3,
        cards_dealt=13,
        canastas_to_go_out=2,
        target_score=10000,
        red_three_schedule=_THREE_DECK_RED_THREES,
        initial_meld_table=_CLASSIC_MELD_TABLE + ((7500, 150),),
    ),
    "three-teams": _variant(
        name="three-teams",
        label="Six players, three teams of two",
        players=6,
        teams=3,
        players_per_team=2,
        decks=3,
        cards_dealt=13,
        canastas_to_go_out=2,
        target_score=7500,
        red_three_schedule=_THREE_DECK_RED_THREES,
    ),
}

#: Preset slugs in the order of the rules' preset table.
PRESET_SLUGS: tuple[str, ...] = tuple(PRESETS)

_PRESET_LIST = sentence_list(PRESET_SLUGS)


def rules_from_spec(spec: object) -> tuple[RuleSet | None, list[Refusal]]:
    """Turn a preset slug, or an object of overrides, into a rule set; never raises.

    ``spec`` is a slug (``"club"``), or ``{"preset": "club", "target_score": 3000}``
    (``preset`` defaults to ``classic``; every other key is a :data:`RULESET_FIELDS`
    name), or the output of :meth:`RuleSet.to_dict`. A :class:`RuleSet` is returned as
    it is. Problems come back as refusals whose field is ``rules`` or ``rules.<name>``.
    """
    try:
        return _rules_from_spec(spec)
    except Exception:  # pragma: no cover - a safety net; the tests look for this message
        return None, [Refusal("rules", INTERNAL_RULES_MESSAGE)]


INTERNAL_RULES_MESSAGE = (
    "The rules could not be read because of a fault in the scoring program; "
    "please report this hand to the club's officers."
)


def _rules_from_spec(spec: object) -> tuple[RuleSet | None, list[Refusal]]:
    if isinstance(spec, RuleSet):
        return spec, []
    if isinstance(spec, str):
        preset = PRESETS.get(spec)
        if preset is None:
            return None, [
                Refusal(
                    "rules",
                    f"There is no rule set called {quote(spec)}; choose one of {_PRESET_LIST}.",
                )
            ]
        return preset, []
    if not isinstance(spec, Mapping):
        return None, [
            Refusal(
                "rules",
                f"The rules must be a preset name ({_PRESET_LIST}) or an object of "
                f"settings, not {describe(spec)}.",
            )
        ]
    errors: list[Refusal] = []
    slug = spec.get("preset", "classic")
    base = PRESETS.get(slug) if isinstance(slug, str) else None
    if base is None:
        errors.append(
            Refusal(
                "rules.preset",
                f"The preset must be one of {_PRESET_LIST}, not {describe(slug)}.",
            )
        )
        base = CLASSIC
    values = {name: getattr(base, name) for name in RULESET_FIELD_NAMES}
    for key, value in spec.items():
        if key == "preset":
            continue
        if key not in _FIELDS_BY_NAME:
            errors.append(
                Refusal(
                    f"rules.{key_name(key)}",
                    f"There is no rule setting called '{key_name(key)}'; check the spelling "
                    f"against the list of settings.",
                )
            )
            continue
        normalised, error = _check_value(key, value)
        if error is not None:
            errors.append(error)
        else:
            values[key] = normalised
    if errors:
        return None, errors
    errors = _check_together(values)
    if errors:
        return None, errors
    if all(values[name] == getattr(base, name) for name in RULESET_FIELD_NAMES):
        return base, []
    return RuleSet(**values), []
