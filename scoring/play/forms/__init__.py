"""Forms: entering a hand (quick or detailed, per team), starting games, rule sets.

The rooms (callers import from here; the modules of this package import each other):

- ``fields``: the boxes of one team's entry, their names, the whole-number box
- ``team``: one team's entry (:class:`TeamEntryForm`): reading it, placing refusals
- ``hand``: the whole hand (:class:`HandEntry`), stored inputs back to form values
  (:func:`team_initial`, :func:`hand_form_data`)
- ``games``: starting a game and choosing the next game's partners
- ``rulesets``: a rule set's settings, copying one, the rules of a club day
- ``club_settings``: a club's game settings (its settings page)
"""

from scoring.play.forms.fields import (
    MAX_DIGITS,
    MODE_CHOICES,
    NUMBER_ATTRS,
    PENALTY_FIELDS,
    QUICK_FIELDS,
    WholeNumberField,
    rank_slug,
)
from scoring.play.forms.games import NextGameForm, StartGameForm
from scoring.play.forms.hand import HandEntry, HandMetaForm, hand_form_data, team_initial
from scoring.play.forms.rulesets import DayRulesForm, NewRuleSetForm, RuleSetForm
from scoring.play.forms.team import TeamEntryForm

__all__ = [
    "MAX_DIGITS",
    "MODE_CHOICES",
    "NUMBER_ATTRS",
    "PENALTY_FIELDS",
    "QUICK_FIELDS",
    "DayRulesForm",
    "HandEntry",
    "HandMetaForm",
    "NewRuleSetForm",
    "NextGameForm",
    "RuleSetForm",
    "StartGameForm",
    "TeamEntryForm",
    "WholeNumberField",
    "hand_form_data",
    "rank_slug",
    "team_initial",
]
