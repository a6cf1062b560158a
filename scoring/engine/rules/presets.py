"""The rule sets the engine ships: classic canasta, the variants the club plays, and
the variants other clubs play (Modern American canasta, Hand and Foot, Samba, Bolivia,
Uruguayan and Cuban canasta).

Every preset is the classic rule set with a few settings changed (see rules.md,
"Presets the engine ships", and docs/rules.md for the source of each number);
:data:`PRESET_SLUGS` keeps the order of that table.
"""

from __future__ import annotations

from .._text import _, gettext_noop
from .fields import RULESET_FIELD_NAMES
from .kinds import KindEntry
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

# -- the variants other clubs play (docs/rules.md gives the source of every number) ---

_SAMBA_MELD_TABLE = _CLASSIC_MELD_TABLE + ((7000, 160),)
# Three decks: 100 each, all six 1,000 (Samba and Bolivia).
_ALL_SIX_RED_THREES = ((6, 1000),)

PRESETS["modern-american"] = _variant(
    name="modern-american",
    label=gettext_noop("Modern American canasta"),
    cards_dealt=13,
    canasta_kinds=(
        KindEntry("sevens", 2500, unfinished=2500, held=1500),
        KindEntry("aces", 2500, unfinished=2500, held=1500),
        KindEntry("wild_twos", 3000, unfinished=2000, blocks_going_out=True),
        KindEntry("wild_jokers", 2500, unfinished=2000, blocks_going_out=True),
        KindEntry("wild", 2000, unfinished=2000, blocks_going_out=True),
    ),
    canastas_to_go_out=2,
    special_hands=(
        ("straight", 3000),
        ("pairs", 2500),
        ("pairs_with_wilds", 2000),
        ("garbage", 2000),
    ),
    initial_meld_table=_CLASSIC_MELD_TABLE + ((5000, 150),),
    target_score=8500,
    max_wild_per_meld=2,
    max_meld_cards=7,
    black_three_in_hand=100,
)
PRESETS["hand-and-foot"] = _variant(
    name="hand-and-foot",
    label=gettext_noop("Hand and Foot"),
    decks=5,
    cards_dealt=22,
    red_three_schedule=(),
    red_threes_negative_without_meld=False,
    going_out_bonus=100,
    concealed_bonus=100,
    canastas_to_go_out=4,
    going_out_kinds=(("natural", 2), ("mixed", 2)),
    initial_meld_by_hand=(50, 90, 120, 150),
    hands_in_game=4,
    perfect_cut_enabled=True,
    wilds_may_not_outnumber_naturals=True,
    one_meld_per_rank=False,
    black_three_meld=False,
)
PRESETS["samba"] = _variant(
    name="samba",
    label=gettext_noop("Samba"),
    decks=3,
    cards_dealt=15,
    canasta_kinds=(KindEntry("sequence", 1500, label=gettext_noop("Samba")),),
    red_three_schedule=_ALL_SIX_RED_THREES,
    red_threes_need_canastas=2,
    going_out_bonus=200,
    concealed_bonus=200,
    canastas_to_go_out=2,
    initial_meld_table=_SAMBA_MELD_TABLE,
    target_score=10000,
    max_wild_per_meld=2,
    one_meld_per_rank=False,
)
PRESETS["bolivia"] = _variant(
    name="bolivia",
    label=gettext_noop("Bolivia"),
    decks=3,
    cards_dealt=15,
    canasta_kinds=(
        KindEntry("bolivia", 2500, label=gettext_noop("Bolivia")),
        KindEntry("sequence", 1500, label=gettext_noop("Escalera")),
    ),
    red_three_schedule=_ALL_SIX_RED_THREES,
    red_threes_need_canastas=2,
    going_out_bonus=200,
    concealed_bonus=200,
    canastas_to_go_out=2,
    going_out_kinds=(("sequence", 1),),
    initial_meld_table=_CLASSIC_MELD_TABLE + ((7000, 150),),
    target_score=15000,
    max_wild_per_meld=2,
    one_meld_per_rank=False,
    black_three_in_hand=100,
)
PRESETS["uruguayan"] = _variant(
    name="uruguayan",
    label=gettext_noop("Uruguayan canasta"),
    canasta_kinds=(KindEntry("wild", 2000),),
)
PRESETS["cuban"] = _variant(
    name="cuban",
    label=gettext_noop("Cuban canasta"),
    cards_dealt=13,
    canasta_kinds=(
        KindEntry("wild_twos", 4000, label=gettext_noop("Wild canasta of seven twos")),
        KindEntry(
            "wild_jokers", 3000, label=gettext_noop("Wild canasta of four jokers and three twos")
        ),
        KindEntry("wild", 2000),
    ),
    red_three_value=100,
    red_three_schedule=((2, 300), (3, 500), (4, 1000)),
    red_threes_need_canastas=1,
    concealed_bonus=100,
    initial_meld_table=_CLASSIC_MELD_TABLE + ((5000, 150),),
    target_score=7500,
    max_meld_cards=7,
)

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
            _(
                "%(label)s is played by %(players)s players; there is no variant "
                "of it for a table of %(players2)s. Seat %(players)s at the "
                "table or choose other rules."
            )
            % {"label": rules.label, "players": rules.players, "players2": players}
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
