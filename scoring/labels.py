"""The words the site uses for cards, penalties, going out and the parts of a hand's
score, written once, in every language (lazy: each is said in the language of the page
or sheet that reads it).

The hand form's labels, the preview of a hand, a hand's history and the workbook all
read them from here, so "Red three kept in hand" is said the same way on every page and
sheet. The time of day is written by :func:`clubsite.clock.clock` (members use it too).
"""

import re

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine.rules.kinds import CATALOGUE, CATALOGUE_BY_KEY, kind_words

__all__ = [
    "BREAKDOWN_WORDS",
    "CARD_WORDS",
    "PENALTY_LABELS",
    "RANK_WORDS",
    "WENT_OUT_CHOICES",
    "WENT_OUT_SHEET",
    "WENT_OUT_WORDS",
    "kinds_words",
]

RANK_WORDS = {
    "A": _("Aces"),
    "K": _("Kings"),
    "Q": _("Queens"),
    "J": _("Jacks"),
    "10": _("Tens"),
    "9": _("Nines"),
    "8": _("Eights"),
    "7": _("Sevens"),
    "6": _("Sixes"),
    "5": _("Fives"),
    "4": _("Fours"),
    "3": _("Black threes"),
}
CARD_WORDS = {"joker": _("Jokers"), "2": _("Twos"), **RANK_WORDS}

PENALTY_LABELS = {
    "ask_to_go_out_failed": _("Asked to go out, then did not"),
    "discard_unused": _("Took the top discard, did not use it"),
    "red_three_in_hand": _("Red three kept in hand"),
    # A kind's penalty for holding three or more of its rank (Modern American canasta).
    "held_sevens": _("Held three or more sevens"),
    "held_aces": _("Held three or more aces"),
}


_KIND_ORDER = {spec.key: n for n, spec in enumerate(CATALOGUE)}


def kinds_words(canastas, leave_out=("natural", "mixed"), names=None) -> str:
    """Canastas by kind in words, "1 canasta of sevens; 2 sequence canastas" (the
    kinds in ``leave_out`` left out), in the catalogue's order whatever the order of
    the stored object (PostgreSQL keeps a JSON object's keys in an order of its own):
    the workbook's Hands sheet. ``names``: the game's own names of kinds ("Samba" for
    its sequence canastas)."""
    if not isinstance(canastas, dict):
        return ""
    words = []
    for kind, n in sorted(canastas.items(), key=lambda item: _KIND_ORDER.get(item[0], 99)):
        spec = CATALOGUE_BY_KEY.get(kind)
        if kind in leave_out or spec is None or type(n) is not int or n <= 0:
            continue
        one, many = kind_words((names or {}).get(kind) or spec.label)
        words.append(f"{n} {one if n == 1 else many}")
    return "; ".join(words)


#: The hand form's "Went out" choices.
WENT_OUT_CHOICES = [
    ("none", pgettext_lazy("went out", "No")),
    ("out", pgettext_lazy("went out", "Out")),
    ("concealed", pgettext_lazy("went out", "Concealed")),
]
#: How a hand's history says it ("Team 1 went out concealed").
WENT_OUT_WORDS = {"none": _("no"), "out": _("went out"), "concealed": _("went out concealed")}
#: The workbook's "Went out" column: blank when the team did not.
WENT_OUT_SHEET = {
    "none": "",
    "out": pgettext_lazy("went out", "Out"),
    "concealed": pgettext_lazy("went out", "Concealed"),
}

#: The parts of a team's hand score (the engine's ``breakdown`` keys), as the preview
#: of a hand lists them.
BREAKDOWN_WORDS = {
    "melded_cards": _("Melded cards"),
    "canastas": _("Canastas"),
    "red_threes": _("Red threes"),
    "going_out": _("Going out"),
    "perfect_cut": _("Perfect cut"),
    "cards_in_hand": _("Cards left in hand"),
    "penalties": _("Penalties"),
}


def penalty_words(team_inputs) -> str:
    """A team's penalties in a hand, in words: "Red three kept in hand ×2; Slow play
    (100)" (an "other" penalty by its note and points): the workbook's Hands sheet and the
    two hands side by side of a conflict."""
    penalties = team_inputs.get("penalties") if isinstance(team_inputs, dict) else None
    counts: dict[str, int] = {}
    others = []
    for penalty in penalties if isinstance(penalties, list) else []:
        kind = penalty.get("kind") if isinstance(penalty, dict) else None
        if kind in PENALTY_LABELS:
            counts[kind] = counts.get(kind, 0) + 1
        elif kind == "other":
            note = str(penalty.get("note") or gettext("Other penalty")).strip()
            others.append(f"{note} ({penalty.get('points')})")
    words = [str(PENALTY_LABELS[k]) + (f" ×{n}" if n > 1 else "") for k, n in counts.items()]
    unfinished = team_inputs.get("unfinished") if isinstance(team_inputs, dict) else None
    if unfinished:
        words.append(
            gettext("Unfinished: %(kinds)s") % {"kinds": kinds_words(unfinished, leave_out=())}
        )
    return "; ".join(words + others)


_VARIANT = re.compile(r"^(?P<base>.+) \((?P<players>two|three) players\)$")


def rules_words(name: str) -> str:
    """A rule set's name in the reader's language: the presets' names ("Club house
    rules", "Club house rules (three players)") are translated, a club's own names are
    kept as the officer typed them."""
    name = str(name or "")
    match = _VARIANT.match(name)
    if match:
        players = (
            gettext("three players") if match["players"] == "three" else gettext("two players")
        )
        return f"{gettext(match['base'])} ({players})"
    return gettext(name) if name else ""
