"""Rule sets: every setting in which the sources of canasta disagree, and the presets.

A :class:`RuleSet` is frozen and always valid: constructing one with impossible values
raises ``ValueError``, and :func:`rules_from_spec` turns a preset name or an object of
overrides into a rule set or a list of refusals (it never raises).

Modules:

- ``fields``: what each setting is called, means and may hold (:data:`RULESET_FIELDS`);
- ``checks``: checking settings alone and together, with a message for each problem;
- ``tables``: the tables a rule set derives once (:class:`DeckTotals` and the rest);
- ``ruleset``: :class:`RuleSet` itself, its derived tables as properties, and
  :func:`initial_meld_minimum`;
- ``presets``: the rule sets the engine ships (:data:`PRESETS`);
- ``spec``: :func:`rules_from_spec`, reading a preset name or an object of settings.
"""

from .fields import MAX_POINTS, RULESET_FIELD_NAMES, RULESET_FIELDS, RuleField
from .presets import CLASSIC, PRESET_SLUGS, PRESETS, table_variant
from .ruleset import RuleSet, initial_meld_minimum
from .spec import INTERNAL_RULES_MESSAGE, rules_from_spec
from .tables import DeckTotals

__all__ = [
    "CLASSIC",
    "INTERNAL_RULES_MESSAGE",
    "MAX_POINTS",
    "PRESETS",
    "PRESET_SLUGS",
    "RULESET_FIELDS",
    "RULESET_FIELD_NAMES",
    "DeckTotals",
    "RuleField",
    "RuleSet",
    "initial_meld_minimum",
    "rules_from_spec",
    "table_variant",
]
