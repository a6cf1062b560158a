"""The words the site uses for cards, penalties, going out and the parts of a hand's
score, written once.

The hand form's labels, the preview of a hand, a hand's history and the workbook all
read them from here, so "Red three kept in hand" is said the same way on every page and
sheet. The time of day is written by :func:`clubsite.clock.clock` (members use it too).
"""

from scoring.engine.rules.kinds import CATALOGUE, CATALOGUE_BY_KEY

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
    "A": "Aces",
    "K": "Kings",
    "Q": "Queens",
    "J": "Jacks",
    "10": "Tens",
    "9": "Nines",
    "8": "Eights",
    "7": "Sevens",
    "6": "Sixes",
    "5": "Fives",
    "4": "Fours",
    "3": "Black threes",
}
CARD_WORDS = {"joker": "Jokers", "2": "Twos", **RANK_WORDS}

PENALTY_LABELS = {
    "ask_to_go_out_failed": "Asked to go out, then did not",
    "discard_unused": "Took the top discard, did not use it",
    "red_three_in_hand": "Red three kept in hand",
    # A kind's penalty for holding three or more of its rank (Modern American canasta).
    "held_sevens": "Held three or more sevens",
    "held_aces": "Held three or more aces",
}


_KIND_ORDER = {spec.key: n for n, spec in enumerate(CATALOGUE)}


def kinds_words(canastas, leave_out=("natural", "mixed")) -> str:
    """Canastas by kind in words, "1 canasta of sevens; 2 sequence canastas" (the
    kinds in ``leave_out`` left out), in the catalogue's order whatever the order of
    the stored object (PostgreSQL keeps a JSON object's keys in an order of its own):
    the workbook's Hands sheet."""
    if not isinstance(canastas, dict):
        return ""
    words = []
    for kind, n in sorted(canastas.items(), key=lambda item: _KIND_ORDER.get(item[0], 99)):
        spec = CATALOGUE_BY_KEY.get(kind)
        if kind in leave_out or spec is None or type(n) is not int or n <= 0:
            continue
        label = spec.label[0].lower() + spec.label[1:]
        many = label.replace("canasta", "canastas", 1) if "canasta" in label else label + "s"
        words.append(f"{n} {label if n == 1 else many}")
    return "; ".join(words)


#: The hand form's "Went out" choices.
WENT_OUT_CHOICES = [("none", "No"), ("out", "Out"), ("concealed", "Concealed")]
#: How a hand's history says it ("Team 1 went out concealed").
WENT_OUT_WORDS = {"none": "no", "out": "went out", "concealed": "went out concealed"}
#: The workbook's "Went out" column: blank when the team did not.
WENT_OUT_SHEET = {"none": "", "out": "Out", "concealed": "Concealed"}

#: The parts of a team's hand score (the engine's ``breakdown`` keys), as the preview
#: of a hand lists them.
BREAKDOWN_WORDS = {
    "melded_cards": "Melded cards",
    "canastas": "Canastas",
    "red_threes": "Red threes",
    "going_out": "Going out",
    "perfect_cut": "Perfect cut",
    "cards_in_hand": "Cards left in hand",
    "penalties": "Penalties",
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
            note = str(penalty.get("note") or "Other penalty").strip()
            others.append(f"{note} ({penalty.get('points')})")
    words = [PENALTY_LABELS[k] + (f" ×{n}" if n > 1 else "") for k, n in counts.items()]
    unfinished = team_inputs.get("unfinished") if isinstance(team_inputs, dict) else None
    if unfinished:
        words.append(f"Unfinished: {kinds_words(unfinished, leave_out=())}")
    return "; ".join(words + others)
