"""Detailed melds: each meld checked against the meld rules, card by card.

A team may enter its melds (``[{"rank": "K", "naturals": 5, "jokers": 1}]``) instead of
totals; its melded points, its canastas of each kind and its unfinished melds are then
worked out here. A meld is of one rank (``rank`` and its cards), of wild cards only
(``{"rank": "wild", "twos": 7}``, in games that have wild canastas) or a sequence of one
suit (``{"sequence": ["4", "5", "6"]}``, in games that have sequence canastas). Every
rule a meld breaks is explained (one meld per rank, enough natural cards, not too many
wild cards or cards, black threes only when going out, a sequence without wild cards);
the cards of the melds that keep the rules are counted, so the whole hand can be checked
against what the decks hold.
"""

from __future__ import annotations

from typing import NamedTuple

from .._text import _, count, describe, gettext_noop, key_name, num, quote, sentence_list
from ..cards import CARD_PLURALS, card_plural
from ..results import Refusal
from ..rules.kinds import (
    CANASTA_CARDS,
    GROUP,
    SEQUENCE,
    SEQUENCE_ORDER,
    WILD,
    kind_index,
    unfinished_index,
)
from .going_out import NOT_OUT
from .numbers import bad_number

_MELD_KEYS = frozenset({"rank", "naturals", "jokers", "twos"})
_SEQUENCE_KEYS = _MELD_KEYS | {"sequence"}
_MELD_FIELD_WORDS = {
    "naturals": gettext_noop("natural cards"),
    "jokers": gettext_noop("jokers"),
    "twos": gettext_noop("twos"),
}
_RANKS = frozenset(rank for rank in CARD_PLURALS if rank not in ("joker", "2"))
_RANK_LIST = gettext_noop("A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)")
_WILD_RANK_LIST = gettext_noop(
    "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3 (black threes) or wild (wild cards only)"
)
_POSITION = {rank: n for n, rank in enumerate(SEQUENCE_ORDER)}


class Meld(NamedTuple):
    """A meld that keeps the rules: its shape, rank (None for wild cards and
    sequences), cards and, for a sequence, its ranks."""

    shape: str
    rank: str | None
    naturals: int
    jokers: int
    twos: int
    run: tuple[str, ...] = ()


def read_melds(rules, i, who, melds, went_out, errors, counts):
    """Check detailed melds; returns (melded points, canastas by kind, unfinished melds
    by kind) or None. Both counts are tuples in the order of ``rules.kinds``.

    The cards of every meld that keeps the rules go to ``counts``, so that the whole
    hand can be checked against what the decks hold even when another meld is refused.
    """
    kinds = rules.kinds
    values = rules.values
    refused = False
    points = 0
    canastas = [0] * len(kinds)
    unfinished = [0] * len(kinds)
    seen: set[str] = set()
    for j, meld in enumerate(melds):
        before = len(errors)
        parsed = _explain_meld(rules, i, j, who, meld, went_out, seen, errors)
        if len(errors) > before:
            refused = True
        if parsed is None:
            continue
        shape, rank, naturals, jokers, twos, run = parsed
        wild = jokers + twos
        points += jokers * values["joker"] + twos * values["2"]
        if shape == SEQUENCE:
            for card in run:
                points += values[card]
                counts[card] = counts.get(card, 0) + 1
            cards = len(run)
        else:
            if naturals:
                points += naturals * values[rank]
                counts[rank] = counts.get(rank, 0) + naturals
            cards = naturals + wild
        if jokers:
            counts["joker"] = counts.get("joker", 0) + jokers
        if twos:
            counts["2"] = counts.get("2", 0) + twos
        if rank == "3":
            continue
        if cards >= CANASTA_CARDS:
            index = kind_index(kinds, shape, rank, wild, jokers)
            if index is not None:
                canastas[index] += 1
        else:
            index = unfinished_index(kinds, shape, rank, wild, jokers)
            if index is not None:
                unfinished[index] += 1
    if refused:
        return None
    return points, tuple(canastas), tuple(unfinished)


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
    sequences = rules.kinds_by_shape(SEQUENCE)
    keys = _SEQUENCE_KEYS if sequences else _MELD_KEYS
    if not keys.issuperset(meld):
        _unknown_meld_keys(where, who, j, meld, errors, bool(sequences))
    if "sequence" in meld and sequences:
        return _explain_sequence(rules, where, who, j, meld, sequences[0], errors)
    meld_errors = len(errors)
    wild_melds = bool(rules.kinds_by_shape(WILD))
    cards = _meld_cards(where, who, j, meld, errors, wild_melds)
    if cards is None:
        return None
    rank, naturals, jokers, twos = cards
    if rank == "wild":
        _check_wild_meld(rules, where, who, naturals, jokers + twos, errors)
        if len(errors) > meld_errors:
            return None
        return Meld(WILD, None, 0, jokers, twos)
    name = card_plural(rank)
    subject = _("%(who)s's meld of %(cards)s") % {"who": who, "cards": name}
    if rank in seen and rules.one_meld_per_rank:
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
        _check_natural_meld(rules, where, subject, name, naturals, jokers + twos, errors, rank)
    if len(errors) > meld_errors:
        return None
    return Meld(GROUP, rank, naturals, jokers, twos)


def _is_red_three(rank: object) -> bool:
    """Whether an entered rank means a red three ("red 3", "Red three", "3r", "3♥")."""
    if not isinstance(rank, str):
        return False
    text = "".join(rank.lower().split())
    three = "3" in text or "three" in text
    red = "red" in text or text in ("3r", "r3") or any(s in text for s in "♥♦")
    return three and red


def _rank_words(who, j, rank, wild_melds) -> str:
    """What to fix when a meld's rank is missing or not a rank that can be melded."""
    ranks = _WILD_RANK_LIST if wild_melds else _RANK_LIST
    if _is_red_three(rank):
        return _(
            "%(who)s's meld %(meld)s is of red threes, which are never melded: take the "
            "meld out and count the red threes on %(who)s's red-threes line instead."
        ) % {"who": who, "meld": j + 1}
    words = {"who": who, "meld": j + 1, "ranks": _(ranks), "value": describe(rank)}
    if rank is None or (isinstance(rank, str) and not rank.strip()):
        return _("%(who)s's meld %(meld)s has no rank: choose %(ranks)s.") % words
    return _("%(who)s's meld %(meld)s needs a rank: choose %(ranks)s, not %(value)s.") % words


def _unknown_meld_keys(where, who, j, meld, errors, sequences):
    keys = _SEQUENCE_KEYS if sequences else _MELD_KEYS
    listed = (
        _("rank, naturals, jokers and twos, or sequence")
        if sequences
        else _("rank, naturals, jokers and twos")
    )
    for key in meld:
        if key not in keys:
            errors.append(
                Refusal(
                    f"{where}.{key_name(key)}",
                    _(
                        "%(who)s's meld %(meld)s has an entry %(key)s that a meld does not "
                        "have; use %(keys)s."
                    )
                    % {"who": who, "meld": j + 1, "key": quote(key_name(key)), "keys": listed},
                )
            )


def _meld_numbers(where, who, j, meld, errors):
    """The meld's (naturals, jokers, twos), or None when any of them was refused."""
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
    return numbers if len(numbers) == 3 else None


def _meld_cards(where, who, j, meld, errors, wild_melds):
    """A meld's (rank, naturals, jokers, twos), or None when any of them was refused."""
    rank = meld.get("rank")
    if not (isinstance(rank, str) and (rank in _RANKS or (wild_melds and rank == "wild"))):
        errors.append(Refusal(f"{where}.rank", _rank_words(who, j, rank, wild_melds)))
        rank = None
    numbers = _meld_numbers(where, who, j, meld, errors)
    if rank is None or numbers is None:
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


def meld_keeps_rules(rules, naturals: int, wild: int, rank: str | None = None) -> bool:
    """Whether a meld of a natural rank with these cards keeps the meld rules (the very
    checks detailed entry makes, so the canasta minimums of totals follow them)."""
    problems: list[Refusal] = []
    _check_natural_meld(rules, "", "", "", naturals, wild, problems, rank)
    return not problems


def _check_natural_meld(rules, where, subject, name, naturals, wild, errors, rank=None):
    """A meld of a natural rank: enough natural cards, not too many wild ones or cards."""
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
    if wild and rank is not None and rank in rules.ranks_without_wild:
        errors.append(
            Refusal(
                where,
                _(
                    "%(subject)s holds %(plural)s; under these rules %(name)s are "
                    "melded without wild cards, so enter the wild cards elsewhere."
                )
                % {
                    "subject": subject,
                    "plural": count(wild, "%(n)s wild card", "%(n)s wild cards"),
                    "name": name,
                },
            )
        )
        return
    _check_wild_cards(rules, where, subject, naturals, wild, errors)
    _check_meld_size(rules, where, subject, naturals + wild, errors)


def _check_meld_size(rules, where, subject, cards, errors):
    most = rules.max_meld_cards
    if most and cards > most:
        errors.append(
            Refusal(
                where,
                _("%(subject)s has %(num)s cards; under these rules a meld holds at most %(num2)s.")
                % {"subject": subject, "num": num(cards), "num2": num(most)},
            )
        )


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


def _check_wild_meld(rules, where, who, naturals, wild, errors):
    """A meld of wild cards only (games with wild canastas): 3 or more of them."""
    subject = f"{who}'s wild meld"
    if naturals:
        errors.append(
            Refusal(
                where,
                _(
                    "%(subject)s holds %(plural)s; a wild meld is jokers and twos "
                    "only, so enter the natural cards in a meld of their rank."
                )
                % {
                    "subject": subject,
                    "plural": count(naturals, "%(n)s natural card", "%(n)s natural cards"),
                },
            )
        )
        return
    if wild < 3:
        errors.append(
            Refusal(
                where,
                _("%(subject)s has only %(plural)s; a meld needs at least 3.")
                % {"subject": subject, "plural": count(wild, "%(n)s card", "%(n)s cards")},
            )
        )
    _check_meld_size(rules, where, subject, wild, errors)


def _explain_sequence(rules, where, who, j, meld, kind, errors):
    """A sequence of one suit (Samba's samba, Bolivia's escalera): 3 to 7 natural
    cards of ranks next to each other, 4 low and ace high, and no wild card."""
    subject = f"{who}'s sequence (meld {j + 1})"
    before = len(errors)
    if meld.get("rank") is not None:
        errors.append(
            Refusal(
                f"{where}.rank",
                _(
                    "%(subject)s also names a rank; a meld is either of one rank or "
                    "a sequence, so take the rank out or enter the sequence as a "
                    "meld of its own."
                )
                % {"subject": subject},
            )
        )
    numbers = _meld_numbers(where, who, j, meld, errors)
    if numbers is not None and (numbers[1] or numbers[2]):
        wild = numbers[1] + numbers[2]
        errors.append(
            Refusal(
                where,
                _(
                    "%(subject)s holds %(plural)s; a sequence (%(word)s) is natural "
                    "cards of one suit only, so take the wild cards out."
                )
                % {
                    "subject": subject,
                    "plural": count(wild, "%(n)s wild card", "%(n)s wild cards"),
                    "word": kind.word,
                },
            )
        )
    run = _sequence_ranks(where, subject, meld.get("sequence"), errors)
    if run is not None and numbers is not None and numbers[0] and numbers[0] != len(run):
        errors.append(
            Refusal(
                f"{where}.naturals",
                _(
                    "%(subject)s lists %(plural)s but says it has %(num)s; leave the "
                    "number of natural cards out."
                )
                % {
                    "subject": subject,
                    "plural": count(len(run), "%(n)s card", "%(n)s cards"),
                    "num": num(numbers[0]),
                },
            )
        )
    if len(errors) > before or run is None:
        return None
    return Meld(SEQUENCE, None, len(run), 0, 0, run)


def _sequence_ranks(where, subject, ranks, errors):
    """The ranks of a sequence in order, or None (with a refusal) if they are not one."""
    wrong = (
        f"{subject} must list its cards' ranks, such as "
        f'["8", "9", "10", "J"]: 3 to {CANASTA_CARDS} ranks next to each other, from 4 '
        f"up to A."
    )
    if not isinstance(ranks, list) or not all(isinstance(r, str) for r in ranks):
        errors.append(Refusal(f"{where}.sequence", wrong))
        return None
    unknown = [r for r in ranks if r not in _POSITION]
    if unknown:
        errors.append(
            Refusal(
                f"{where}.sequence",
                _(
                    "%(subject)s lists %(sentence_list)s; a sequence is made of the "
                    "natural ranks 4 up to A (no threes, no wild cards)."
                )
                % {
                    "subject": subject,
                    "sentence_list": sentence_list([quote(r) for r in unknown[:3]]),
                },
            )
        )
        return None
    run = sorted(set(ranks), key=_POSITION.__getitem__)
    if len(run) != len(ranks):
        errors.append(
            Refusal(
                f"{where}.sequence",
                _("%(subject)s lists a rank twice; a sequence has one card of each rank.")
                % {"subject": subject},
            )
        )
        return None
    if len(run) < 3:
        errors.append(
            Refusal(
                f"{where}.sequence",
                _("%(subject)s has only %(plural)s; a sequence needs at least 3.")
                % {"subject": subject, "plural": count(len(run), "%(n)s card", "%(n)s cards")},
            )
        )
        return None
    if len(run) > CANASTA_CARDS:
        errors.append(
            Refusal(
                f"{where}.sequence",
                _(
                    "%(subject)s has %(num)s cards; a sequence stops at "
                    "%(canasta_cards)s, when it is a canasta."
                )
                % {"subject": subject, "num": num(len(run)), "canasta_cards": CANASTA_CARDS},
            )
        )
        return None
    first = _POSITION[run[0]]
    if _POSITION[run[-1]] - first != len(run) - 1:
        errors.append(
            Refusal(
                f"{where}.sequence",
                _(
                    "%(subject)s (%(join)s) has a gap; a sequence is ranks next to "
                    "each other, such as 8, 9, 10, J."
                )
                % {"subject": subject, "join": ", ".join(run)},
            )
        )
        return None
    return tuple(run)
