"""Checks that need every team of a hand at once.

Only one side can go out or be marked for a perfect cut in a hand, and together the
sides cannot hold more red threes, more of any card or more card points than the decks
do. Entries refused earlier are None and are left out; a total that is already known to
be wrong is not checked again, so a mistake is explained once.
"""

from __future__ import annotations

from .._text import num, plural, sentence_list
from ..cards import CARD_PLURALS, HAND_CARD_KEYS
from ..results import Refusal


def check_teams_together(rules, deck, entries, counts, errors):
    """Refuse what no hand can hold; ``counts`` are the cards of the detailed entries."""
    out = cut = red = in_hand = points = 0
    red_known = points_known = True
    for t in entries:
        if t is None:
            continue
        if t.went_out:
            out += 1
        if t.perfect_cut:
            cut += 1
        if t.red_threes is None:
            red_known = False
        else:
            red += t.red_threes
        in_hand += t.red_threes_in_hand
        if t.points_refused:
            points_known = False
        if t.melded_points is not None:
            points += t.melded_points
        if t.hand_points is not None:
            points += t.hand_points
    if out > 1 or cut > 1:
        _check_only_one(rules, entries, errors)
    if red_known and red + in_hand > deck.red_threes:
        errors.append(_too_many_red_threes(rules, deck, entries, red + in_hand))
    if counts and not _check_card_counts(rules, deck, counts, errors):
        points_known = False  # the card points are then too many as well
    elif len(rules.kinds) > 2 and not _check_kind_cards(rules, deck, entries, counts, errors):
        points_known = False
    if points_known and points > deck.card_points:
        each = [
            f"{rules.team_label(k)} {num((t.melded_points or 0) + (t.hand_points or 0))}"
            for k, t in enumerate(entries)
            if t is not None
        ]
        errors.append(
            Refusal(
                "teams",
                f"Melded and in hand the cards come to {num(points)} points "
                f"({sentence_list(each)}), but all the cards of "
                f"{plural(deck.decks, 'deck')} are worth only {num(deck.card_points)}; "
                f"check each side's melded points and points left in hand.",
            )
        )


def _check_only_one(rules, entries, errors):
    """Only one side goes out, and only one cut the cards, in a hand."""
    word = rules.teams_word
    side = rules.team_word.lower()
    out = [str(k + 1) for k, t in enumerate(entries) if t is not None and t.went_out]
    if len(out) > 1:
        errors.append(
            Refusal(
                "teams",
                f"{word} {sentence_list(out)} {'both' if len(out) == 2 else 'all'} went out; "
                f"only one {side} can go out in a hand.",
            )
        )
    cut = [str(k + 1) for k, t in enumerate(entries) if t is not None and t.perfect_cut]
    if len(cut) > 1:
        errors.append(
            Refusal(
                "teams",
                f"{word} {sentence_list(cut)} are {'both' if len(cut) == 2 else 'all'} "
                f"marked for a perfect cut; only the "
                f"player who cut can earn it, so mark one {side} only.",
            )
        )


def _too_many_red_threes(rules, deck, entries, total):
    """Each side's red threes (a red three kept in hand, a penalty, is a red three too)
    and what to fix."""
    each = []
    for k, t in enumerate(entries):
        if t is None:
            continue
        kept = t.red_threes_in_hand
        words = f"{rules.team_label(k)} {num(t.red_threes or 0)}"
        if kept:
            words += f" and {num(kept)} kept in hand"
        each.append(words)
    return Refusal(
        "teams",
        f"There are {num(total)} red threes in this hand ({sentence_list(each)}), but "
        f"{plural(deck.decks, 'deck')} hold only {deck.red_threes}; correct the red "
        f"threes of the side that has too many.",
    )


def _check_card_counts(rules, deck, counts, errors):
    """Refuse every card the melds and hands hold more of than the decks; returns
    whether the counts are possible."""
    too_many = [key for key, found in counts.items() if found > deck.limit(key)]
    for key in HAND_CARD_KEYS:
        if key in too_many:
            errors.append(
                Refusal(
                    "teams",
                    f"The melds and hands of {_all_sides(rules)} hold "
                    f"{num(counts[key])} {CARD_PLURALS[key]}, but "
                    f"{plural(deck.decks, 'deck')} hold only {deck.limit(key)}; check "
                    f"each side's {CARD_PLURALS[key]} in its melds and in hand.",
                )
            )
    return not too_many


def _all_sides(rules) -> str:
    """ "Team 1 and Team 2" (or "Player 1, Player 2 and Player 3")."""
    return sentence_list([rules.team_label(k) for k in range(rules.teams)])


def _check_kind_cards(rules, deck, entries, counts, errors) -> bool:
    """Canastas and unfinished melds of a kind of one rank (sevens, aces) or of wild
    cards, entered as totals, need that many of those cards: together with the cards
    of the detailed entries, no more than the decks hold. Returns whether they fit."""
    needed: dict[str, int] = {}
    for t in entries:
        if t is None or t.melded_field == "melds" or t.canastas is None or t.unfinished is None:
            continue
        for kind, made, open_melds in zip(rules.kinds, t.canastas, t.unfinished, strict=True):
            cards = 7 * made + 3 * open_melds
            if not cards:
                continue
            if kind.rank is not None:
                needed[kind.rank] = needed.get(kind.rank, 0) + cards
            elif kind.shape == "wild":
                needed["wild"] = needed.get("wild", 0) + cards
    fits = True
    for card, cards in needed.items():
        if card == "wild":
            one_by_one = counts.get("2", 0) + counts.get("joker", 0)
            held = cards + one_by_one
            limit = deck.twos + deck.jokers
            name = "wild cards"
        else:
            one_by_one = counts.get(card, 0)
            held = cards + one_by_one
            limit = deck.limit(card)
            name = CARD_PLURALS[card]
        if held > limit:
            fits = False
            also = ", with the cards entered one by one," if one_by_one else ""
            errors.append(
                Refusal(
                    "teams",
                    f"The canastas and melds of {name} of {_all_sides(rules)}{also} "
                    f"need at least {num(held)} {name}, but "
                    f"{plural(deck.decks, 'deck')} hold only {num(limit)}; check each "
                    f"side's canastas and melds of {name}.",
                )
            )
    return fits
