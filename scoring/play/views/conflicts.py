"""Two phones saved different numbers for the same hand: the second one is shown both
hands side by side, item by item with the differences marked, and chooses to keep the
saved hand or to replace it with its own (``table._replace``). Nothing here writes.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring import engine
from scoring.labels import CARD_WORDS, RANK_WORDS, WENT_OUT_CHOICES, kinds_words, penalty_words
from scoring.models import TeamHand
from scoring.play.forms.fields import QUICK_FIELDS, team_fields

_WENT_OUT = dict(WENT_OUT_CHOICES)


def _meld_words(meld: dict) -> str:
    if isinstance(meld.get("sequence"), list):
        run = [str(rank) for rank in meld["sequence"]]
        return f"Sequence {run[0]}–{run[-1]}" if run else "Sequence"
    if meld.get("rank") == "wild":
        wild = [f"{meld[k]} {k}" for k in ("jokers", "twos") if meld.get(k)]
        return "Wild " + " + ".join(wild)
    words = f"{RANK_WORDS.get(meld.get('rank'), meld.get('rank'))} {meld.get('naturals', 0)}"
    wild = [
        f"{meld[k]} {CARD_WORDS[w].lower()}"
        for k, w in (("jokers", "joker"), ("twos", "2"))
        if meld.get(k)
    ]
    return words + (f" + {' + '.join(wild)}" if wild else "")


def team_items(team: dict) -> dict[str, str]:
    """One side's entry as the rows of a score pad: item → value in words."""
    if not isinstance(team, dict):
        return {}
    items: dict[str, str] = {}
    if "melds" in team:
        none = pgettext("nothing", "none")
        items[_("Melds")] = ", ".join(_meld_words(m) for m in team.get("melds") or []) or none
        cards = team.get("hand_cards") or {}
        items[_("Cards left in hand")] = (
            ", ".join(f"{n} {CARD_WORDS.get(k, k)}" for k, n in cards.items() if n) or none
        )
    else:
        fields = team_fields(False, 0)
        for name in QUICK_FIELDS:
            items[str(fields[name].label)] = number_format(team.get(name) or 0, force_grouping=True)
        if team.get("canastas"):
            items[_("Other canastas")] = kinds_words(team["canastas"]) or _("none")
    if team.get("unfinished"):
        items[_("Unfinished melds")] = kinds_words(team["unfinished"], leave_out=()) or _("none")
    if team.get("special_hand"):
        items[_("Special hand")] = str(team["special_hand"]).replace("_", " ")
    items[_("Red threes")] = str(team.get("red_threes") or 0)
    items[_("Went out")] = str(_WENT_OUT.get(team.get("went_out") or "none", _WENT_OUT["none"]))
    if team.get("perfect_cut"):
        items[_("Perfect cut")] = _("Yes")
    items[_("Penalties")] = penalty_words(team) or pgettext("nothing", "none")
    return items


def _side(label, saved: dict, typed: dict, scores: tuple) -> dict:
    rows = []
    for item in dict.fromkeys([*saved, *typed]):
        a, b = saved.get(item, "—"), typed.get(item, "—")
        rows.append({"item": item, "saved": a, "typed": b, "differs": a != b})
    for item, (a, b) in zip((_("Hand score"), _("Total after")), scores, strict=True):
        rows.append({"item": item, "saved": a, "typed": b, "differs": a != b, "sum": True})
    return {"label": label, "rows": rows}


def _score_words(value) -> str:
    if value is None:
        return "—"
    return ("+" if value >= 0 else "") + number_format(value, force_grouping=True)


def _total_words(value: int) -> str:
    return number_format(value, force_grouping=True)


def conflict_context(game, entry, existing, message: str) -> dict:
    """What the conflict panel shows: the saved hand and what was typed, per side."""
    conflict = {"message": message, "hand": existing}
    if existing is None:
        return conflict
    rules = game.engine_rules()
    saved_rows = list(TeamHand.objects.filter(hand=existing).order_by("team__index"))
    typed = entry.inputs()
    outcome = engine.score_hand(
        rules, typed, [r.score_before for r in saved_rows] or None, existing.number
    )
    sides = []
    for k, row in enumerate(saved_rows):
        mine = outcome.teams[k] if outcome.ok and k < len(outcome.teams) else None
        scores = (
            (_score_words(row.hand_score), _score_words(mine and mine.hand_score)),
            (_total_words(row.score_after), _total_words(mine.score_after) if mine else "—"),
        )
        saved = existing.inputs[k] if k < len(existing.inputs) else {}
        sides.append(_side(rules.team_label(k), team_items(saved), team_items(typed[k]), scores))
    conflict["sides"] = sides
    conflict["same"] = not any(r["differs"] for side in sides for r in side["rows"])
    return conflict
