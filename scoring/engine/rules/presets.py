"""The rule sets the engine ships: classic canasta and the variants the club plays.

Every preset is the classic rule set with a few settings changed (see rules.md,
"Presets the engine ships"); :data:`PRESET_SLUGS` keeps the order of that table.
"""

from __future__ import annotations

from .fields import RULESET_FIELD_NAMES
from .ruleset import RuleSet

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
