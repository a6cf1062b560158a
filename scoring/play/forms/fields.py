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

What a variant's rules add (issue 25), only in its games:

- quick: ``t{i}-canasta_{kind}`` for each kind besides natural and mixed (sevens,
  sequence, wild ...), ``t{i}-unfinished_{kind}`` for each kind with a penalty when
  unfinished;
- detailed: ``t{i}-meld_wild_jokers`` / ``_twos`` (a meld of wild cards),
  ``t{i}-seq{n}_from`` and ``t{i}-seq{n}_cards`` (a sequence: its lowest card and how
  many), ``t{i}-extra{n}_rank`` / ``_naturals`` / ``_jokers`` / ``_twos`` (another meld of
  a rank, where a team may have several);
- both: ``t{i}-special_hand``, ``t{i}-pen_held_{kind}`` (a player held three or more).
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

#: Sequence rows and rows for another meld of a rank, in card-by-card entry.
SEQUENCE_ROWS = 4
EXTRA_MELD_ROWS = 3


def rare_kind(rules, kind) -> bool:
    """Whether a kind's box waits under "More" rather than on the pad: the wild
    canastas of a game that has several kinds of them (Modern American and Cuban
    canasta), so that a typical hand stays on one phone screen."""
    return kind.shape == "wild" and len(rules.kinds_by_shape("wild")) > 1


def penalty_fields(rules) -> dict[str, str]:
    """The penalty kinds of ``rules`` and their box names (the fixed three, and a
    variant's held-sevens and held-aces penalties)."""
    if rules is None:
        return dict(PENALTY_FIELDS)
    return {kind: f"pen_{kind}" for kind in rules.penalty_amounts}


def extra_kinds(rules) -> list:
    """The kinds of canasta of ``rules`` besides natural and mixed."""
    if rules is None:
        return []
    return [kind for kind in rules.kinds if kind.key not in ("natural", "mixed")]


def unfinished_kinds(rules) -> list:
    """The kinds whose unfinished melds cost a penalty or stop going out (of the wild
    kinds only the most general one: an unfinished meld of wild cards counts as it)."""
    if rules is None:
        return []
    wild = rules.kinds_by_shape("wild")
    return [
        kind
        for kind in rules.kinds
        if (kind.unfinished or kind.blocks_going_out) and (kind.shape != "wild" or kind is wild[-1])
    ]


def _capital(words: str) -> str:
    return words[0].upper() + words[1:]


MODE_CHOICES = [
    ("quick", pgettext_lazy("way of entering", "Quick")),
    ("detailed", _("Card by card")),
]

QUICK_FIELDS = ("melded_points", "natural_canastas", "mixed_canastas", "hand_points")


def rank_slug(rank: str) -> str:
    return rank.lower()


class WholeNumberField(forms.CharField):
    """A box for a count or points: digits only, empty means 0; opens a number pad.
    The hand form's templates write its ``<input>`` themselves (``number_box``), with
    the attributes of :data:`NUMBER_ATTRS`."""

    number_box = True

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
    rules=None,
) -> dict[str, forms.Field]:
    """The fields of one team's entry (see :class:`TeamEntryForm`); ``alone`` when
    everyone plays alone (a table of three or two); ``penalty_points``: the rule set's
    points per penalty kind (a dict or its pairs), shown on each penalty's box;
    ``rules``: the rule set, for the boxes a variant adds (its kinds of canasta, wild
    melds, sequences, special hands)."""
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
    for kind in extra_kinds(rules):
        f[f"canasta_{kind.key}"] = WholeNumberField(
            label=_capital(kind.plural),
            help_text=_("Bonus %(points)s each.")
            % {"points": number_format(kind.bonus, force_grouping=True)},
        )
    f["hand_points"] = WholeNumberField(
        label=_("Points left in hand"),
        help_text=_("The player's cards, added up.")
        if alone
        else _("Both partners' cards, added up."),
    )
    for kind in unfinished_kinds(rules):
        if kind.unfinished:
            cost = _("Melds short of seven cards at the end (−%(points)s each).") % {
                "points": number_format(kind.unfinished, force_grouping=True)
            }
        else:
            cost = _("Melds short of seven cards at the end (no going out).")
        f[f"unfinished_{kind.key}"] = WholeNumberField(
            label=_("Unfinished %(kinds)s") % {"kinds": kind.plural},
            help_text=cost,
        )
    no_wild = rules.ranks_without_wild if rules is not None else ()
    for rank in meld_ranks(rules):
        slug = rank_slug(rank)
        f[f"meld_{slug}_naturals"] = WholeNumberField(
            label=_("%(rank)s: natural cards") % {"rank": RANK_WORDS[rank]}
        )
        if rank != "3" and rank not in no_wild:
            f[f"meld_{slug}_jokers"] = WholeNumberField(
                label=_("%(rank)s: jokers") % {"rank": RANK_WORDS[rank]}
            )
            f[f"meld_{slug}_twos"] = WholeNumberField(
                label=_("%(rank)s: twos") % {"rank": RANK_WORDS[rank]}
            )
    f.update(_variant_meld_fields(rules))
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
    if rules is not None and rules.special_hands:
        choices = [("", _("None"))] + [
            (
                name,
                _("%(hand)s (%(points)s)")
                % {
                    "hand": special_hand_words(name),
                    "points": number_format(points_, force_grouping=True),
                },
            )
            for name, points_ in rules.special_hands
        ]
        f["special_hand"] = forms.ChoiceField(
            choices=choices,
            required=False,
            label=_("Went out with a special hand"),
            help_text=_("Its points replace the going out bonus."),
        )
    f.update(_penalty_fields(points, penalty_fields(rules)))
    return f


#: The special hands of the presets (Modern American canasta), by their names in the
#: rules; a hand a club named itself is shown as typed.
SPECIAL_HAND_WORDS = {
    "straight": _("Straight"),
    "pairs": _("Pairs"),
    "pairs_with_wilds": _("Pairs with wild cards"),
    "garbage": _("Garbage"),
}


def special_hand_words(name: str) -> str:
    """A special hand's name as the hand form shows it, in the reader's language."""
    known = SPECIAL_HAND_WORDS.get(name)
    return str(known) if known is not None else _capital(name.replace("_", " "))


def meld_ranks(rules) -> tuple[str, ...]:
    """The ranks card-by-card entry has a row for (no black threes where the rules
    never meld them)."""
    if rules is not None and not rules.black_three_meld:
        return engine.NATURAL_RANKS
    return engine.MELD_RANKS


def _variant_meld_fields(rules) -> dict[str, forms.Field]:
    """Card-by-card boxes a variant adds: a meld of wild cards, sequences, and other
    melds of a rank a team already has a meld of."""
    f: dict[str, forms.Field] = {}
    if rules is None:
        return f
    if rules.kinds_by_shape("wild"):
        f["meld_wild_jokers"] = WholeNumberField(label=_("Wild cards only: jokers"))
        f["meld_wild_twos"] = WholeNumberField(label=_("Wild cards only: twos"))
    sequences = rules.kinds_by_shape("sequence")
    if sequences:
        word = sequences[0].word
        lows = [("", "—")] + [(rank, rank) for rank in SEQUENCE_LOWS]
        for n in range(1, SEQUENCE_ROWS + 1):
            f[f"seq{n}_from"] = forms.ChoiceField(
                choices=lows,
                required=False,
                label=_("Sequence %(n)s: lowest card") % {"n": n},
            )
            f[f"seq{n}_cards"] = WholeNumberField(
                label=_("Sequence %(n)s: cards") % {"n": n},
                help_text=_("3 to 7; 7 is a %(kind)s.") % {"kind": word},
            )
    if not rules.one_meld_per_rank:
        ranks = [("", _("Another meld of…"))]
        ranks += [(rank, RANK_WORDS[rank]) for rank in engine.NATURAL_RANKS]
        for n in range(1, EXTRA_MELD_ROWS + 1):
            f[f"extra{n}_rank"] = forms.ChoiceField(
                choices=ranks,
                required=False,
                label=_("Another meld %(n)s: rank") % {"n": n},
            )
            for part, words in (
                ("naturals", _("Another meld %(n)s: natural cards")),
                ("jokers", _("Another meld %(n)s: jokers")),
                ("twos", _("Another meld %(n)s: twos")),
            ):
                f[f"extra{n}_{part}"] = WholeNumberField(label=words % {"n": n})
    return f


#: The lowest card a sequence of three or more can start from (4 up to Q).
SEQUENCE_LOWS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q")


def _penalty_fields(points: dict[str, int], names: dict[str, str]) -> dict[str, forms.Field]:
    """How many times each penalty was incurred (with what each costs), and an officer's
    other penalty with its reason."""
    f: dict[str, forms.Field] = {}
    for kind, name in names.items():
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
