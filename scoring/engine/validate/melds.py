"""Detailed melds: each meld checked against the meld rules, card by card.

A team may enter its melds (``[{"rank": "K", "naturals": 5, "jokers": 1}]``) instead of
totals; its melded points and canastas are then worked out here. Every rule a meld
breaks is explained (one meld per rank, enough natural cards, not too many wild cards,
black threes only when going out); the cards of the melds that keep the rules are
counted, so the whole hand can be checked against what the decks hold.
"""

from __future__ import annotations

from .._text import _, count, describe, gettext_noop, key_name, num, quote
from ..cards import CARD_PLURALS, CARD_VALUES, card_plural
from ..results import Refusal
from .going_out import NOT_OUT
from .numbers import bad_number

_MELD_KEYS = frozenset({"rank", "naturals", "jokers", "twos"})
_MELD_FIELD_WORDS = {
    "naturals": gettext_noop("natural cards"),
    "jokers": gettext_noop("jokers"),
    "twos": gettext_noop("twos"),
}
_RANK_VALUES = {rank: CARD_VALUES[rank] for rank in CARD_PLURALS if rank not in ("joker", "2")}
_RANK_LIST = gettext_noop("A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)")


def read_melds(rules, i, who, melds, went_out, errors, counts):
    """Check detailed melds; returns (melded points, natural, mixed canastas) or None.

    The cards of every meld that keeps the rules go to ``counts``, so that the whole
    hand can be checked against what the decks hold even when another meld is refused.
    """
    refused = False
    points = natural = mixed = 0
    seen: set[str] = set()
    for j, meld in enumerate(melds):
        before = len(errors)
        parsed = _explain_meld(rules, i, j, who, meld, went_out, seen, errors)
        if len(errors) > before:
            refused = True
        if parsed is None:
            continue
        rank, naturals, jokers, twos = parsed
        points += naturals * _RANK_VALUES[rank] + jokers * 50 + twos * 20
        counts[rank] = counts.get(rank, 0) + naturals
        if jokers:
            counts["joker"] = counts.get("joker", 0) + jokers
        if twos:
            counts["2"] = counts.get("2", 0) + twos
        if naturals + jokers + twos >= 7:
            if jokers or twos:
                mixed += 1  # a canasta with any wild card is mixed
            else:
                natural += 1
    if refused:
        return None
    return points, natural, mixed


def _explain_meld(rules, i, j, who, meld, went_out, seen, errors):
    """Refuse one meld for every rule it breaks; returns the meld if it breaks none.

    An entry a meld does not have is refused, but does not stop the meld's cards from
    counting.
    """
    where = f"teams[{i}].melds[{j}]"
    if type(meld) is not dict:
        errors.append(
            Refusal(
                where,
                _(
                    '%(who)s\'s meld %(meld)s must be an object such as {"rank": "K", '
                    '"naturals": 5, "jokers": 1}, not %(value)s.'
                )
                % {"who": who, "meld": j + 1, "value": describe(meld)},
            )
        )
        return None
    if not _MELD_KEYS.issuperset(meld):
        _unknown_meld_keys(where, who, j, meld, errors)
    meld_errors = len(errors)
    cards = _meld_cards(where, who, j, meld, errors)
    if cards is None:
        return None
    rank, naturals, jokers, twos = cards
    name = card_plural(rank)
    subject = _("%(who)s's meld of %(cards)s") % {"who": who, "cards": name}
    if rank in seen:
        errors.append(
            Refusal(
                where,
                _(
                    "%(who)s has two melds of %(cards)s; a team has one meld per rank and "
                    "further %(cards)s join it, so enter all the %(cards)s as one meld."
                )
                % {"who": who, "cards": name},
            )
        )
    seen.add(rank)
    if rank == "3":
        _check_black_threes(rules, where, who, subject, naturals, jokers + twos, went_out, errors)
    else:
        _check_natural_meld(rules, where, subject, name, naturals, jokers + twos, errors)
    if len(errors) > meld_errors:
        return None
    return cards


def _is_red_three(rank: object) -> bool:
    """Whether an entered rank means a red three ("red 3", "Red three", "3r", "3♥")."""
    if not isinstance(rank, str):
        return False
    text = "".join(rank.lower().split())
    three = "3" in text or "three" in text
    red = "red" in text or text in ("3r", "r3") or any(s in text for s in "♥♦")
    return three and red


def _rank_words(who, j, rank) -> str:
    """What to fix when a meld's rank is missing or not a rank that can be melded."""
    if _is_red_three(rank):
        return _(
            "%(who)s's meld %(meld)s is of red threes, which are never melded: take the "
            "meld out and count the red threes on %(who)s's red-threes line instead."
        ) % {"who": who, "meld": j + 1}
    words = {"who": who, "meld": j + 1, "ranks": _(_RANK_LIST), "value": describe(rank)}
    if rank is None or (isinstance(rank, str) and not rank.strip()):
        return _("%(who)s's meld %(meld)s has no rank: choose %(ranks)s.") % words
    return _("%(who)s's meld %(meld)s needs a rank: choose %(ranks)s, not %(value)s.") % words


def _unknown_meld_keys(where, who, j, meld, errors):
    for key in meld:
        if key not in _MELD_KEYS:
            errors.append(
                Refusal(
                    f"{where}.{key_name(key)}",
                    _(
                        "%(who)s's meld %(meld)s has an entry %(key)s that a meld does not "
                        "have; use rank, naturals, jokers and twos."
                    )
                    % {"who": who, "meld": j + 1, "key": quote(key_name(key))},
                )
            )


def _meld_cards(where, who, j, meld, errors):
    """A meld's (rank, naturals, jokers, twos), or None when any of them was refused."""
    rank = meld.get("rank")
    if not (isinstance(rank, str) and rank in _RANK_VALUES):
        errors.append(Refusal(f"{where}.rank", _rank_words(who, j, rank)))
        rank = None
    numbers = []
    for key in ("naturals", "jokers", "twos"):
        value = meld.get(key)
        if value is None:
            numbers.append(0)
        elif type(value) is int and value >= 0:
            numbers.append(value)
        else:
            errors.append(
                bad_number(
                    value,
                    f"{where}.{key}",
                    _("the number of %(cards)s in %(who)s's meld %(meld)s")
                    % {"cards": _(_MELD_FIELD_WORDS[key]), "who": who, "meld": j + 1},
                    False,
                )
            )
    if rank is None or len(numbers) < 3:
        return None
    return rank, *numbers


def _check_black_threes(rules, where, who, subject, naturals, wild, went_out, errors):
    """Black threes: only if the rules allow them, 3 or 4 alone, when going out."""
    if not rules.black_three_meld:
        errors.append(
            Refusal(
                where,
                _(
                    "%(who)s melded black threes, which these rules never allow; count them "
                    "as cards left in hand instead."
                )
                % {"who": who},
            )
        )
        return
    if wild:
        errors.append(
            Refusal(
                where,
                _(
                    "%(subject)s holds wild cards; black threes are melded only on their "
                    "own, with no joker or two."
                )
                % {"subject": subject},
            )
        )
    if naturals not in (3, 4):
        errors.append(
            Refusal(
                where,
                _("%(subject)s has %(cards)s; a meld of black threes has 3 or 4 of them.")
                % {
                    "subject": subject,
                    "cards": count(naturals, "%(n)s black three", "%(n)s black threes"),
                },
            )
        )
    if went_out == NOT_OUT:
        errors.append(
            Refusal(
                where,
                _(
                    "%(who)s melded black threes without going out; only the player going "
                    "out may meld black threes."
                )
                % {"who": who},
            )
        )


def meld_keeps_rules(rules, naturals: int, wild: int) -> bool:
    """Whether a meld of a natural rank with these cards keeps the meld rules (the very
    checks detailed entry makes, so the canasta minimums of totals follow them)."""
    problems: list[Refusal] = []
    _check_natural_meld(rules, "", "", "", naturals, wild, problems)
    return not problems


def _check_natural_meld(rules, where, subject, name, naturals, wild, errors):
    """A meld of a natural rank: enough natural cards, and not too many wild ones."""
    min_nat = rules.min_naturals_per_meld
    if naturals == 0:
        if wild:
            message = _(
                "%(subject)s has only wild cards; wild cards alone never form a meld, so "
                "add at least %(least)s natural %(cards)s."
            ) % {"subject": subject, "least": min_nat, "cards": name}
        else:
            message = _("%(subject)s has no cards; enter its cards or remove it.") % {
                "subject": subject
            }
        errors.append(Refusal(where, message))
        return
    if naturals < min_nat:
        errors.append(
            Refusal(
                where,
                _("%(subject)s has %(cards)s; a meld needs at least %(least)s natural cards.")
                % {
                    "subject": subject,
                    "cards": count(naturals, "%(n)s natural card", "%(n)s natural cards"),
                    "least": min_nat,
                },
            )
        )
    if naturals + wild < 3:
        errors.append(
            Refusal(
                where,
                _("%(subject)s has only %(cards)s; a meld needs at least 3.")
                % {
                    "subject": subject,
                    "cards": count(naturals + wild, "%(n)s card", "%(n)s cards"),
                },
            )
        )
    _check_wild_cards(rules, where, subject, naturals, wild, errors)


def _check_wild_cards(rules, where, subject, naturals, wild, errors):
    max_wild = rules.max_wild_per_meld
    if wild > max_wild:
        errors.append(
            Refusal(
                where,
                _("%(subject)s has %(wild)s wild cards; a meld may hold at most %(most)s.")
                % {
                    "subject": subject,
                    "wild": num(wild),
                    "most": count(max_wild, "%(n)s wild card", "%(n)s wild cards"),
                },
            )
        )
    elif rules.wilds_may_not_outnumber_naturals and wild > naturals:
        errors.append(
            Refusal(
                where,
                _(
                    "%(subject)s has more wild cards (%(wild)s) than natural cards "
                    "(%(naturals)s); under these rules wild cards may not outnumber naturals."
                )
                % {"subject": subject, "wild": num(wild), "naturals": num(naturals)},
            )
        )
