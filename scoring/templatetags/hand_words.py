"""A hand as entered, in words, item by item as on a score pad, for the conflict panel
of two phones that saved the same hand (``scoring/_conflict.html``): the saved hand and
what was typed side by side, the differences marked. The words are those of
:mod:`scoring.labels`, which the hand form and the workbook share."""

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.labels import CARD_WORDS, RANK_WORDS, WENT_OUT_CHOICES, kinds_words, penalty_words
from scoring.play.forms.fields import QUICK_FIELDS, special_hand_words, team_fields

register = template.Library()

_WENT_OUT = dict(WENT_OUT_CHOICES)


def _wild_cards(meld: dict) -> list[str]:
    """ "2 jokers", "1 twos": the wild cards of a meld, in the reader's language."""
    return [
        f"{meld[k]} {str(CARD_WORDS[w]).lower()}"
        for k, w in (("jokers", "joker"), ("twos", "2"))
        if meld.get(k)
    ]


def _meld_words(meld: dict) -> str:
    if isinstance(meld.get("sequence"), list):
        run = [str(rank) for rank in meld["sequence"]]  # card symbols: 4, 5 … K, A
        if not run:
            return pgettext("a meld", "Sequence")
        return pgettext("a meld", "Sequence %(low)s–%(high)s") % {"low": run[0], "high": run[-1]}
    if meld.get("rank") == "wild":
        return _("Wild cards: %(cards)s") % {"cards": " + ".join(_wild_cards(meld))}
    words = f"{RANK_WORDS.get(meld.get('rank'), meld.get('rank'))} {meld.get('naturals', 0)}"
    wild = _wild_cards(meld)
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
        items[_("Special hand")] = special_hand_words(str(team["special_hand"]))
    items[_("Red threes")] = str(team.get("red_threes") or 0)
    items[_("Went out")] = str(_WENT_OUT.get(team.get("went_out") or "none", _WENT_OUT["none"]))
    if team.get("perfect_cut"):
        items[_("Perfect cut")] = _("Yes")
    items[_("Penalties")] = penalty_words(team) or pgettext("nothing", "none")
    return items


def _side(side: dict) -> dict:
    saved, typed = team_items(side["saved"]), team_items(side["typed"])
    rows = []
    for item in dict.fromkeys([*saved, *typed]):
        a, b = saved.get(item, "—"), typed.get(item, "—")
        rows.append({"item": item, "saved": a, "typed": b, "differs": a != b})
    for item, (a, b) in zip((_("Hand score"), _("Total after")), side["scores"], strict=True):
        rows.append({"item": item, "saved": a, "typed": b, "differs": a != b, "sum": True})
    return {"label": side["label"], "rows": rows}


@register.simple_tag
def compare_sides(sides) -> dict:
    """The conflict's sides (``scoring.play.views.display.conflict_context``) item by
    item: ``{"sides": [{"label", "rows": [{"item", "saved", "typed", "differs"}, …]}],
    "same": True when no item differs}``."""
    compared = [_side(side) for side in sides or []]
    same = not any(r["differs"] for side in compared for r in side["rows"])
    return {"sides": compared, "same": same}
