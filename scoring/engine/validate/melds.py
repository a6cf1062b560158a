"""Detailed melds: each meld checked against the meld rules, card by card.

A team may enter its melds (``[{"rank": "K", "naturals": 5, "jokers": 1}]``) instead of
totals; its melded points and canastas are then worked out here. Every rule a meld
breaks is explained (one meld per rank, enough natural cards, not too many wild cards,
black threes only when going out); the cards of the melds that keep the rules are
counted, so the whole hand can be checked against what the decks hold.
"""

from __future__ import annotations

from .._text import describe, key_name, num, plural, quote
from ..cards import CARD_PLURALS, CARD_VALUES
from ..results import Refusal
from .going_out import NOT_OUT
from .numbers import bad_number

_MELD_KEYS = frozenset({"rank", "naturals", "jokers", "twos"})
_MELD_FIELD_WORDS = {"naturals": "natural cards", "jokers": "jokers", "twos": "twos"}
_RANK_VALUES = {rank: CARD_VALUES[rank] for rank in CARD_PLURALS if rank not in ("joker", "2")}
_RANK_LIST = "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)"


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
                f"{who}'s meld {j + 1} must be an object such as "
                f'{{"rank": "K", "naturals": 5, "jokers": 1}}, not {describe(meld)}.',
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
    name = CARD_PLURALS[rank]
    subject = f"{who}'s meld of {name}"
    if rank in seen:
        errors.append(
            Refusal(
                where,
                f"{who} has two melds of {name}; a team has one meld per rank and further "
                f"{name} join it, so enter all the {name} as one meld.",
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
        return (
            f"{who}'s meld {j + 1} is of red threes, which are never melded: take the "
            f"meld out and count the red threes on {who}'s red-threes line instead."
        )
    if rank is None or (isinstance(rank, str) and not rank.strip()):
        return f"{who}'s meld {j + 1} has no rank: choose {_RANK_LIST}."
    return f"{who}'s meld {j + 1} needs a rank: choose {_RANK_LIST}, not {describe(rank)}."


def _unknown_meld_keys(where, who, j, meld, errors):
    for key in meld:
        if key not in _MELD_KEYS:
            errors.append(
                Refusal(
                    f"{where}.{key_name(key)}",
                    f"{who}'s meld {j + 1} has an entry {quote(key_name(key))} that a "
                    f"meld does not have; use rank, naturals, jokers and twos.",
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
                    f"the number of {_MELD_FIELD_WORDS[key]} in {who}'s meld {j + 1}",
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
                f"{who} melded black threes, which these rules never allow; count "
                f"them as cards left in hand instead.",
            )
        )
        return
    if wild:
        errors.append(
            Refusal(
                where,
                f"{subject} holds wild cards; black threes are melded only "
                f"on their own, with no joker or two.",
            )
        )
    if naturals not in (3, 4):
        errors.append(
            Refusal(
                where,
                f"{subject} has {plural(naturals, 'black three')}; a meld of "
                f"black threes has 3 or 4 of them.",
            )
        )
    if went_out == NOT_OUT:
        errors.append(
            Refusal(
                where,
                f"{who} melded black threes without going out; only the player "
                f"going out may meld black threes.",
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
            message = (
                f"{subject} has only wild cards; wild cards alone never form a "
                f"meld, so add at least {min_nat} natural {name}."
            )
        else:
            message = f"{subject} has no cards; enter its cards or remove it."
        errors.append(Refusal(where, message))
        return
    if naturals < min_nat:
        errors.append(
            Refusal(
                where,
                f"{subject} has {plural(naturals, 'natural card')}; a meld needs at "
                f"least {min_nat} natural cards.",
            )
        )
    if naturals + wild < 3:
        errors.append(
            Refusal(
                where,
                f"{subject} has only {plural(naturals + wild, 'card')}; a meld needs at least 3.",
            )
        )
    _check_wild_cards(rules, where, subject, naturals, wild, errors)


def _check_wild_cards(rules, where, subject, naturals, wild, errors):
    max_wild = rules.max_wild_per_meld
    if wild > max_wild:
        errors.append(
            Refusal(
                where,
                f"{subject} has {num(wild)} wild cards; a meld may hold at most "
                f"{plural(max_wild, 'wild card')}.",
            )
        )
    elif rules.wilds_may_not_outnumber_naturals and wild > naturals:
        errors.append(
            Refusal(
                where,
                f"{subject} has more wild cards ({num(wild)}) than natural cards "
                f"({num(naturals)}); under these rules wild cards may not outnumber "
                f"naturals.",
            )
        )
