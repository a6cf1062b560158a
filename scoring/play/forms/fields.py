"""The boxes of one team's hand entry: their names, the whole-number box that opens a
number pad, and the fields a rule set gives each team (:func:`team_fields`).

Field names, per team ``i`` (0-based; Django prefix ``t{i}``):

- ``t{i}-mode``: ``quick`` or ``detailed``
- quick: ``t{i}-melded_points``, ``t{i}-natural_canastas``, ``t{i}-mixed_canastas``,
  ``t{i}-hand_points``
- detailed: ``t{i}-meld_{rank}_naturals`` / ``_jokers`` / ``_twos`` for rank in
  a k q j 10 9 8 7 6 5 4 and 3 (black threes: naturals only); ``t{i}-card_{key}`` for
  key in joker 2 a k q j 10 9 8 7 6 5 4 3
- both: ``t{i}-red_threes``, ``t{i}-went_out`` (none/out/concealed), ``t{i}-perfect_cut``
  (only when the rules have it), ``t{i}-pen_ask_to_go_out_failed``,
  ``t{i}-pen_discard_unused``, ``t{i}-pen_red_three_in_hand`` (counts),
  ``t{i}-pen_other_points``, ``t{i}-pen_other_note``
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring import engine
from scoring.labels import CARD_WORDS, PENALTY_LABELS, RANK_WORDS, WENT_OUT_CHOICES

NUMBER_ATTRS = {
    "inputmode": "numeric",
    "pattern": "[0-9]*",
    "autocomplete": "off",
    "class": "num",
}

#: Largest number the form accepts in any box (the engine refuses impossible ones).
MAX_DIGITS = 7

PENALTY_FIELDS = {
    "ask_to_go_out_failed": "pen_ask_to_go_out_failed",
    "discard_unused": "pen_discard_unused",
    "red_three_in_hand": "pen_red_three_in_hand",
}

MODE_CHOICES = [
    ("quick", pgettext_lazy("way of entering", "Quick")),
    ("detailed", _("Card by card")),
]

QUICK_FIELDS = ("melded_points", "natural_canastas", "mixed_canastas", "hand_points")


def rank_slug(rank: str) -> str:
    return rank.lower()


class WholeNumberField(forms.CharField):
    """A box for a count or points: digits only, empty means 0; opens a number pad."""

    default_error_messages = {
        "invalid": _("Enter a whole number with digits only, such as 120."),
        "too_big": _("That number is far too large; check it."),
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs=NUMBER_ATTRS))
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        # Thousands typed with a comma (English) or a dot (Spanish, Portuguese).
        text = value.replace(" ", "").replace(",", "").replace(".", "")
        if text == "":
            return None
        if len(text) > 40 or not text.isascii() or not text.isdigit():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        if len(text.lstrip("0")) > MAX_DIGITS:
            raise ValidationError(self.error_messages["too_big"], code="too_big")
        return int(text)


def team_fields(
    perfect_cut_enabled: bool,
    perfect_cut_bonus: int,
    alone: bool = False,
    penalty_points=(),
) -> dict[str, forms.Field]:
    """The fields of one team's entry (see :class:`TeamEntryForm`); ``alone`` when
    everyone plays alone (a table of three or two); ``penalty_points``: the rule set's
    points per penalty kind (a dict or its pairs), shown on each penalty's box."""
    points = dict(penalty_points)
    f: dict[str, forms.Field] = {}
    f["mode"] = forms.ChoiceField(
        choices=MODE_CHOICES,
        required=False,
        initial="quick",
        widget=forms.RadioSelect,
        label=_("How to enter"),
    )
    f["melded_points"] = WholeNumberField(
        label=_("Melded card points"), help_text=_("The cards on the table, canastas included.")
    )
    f["natural_canastas"] = WholeNumberField(label=_("Natural canastas"))
    f["mixed_canastas"] = WholeNumberField(label=_("Mixed canastas"))
    f["hand_points"] = WholeNumberField(
        label=_("Points left in hand"),
        help_text=_("The player's cards, added up.")
        if alone
        else _("Both partners' cards, added up."),
    )
    for rank in engine.MELD_RANKS:
        slug = rank_slug(rank)
        f[f"meld_{slug}_naturals"] = WholeNumberField(
            label=_("%(rank)s: natural cards") % {"rank": RANK_WORDS[rank]}
        )
        if rank != "3":
            f[f"meld_{slug}_jokers"] = WholeNumberField(
                label=_("%(rank)s: jokers") % {"rank": RANK_WORDS[rank]}
            )
            f[f"meld_{slug}_twos"] = WholeNumberField(
                label=_("%(rank)s: twos") % {"rank": RANK_WORDS[rank]}
            )
    for key in engine.HAND_CARD_KEYS:
        f[f"card_{key.lower()}"] = WholeNumberField(label=CARD_WORDS[key])
    f["red_threes"] = WholeNumberField(label=_("Red threes"))
    f["went_out"] = forms.ChoiceField(
        choices=WENT_OUT_CHOICES,
        required=False,
        initial="none",
        widget=forms.RadioSelect,
        label=_("Went out"),
    )
    if perfect_cut_enabled:
        f["perfect_cut"] = forms.BooleanField(
            required=False,
            widget=forms.CheckboxInput,
            label=_("Perfect cut (+%(points)s)") % {"points": perfect_cut_bonus},
        )
    f.update(_penalty_fields(points))
    return f


def _penalty_fields(points: dict[str, int]) -> dict[str, forms.Field]:
    """How many times each penalty was incurred (with what each costs), and an officer's
    other penalty with its reason."""
    f: dict[str, forms.Field] = {}
    for kind, name in PENALTY_FIELDS.items():
        if kind in points:
            label = _("%(penalty)s (−%(points)s each)") % {
                "penalty": PENALTY_LABELS[kind],
                "points": number_format(points[kind], force_grouping=True),
            }
        else:
            label = PENALTY_LABELS[kind]
        f[name] = WholeNumberField(label=label, help_text=_("How many times."))
    f["pen_other_points"] = WholeNumberField(
        label=_("Other penalty: points"), help_text=_("An officer's ruling, taken off.")
    )
    f["pen_other_note"] = forms.CharField(
        required=False,
        max_length=200,
        label=_("Other penalty: what for"),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    return f
