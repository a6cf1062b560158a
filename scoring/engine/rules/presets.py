"""The rule sets the engine ships: classic canasta and the variants the club plays.

Every preset is the classic rule set with a few settings changed (see rules.md,
"Presets the engine ships"); :data:`PRESET_SLUGS` keeps the order of that table.
"""

from __future__ import annotations

from .._text import gettext_noop
from .fields import RULESET_FIELD_NAMES
from .ruleset import RuleSet

_CLASSIC_MELD_TABLE = ((None, 15), (0, 50), (1500, 90), (3000, 120))
# Three decks: four of six red threes are not "all"; up to four count 100 each.
_THREE_DECK_RED_THREES = ((5, 1000), (6, 1200))

CLASSIC = RuleSet(
    name="classic",
    label=gettext_noop("Classic canasta"),
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
    # Pagat: melding the whole hand at once (a canasta included) after drawing from the
    # stock goes out without the initial-meld minimum. An entry cannot tell the stock
    # from the discard pile, so every concealed hand is exempt.
    initial_meld_check="except_concealed",
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
        label=gettext_noop("Club house rules"),
        canastas_to_go_out=2,
        perfect_cut_enabled=True,
        wilds_may_not_outnumber_naturals=True,
    ),
    "two-player": _variant(
        name="two-player",
        label=gettext_noop("Two-player canasta"),
        players=2,
        teams=2,
        players_per_team=1,
        cards_dealt=15,
        canastas_to_go_out=2,
    ),
    "six-player": _variant(
        name="six-player",
        label=gettext_noop("Six players, two teams of three"),
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
        label=gettext_noop("Six players, three teams of two"),
        players=6,
        teams=3,
        players_per_team=2,
        decks=3,
        cards_dealt=13,
        canastas_to_go_out=2,
        target_score=7500,
        red_three_schedule=_THREE_DECK_RED_THREES,
    ),
    "three-player": _variant(
        name="three-player",
        label=gettext_noop("Three-player canasta"),
        players=3,
        teams=3,
        players_per_team=1,
        cards_dealt=13,
        canastas_to_go_out=2,
    ),
}

#: Preset slugs in the order of the rules' preset table.
PRESET_SLUGS: tuple[str, ...] = tuple(PRESETS)

#: Cards dealt to each player when a table of four's rules are played by fewer players
#: (two-player and three-player canasta, each playing alone, two decks).
SMALL_TABLE_CARDS = {2: 15, 3: 13}
#: Canastas a player alone needs to go out: every two- and three-player game needs two
#: (rules.md, "Going out"), so a table of three or two never plays classic's one.
SMALL_TABLE_MIN_CANASTAS = 2
_SMALL_TABLE_WORDS = {2: gettext_noop("two players"), 3: gettext_noop("three players")}


def table_variant(rules: RuleSet, players: int) -> RuleSet:
    """The rule set a table of ``players`` plays when the day's rules are ``rules``.

    A table of the rules' own size plays them as they are. A table of three (or two)
    under rules for two partnerships of two plays the matching single-player variant:
    everyone alone, 13 (or 15) cards each, at least two canastas to go out (as every
    two- and three-player game; house rules that ask more keep their number), and
    every other setting carried over, so the house settings (wilds no more than
    naturals, perfect cut, which then needs players x cards dealt) still hold. Raises
    ``ValueError`` when there is no such variant.
    """
    if players == rules.players:
        return rules
    if rules.players != 4 or rules.teams != 2 or players not in SMALL_TABLE_CARDS:
        raise ValueError(
            f"{rules.label} is played by {rules.players} players; there is no variant of it "
            f"for a table of {players}. Seat {rules.players} at the table or choose other rules."
        )
    values = {name: getattr(rules, name) for name in RULESET_FIELD_NAMES}
    values.update(
        name=f"{rules.name}-{players}p",
        label=f"{rules.label} ({_SMALL_TABLE_WORDS[players]})",
        players=players,
        teams=players,
        players_per_team=1,
        cards_dealt=SMALL_TABLE_CARDS[players],
        canastas_to_go_out=max(rules.canastas_to_go_out, SMALL_TABLE_MIN_CANASTAS),
    )
    return RuleSet(**values)
