"""The rules of canasta scoring, in pure Python.

This package stores nothing and knows nothing of the database, of Django or of the rest
of the project: it takes a rule set and what each team melded and held, and returns
either the scores (with their breakdown, the next initial-meld minimums and whether the
game is over) or a list of refusals saying what to fix. It never reads the clock and
never raises for bad input. The web pages, the services that save hands and the
``score_hand`` command all call it, so there is one implementation of the rules.

Modules: ``cards`` (card values and what the decks hold), ``rules/`` (rule sets, their
derived tables, the presets and reading a rule-set spec), ``hand`` (scoring one hand),
``validate/`` (every check, a module per concern, each problem explained), ``contract``
(the JSON contract), ``results`` (what comes back).
"""

from .cards import CARD_VALUES, HAND_CARD_KEYS, MELD_RANKS, NATURAL_RANKS
from .contract import score_one, score_request
from .hand import PENALTY_KINDS, WENT_OUT_VALUES, game_result, score_hand
from .results import BREAKDOWN_KEYS, HandOutcome, Refusal, TeamResult
from .rules.fields import RULESET_FIELD_NAMES, RULESET_FIELDS, RuleField
from .rules.presets import PRESET_SLUGS, PRESETS, table_variant
from .rules.ruleset import RuleSet, initial_meld_minimum
from .rules.spec import rules_from_spec
from .rules.tables import DeckTotals

__all__ = [
    "BREAKDOWN_KEYS",
    "CARD_VALUES",
    "HAND_CARD_KEYS",
    "MELD_RANKS",
    "NATURAL_RANKS",
    "PENALTY_KINDS",
    "PRESETS",
    "PRESET_SLUGS",
    "RULESET_FIELDS",
    "RULESET_FIELD_NAMES",
    "WENT_OUT_VALUES",
    "DeckTotals",
    "HandOutcome",
    "Refusal",
    "RuleField",
    "RuleSet",
    "TeamResult",
    "game_result",
    "initial_meld_minimum",
    "rules_from_spec",
    "score_hand",
    "table_variant",
    "score_one",
    "score_request",
]
