"""Checks that need every team of a hand at once.

Only one side can go out or be marked for a perfect cut in a hand, and together the
sides cannot hold more red threes, more of any card or more card points than the decks
do. Entries refused earlier are None and are left out; a total that is already known to
be wrong is not checked again, so a mistake is explained once.
"""

from __future__ import annotations

from .._text import _, count, gettext_noop, num, sentence_list
from ..cards import HAND_CARD_KEYS, card_plural
from ..results import Refusal
from .numbers import decks_words


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
                _(
                    "Melded and in hand the cards come to %(points)s points (%(each)s), but "
                    "all the cards of %(decks)s are worth only %(all)s; check each side's "
                    "melded points and points left in hand."
                )
                % {
                    "points": num(points),
                    "each": sentence_list(each),
                    "decks": decks_words(deck.decks),
                    "all": num(deck.card_points),
                },
            )
        )


def _check_only_one(rules, entries, errors):
    """Only one side goes out, and only one cut the cards, in a hand."""
    out = [str(k + 1) for k, t in enumerate(entries) if t is not None and t.went_out]
    if len(out) > 1:
        errors.append(Refusal("teams", _only_one(rules, out, _WENT_OUT_WORDS)))
    cut = [str(k + 1) for k, t in enumerate(entries) if t is not None and t.perfect_cut]
    if len(cut) > 1:
        errors.append(Refusal("teams", _only_one(rules, cut, _CUT_WORDS)))


#: (players?, two?) -> the sentence: "Teams 1 and 2 both went out; ...".
_WENT_OUT_WORDS = {
    (False, True): gettext_noop(
        "Teams %(numbers)s both went out; only one team can go out in a hand."
    ),
    (False, False): gettext_noop(
        "Teams %(numbers)s all went out; only one team can go out in a hand."
    ),
    (True, True): gettext_noop(
        "Players %(numbers)s both went out; only one player can go out in a hand."
    ),
    (True, False): gettext_noop(
        "Players %(numbers)s all went out; only one player can go out in a hand."
    ),
}
_CUT_WORDS = {
    (False, True): gettext_noop(
        "Teams %(numbers)s are both marked for a perfect cut; only the player who cut can "
        "earn it, so mark one team only."
    ),
    (False, False): gettext_noop(
        "Teams %(numbers)s are all marked for a perfect cut; only the player who cut can "
        "earn it, so mark one team only."
    ),
    (True, True): gettext_noop(
        "Players %(numbers)s are both marked for a perfect cut; only the player who cut can "
        "earn it, so mark one player only."
    ),
    (True, False): gettext_noop(
        "Players %(numbers)s are all marked for a perfect cut; only the player who cut can "
        "earn it, so mark one player only."
    ),
}


def _only_one(rules, numbers: list[str], sentences: dict) -> str:
    sentence = sentences[(rules.alone, len(numbers) == 2)]
    return _(sentence) % {"numbers": sentence_list(numbers)}


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
            words = _("%(side)s and %(kept)s kept in hand") % {"side": words, "kept": num(kept)}
        each.append(words)
    return Refusal(
        "teams",
        _(
            "There are %(total)s red threes in this hand (%(each)s), but %(decks)s hold only "
            "%(most)s; correct the red threes of the side that has too many."
        )
        % {
            "total": num(total),
            "each": sentence_list(each),
            "decks": decks_words(deck.decks),
            "most": deck.red_threes,
        },
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
                    _(
                        "The melds and hands of %(sides)s hold %(found)s %(cards)s, but "
                        "%(decks)s hold only %(most)s; check each side's %(cards)s in its "
                        "melds and in hand."
                    )
                    % {
                        "sides": _all_sides(rules),
                        "found": num(counts[key]),
                        "cards": card_plural(key),
                        "decks": decks_words(deck.decks),
                        "most": deck.limit(key),
                    },
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
            name = _("wild cards")
        else:
            one_by_one = counts.get(card, 0)
            held = cards + one_by_one
            limit = deck.limit(card)
            name = card_plural(card)
        if held > limit:
            fits = False
            also = _(", with the cards entered one by one,") if one_by_one else ""
            errors.append(
                Refusal(
                    "teams",
                    _(
                        "The canastas and melds of %(cards)s of %(sides)s%(also)s need at "
                        "least %(held)s %(cards)s, but %(decks)s hold only %(limit)s; check "
                        "each side's canastas and melds of %(cards)s."
                    )
                    % {
                        "cards": name,
                        "sides": _all_sides(rules),
                        "also": also,
                        "held": num(held),
                        "decks": count(deck.decks, "%(n)s deck", "%(n)s decks"),
                        "limit": num(limit),
                    },
                )
            )
    return fits
