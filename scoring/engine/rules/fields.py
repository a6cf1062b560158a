"""The settings of a rule set: what each one is called, means and may hold.

:data:`RULESET_FIELDS` describes every setting in order, so that a form, a README or a
check can be generated from it; nothing here computes a score. The checks of the
values themselves are in :mod:`.checks`.
"""

from __future__ import annotations

from typing import NamedTuple

from .._text import gettext_noop

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
    - ``"meld_table"``: a list of ``[from score, minimum]`` rows, the first from null;
    - ``"choice"``: one of the values of ``choices`` (``(value, label)`` pairs);
    - ``"kinds"``: kinds of canasta besides natural and mixed, each with its numbers
      (see :mod:`.kinds`);
    - ``"kind_counts"``: ``[kind, count]`` pairs;
    - ``"card_values"``: the points of every card that is melded or left in hand;
    - ``"minimums"``: a list of points, one per hand;
    - ``"special_hands"``: ``[name, points]`` pairs.
    """

    name: str
    type: str
    label: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[str, str], ...] = ()


RULESET_FIELDS: tuple[RuleField, ...] = (
    RuleField(
        "name",
        "text",
        gettext_noop("Short name"),
        gettext_noop("A short name for the rule set, such as 'club'."),
    ),
    RuleField(
        "label",
        "text",
        gettext_noop("Title"),
        gettext_noop("The rule set's title as players see it."),
    ),
    RuleField(
        "players", "count", gettext_noop("Players"), gettext_noop("Players at the table."), 2, 12
    ),
    RuleField(
        "teams",
        "count",
        gettext_noop("Teams"),
        gettext_noop("Teams (partnerships) that score."),
        2,
        6,
    ),
    RuleField(
        "players_per_team",
        "count",
        gettext_noop("Players per team"),
        gettext_noop("Players in each team; 1 means every player scores alone."),
        1,
        4,
    ),
    RuleField(
        "decks",
        "count",
        gettext_noop("Decks"),
        gettext_noop("Decks shuffled together, each with 2 jokers."),
        1,
        6,
    ),
    RuleField(
        "cards_dealt",
        "count",
        gettext_noop("Cards dealt"),
        gettext_noop("Cards dealt to each player."),
        1,
        30,
    ),
    RuleField(
        "card_values",
        "card_values",
        gettext_noop("Card values"),
        gettext_noop(
            "Points of each card, melded or left in hand: joker, two, ace, king down to four, "
            "and the black three."
        ),
    ),
    RuleField(
        "natural_canasta_bonus",
        "points",
        gettext_noop("Natural canasta bonus"),
        gettext_noop("Bonus for each canasta without wild cards (its cards count on top)."),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "mixed_canasta_bonus",
        "points",
        gettext_noop("Mixed canasta bonus"),
        gettext_noop("Bonus for each canasta with wild cards (its cards count on top)."),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "canasta_kinds",
        "kinds",
        gettext_noop("Other kinds of canasta"),
        gettext_noop(
            "Kinds of canasta the game has besides natural and mixed ones, each with its bonus "
            "(its cards count on top) and, where the game says so, a penalty for one left "
            "unfinished, a penalty for each player holding three or more of its rank, and "
            "whether an unfinished one stops its team going out."
        ),
    ),
    RuleField(
        "red_three_value",
        "points",
        gettext_noop("Red three value"),
        gettext_noop(
            "Points for each red three when the schedule does not list that number of red threes."
        ),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "red_three_schedule",
        "schedule",
        gettext_noop("Red three schedule"),
        gettext_noop(
            "Totals for special numbers of red threes, as [number, total] pairs: "
            "all four count 800 with two decks."
        ),
    ),
    RuleField(
        "red_three_schedule_without_meld",
        "schedule_or_null",
        gettext_noop("Red three schedule without a meld"),
        gettext_noop(
            "Totals taken off a team that has not melded, as [number, total] pairs; "
            "null means the same amounts as the schedule above (some games use 400 for four)."
        ),
    ),
    RuleField(
        "red_threes_negative_without_meld",
        "bool",
        gettext_noop("Red threes count minus without a meld"),
        gettext_noop(
            "If on, a team that has not melded loses its red threes' value instead of gaining it."
        ),
    ),
    RuleField(
        "red_threes_need_canastas",
        "count",
        gettext_noop("Canastas for red threes to count"),
        gettext_noop(
            "Canastas a team needs for its red threes to count for it; 0 means a meld is "
            "enough, as in classic canasta."
        ),
        0,
        10,
    ),
    RuleField(
        "going_out_bonus",
        "points",
        gettext_noop("Going out bonus"),
        gettext_noop("Bonus for the team that goes out."),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "concealed_bonus",
        "points",
        gettext_noop("Concealed going out bonus"),
        gettext_noop("Bonus, in all (not on top of the going out bonus), for going out concealed."),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "canastas_to_go_out",
        "count",
        gettext_noop("Canastas needed to go out"),
        gettext_noop("Canastas a team must have before one of its players may go out."),
        0,
        10,
    ),
    RuleField(
        "going_out_kinds",
        "kind_counts",
        gettext_noop("Canastas of a kind needed to go out"),
        gettext_noop(
            "Canastas of particular kinds a team must have to go out, as [kind, number] pairs, "
            "such as one sequence canasta in Bolivia; they count among the canastas needed."
        ),
    ),
    RuleField(
        "special_hands",
        "special_hands",
        gettext_noop("Special hands"),
        gettext_noop(
            "Hands a player may go out with all at once instead of melding, as [name, points] "
            "pairs; the points replace the going out bonus."
        ),
    ),
    RuleField(
        "initial_meld_table",
        "meld_table",
        gettext_noop("Initial meld requirement"),
        gettext_noop(
            "Minimum count of a team's first meld, by its score before the hand, as "
            "[from score, minimum] rows: the first row starts at null (any lower score)."
        ),
    ),
    RuleField(
        "initial_meld_by_hand",
        "minimums",
        gettext_noop("Initial meld by hand"),
        gettext_noop(
            "Minimum count of a team's first meld in hand 1, 2, 3 and so on (the last one "
            "also for later hands); empty means by score, as the table above says."
        ),
    ),
    RuleField(
        "failed_meld_increase",
        "points",
        gettext_noop("Failed initial meld increase"),
        gettext_noop(
            "How much the minimum rises for the rest of the hand after a failed initial meld."
        ),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "initial_meld_check",
        "choice",
        gettext_noop("Melded points hold the initial meld"),
        gettext_noop(
            "A team that has melded holds at least its initial-meld minimum (plus the rises "
            "for failed attempts) in melded card points, as melds never leave the table; "
            "classic canasta lets a player who goes out concealed meld without the minimum."
        ),
        choices=(
            (
                "except_concealed",
                gettext_noop("Checked, except for a team that went out concealed"),
            ),
            ("always", gettext_noop("Checked for every team that melded")),
            ("never", gettext_noop("Not checked (games started before this check)")),
        ),
    ),
    RuleField(
        "target_score",
        "points",
        gettext_noop("Game target"),
        gettext_noop("Cumulative score that ends the game at the end of a hand."),
        5,
        MAX_POINTS,
    ),
    RuleField(
        "hands_in_game",
        "count",
        gettext_noop("Hands in a game"),
        gettext_noop(
            "If not 0, the game ends after this many hands and the highest total wins (equal "
            "highest totals play another hand); the game target is then not used."
        ),
        0,
        100,
    ),
    RuleField(
        "perfect_cut_enabled",
        "bool",
        gettext_noop("Perfect cut bonus"),
        gettext_noop(
            "If on, the team of a player who cuts exactly the cards needed for the deal "
            "scores the perfect cut bonus in that hand."
        ),
    ),
    RuleField(
        "perfect_cut_bonus",
        "points",
        gettext_noop("Perfect cut bonus points"),
        gettext_noop("Points for a perfect cut, when the perfect cut bonus is on."),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_ask_to_go_out",
        "points",
        gettext_noop("Penalty: failed to go out after asking"),
        gettext_noop(
            "Taken off a team whose player asked 'May I go out?', got yes, then did not go out."
        ),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_discard_unused",
        "points",
        gettext_noop("Penalty: top discard not used"),
        gettext_noop(
            "Taken off a team whose player took the top discard and then could not use it."
        ),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "penalty_red_three_in_hand",
        "points",
        gettext_noop("Penalty: red three kept in hand"),
        gettext_noop(
            "Taken off a team for each red three kept in a hand instead of placed on the table."
        ),
        0,
        MAX_POINTS,
    ),
    RuleField(
        "max_wild_per_meld",
        "count",
        gettext_noop("Most wild cards in a meld"),
        gettext_noop("The most jokers and twos one meld (or canasta) may hold."),
        0,
        10,
    ),
    RuleField(
        "min_naturals_per_meld",
        "count",
        gettext_noop("Fewest natural cards in a meld"),
        gettext_noop("The fewest natural cards (not jokers or twos) a meld must hold."),
        1,
        7,
    ),
    RuleField(
        "max_meld_cards",
        "count",
        gettext_noop("Most cards in a meld"),
        gettext_noop("The most cards one meld may hold; 0 means no limit."),
        0,
        30,
    ),
    RuleField(
        "one_meld_per_rank",
        "bool",
        gettext_noop("One meld per rank"),
        gettext_noop(
            "If on, a team has one meld of each rank and further cards join it; if off, a "
            "team may have several melds of a rank."
        ),
    ),
    RuleField(
        "wilds_may_not_outnumber_naturals",
        "bool",
        gettext_noop("Wild cards may not outnumber naturals"),
        gettext_noop(
            "Club option: a meld may hold as many wild cards as natural cards, never more."
        ),
    ),
    RuleField(
        "black_three_meld",
        "bool",
        gettext_noop("Black threes may be melded when going out"),
        gettext_noop(
            "If on, the player going out may meld 3 or 4 black threes, with no wild card."
        ),
    ),
    RuleField(
        "black_three_in_hand",
        "points",
        gettext_noop("Black three left in hand"),
        gettext_noop(
            "Points taken off for each black three left in a hand at the end of the hand."
        ),
        0,
        MAX_POINTS,
    ),
)

#: Field names in order, for quick checks.
RULESET_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in RULESET_FIELDS)
#: Each setting's description, by name.
FIELDS_BY_NAME: dict[str, RuleField] = {f.name: f for f in RULESET_FIELDS}
