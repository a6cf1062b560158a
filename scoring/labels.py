"""The words the site uses for cards, penalties, going out and the parts of a hand's
score, written once, in every language (lazy: each is said in the language of the page
or sheet that reads it).

The hand form's labels, the preview of a hand, a hand's history and the workbook all
read them from here, so "Red three kept in hand" is said the same way on every page and
sheet. The time of day is written by :func:`clubsite.clock.clock` (members use it too).
"""

import re

from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine.rules.kinds import CATALOGUE, CATALOGUE_BY_KEY, kind_words
from scoring.engine.rules.presets import PRESETS

__all__ = [
    "BREAKDOWN_WORDS",
    "CARD_WORDS",
    "PENALTY_LABELS",
    "RANK_WORDS",
    "WENT_OUT_CHOICES",
    "WENT_OUT_SHEET",
    "WENT_OUT_WORDS",
    "kinds_words",
    "rules_description",
    "rules_words",
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
#: How a hand's history says it, as the value of its "went out" line ("Team 1 went
#: out yes → no"; the label is the line's own).
WENT_OUT_WORDS = {"none": _("no"), "out": _("yes"), "concealed": _("yes, concealed")}
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

#: What each shipped preset is, by its slug: said in the reader's language whatever the
#: stored row says (the rows were written in English by the migrations).
PRESET_DESCRIPTIONS = {
    "classic": gettext_noop(
        "The standard game (Pagat, Bicycle): two partnerships, one canasta to go out."
    ),
    "club": gettext_noop(
        "The club's house rules: two canastas to go out, perfect cut 100, wild cards may "
        "not outnumber naturals."
    ),
    "two-player": gettext_noop(
        "Two players, each scoring alone; 15 cards dealt; two canastas to go out."
    ),
    "six-player": gettext_noop("Six players in two teams of three, three decks, game to 10,000."),
    "three-teams": gettext_noop("Six players in three partnerships, three decks, game to 7,500."),
    "three-player": gettext_noop(
        "Three players, each scoring alone; 13 cards each from two decks; two canastas to go out."
    ),
    "modern-american": gettext_noop(
        "Modern American canasta (American Canasta Society style): 13 cards, canastas of "
        "sevens and aces 2,500, wild canastas 2,000 to 3,000, penalties for unfinished ones, "
        "special hands, two canastas to go out, game to 8,500."
    ),
    "hand-and-foot": gettext_noop(
        "Hand and Foot: five decks, a hand and a foot of 11 cards each, four hands with "
        "minimums 50, 90, 120 and 150, two natural and two mixed canastas to go out; the "
        "highest total after the fourth hand wins."
    ),
    "samba": gettext_noop(
        "Samba: three decks, 15 cards, sequences of one suit (a samba of seven scores 1,500), "
        "two canastas to go out, going out 200, game to 10,000."
    ),
    "bolivia": gettext_noop(
        "Bolivia: Samba with wild canastas (a bolivia of seven wild cards 2,500), an escalera "
        "among the canastas to go out, black threes left in hand minus 100, game to 15,000."
    ),
    "uruguayan": gettext_noop(
        "Uruguayan canasta: classic canasta with wild canastas of seven jokers and twos (2,000)."
    ),
    "cuban": gettext_noop(
        "Cuban canasta: 13 cards, wild canastas 2,000 to 4,000, red threes 100, 300, 500 and "
        "1,000 with a canasta, melds of at most seven, game to 7,500."
    ),
}


def _preset_slug(rule_set) -> str | None:
    """A stored rule set's slug when it is a shipped preset (no club), else None."""
    slug = getattr(rule_set, "slug", None)
    if slug in PRESETS and getattr(rule_set, "is_preset", False):
        return slug
    return None


def rules_words(rule_set) -> str:
    """A rule set's name in the reader's language: the one helper every page, sheet and
    list uses for a rule set's name. ``rule_set`` is a stored rule set (a shipped preset
    is named by its slug, whatever its row says) or a name as a game keeps it (the
    presets' names, "Club house rules (three players)" included, are translated). A
    club's own names are kept as the officer typed them."""
    slug = _preset_slug(rule_set)
    if slug is not None:
        return gettext(PRESETS[slug].label)
    name = str(rule_set or "")
    match = _VARIANT.match(name)
    if match:
        players = (
            gettext("three players") if match["players"] == "three" else gettext("two players")
        )
        return f"{gettext(match['base'])} ({players})"
    return gettext(name) if name else ""


def rules_description(rule_set) -> str:
    """A stored rule set's description in the reader's language (a preset's by its slug;
    a club's own as typed)."""
    slug = _preset_slug(rule_set)
    if slug in PRESET_DESCRIPTIONS:
        return gettext(PRESET_DESCRIPTIONS[slug])
    return rule_set.description
