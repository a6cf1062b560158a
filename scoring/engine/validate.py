"""The careful reading of a hand: every check of rules.md, each problem explained.

This is the path that writes refusals. :func:`careful_read` checks a whole hand and
returns the teams' values as tuples (see :func:`scoring.engine.hand.score_hand`) or the
list of :class:`~scoring.engine.results.Refusal` found, collecting every problem rather
than stopping at the first. Fields are paths into the input (``teams[1].melds[0]``,
counting from 0); messages are sentences that number teams from 1 ("Team 2") or, when
everyone plays alone, players ("Player 2").
"""

from __future__ import annotations

from ._text import describe, key_name, num, plural, quote, sentence_list
from .cards import (
    CARD_PLURALS,
    CARD_VALUES,
    HAND_CARD_KEYS,
    MIXED_CANASTA_MIN_POINTS,
    NATURAL_CANASTA_MIN_POINTS,
)
from .results import Refusal

PENALTY_KINDS: tuple[str, ...] = (
    "ask_to_go_out_failed",
    "discard_unused",
    "red_three_in_hand",
    "other",
)

#: Largest penalty of kind "other" an officer can enter.
MAX_OTHER_PENALTY = 100_000

#: Largest cumulative score accepted in ``scores_before``.
MAX_SCORE = 1_000_000_000

#: Values of ``went_out``.
WENT_OUT_VALUES: tuple[str, ...] = ("none", "out", "concealed")

_TEAM_KEYS = frozenset(
    {
        "melded_points",
        "natural_canastas",
        "mixed_canastas",
        "melds",
        "red_threes",
        "went_out",
        "hand_points",
        "hand_cards",
        "perfect_cut",
        "penalties",
    }
)
_TEAM_KEY_LIST = sentence_list(sorted(_TEAM_KEYS))
_MELD_KEYS = frozenset({"rank", "naturals", "jokers", "twos"})
_PENALTY_KEYS = frozenset({"kind", "points", "note"})
_WENT_OUT = {"none": 0, "out": 1, "concealed": 2}
_RANK_VALUES = {rank: CARD_VALUES[rank] for rank in CARD_PLURALS if rank not in ("joker", "2")}
_RANK_LIST = "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)"
_HAND_CARD_LIST = "joker, 2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4 or 3 (black threes)"
_PENALTY_WORDS = {
    "ask_to_go_out_failed": "failing to go out after asking",
    "discard_unused": "not using the top discard",
    "red_three_in_hand": "a red three kept in hand",
}

#: What each team entry is called in messages ("Team 1's melded points ...").
_TEAM_FIELD_WORDS = {
    "melded_points": "melded points",
    "natural_canastas": "number of natural canastas",
    "mixed_canastas": "number of mixed canastas",
    "red_threes": "number of red threes",
    "hand_points": "points left in hand",
}
_MELD_FIELD_WORDS = {"naturals": "natural cards", "jokers": "jokers", "twos": "twos"}

INTERNAL_MESSAGE = (
    "This hand could not be scored because of a fault in the scoring program; "
    "please report the hand to the club's officers."
)


# -- messages about single numbers -------------------------------------------------------


def _bad_number(value: object, field: str, subject: str, points: bool) -> Refusal:
    """The refusal for a count or points entry that is not a whole number >= 0 (x5)."""
    if type(value) is bool:
        message = f"{subject} must be a number, not {describe(value)}."
    elif type(value) is float and value == value and value.is_integer():
        message = (
            f"{subject} must be a whole number written without a decimal point, "
            f"such as {num(int(value))}, not {describe(value)}."
            if abs(value) < 1e15
            else f"{subject} must be a whole number, not {describe(value)}."
        )
    elif type(value) is not int:
        message = f"{subject} must be a whole number, not {describe(value)}."
    elif value < 0:
        message = f"{subject} cannot be negative; {num(value)} was entered."
    else:  # a points entry that is not a multiple of 5
        message = (
            f"{subject} must be a multiple of 5, because every card counts 5, 10, 20 or "
            f"50 points; {num(value)} was entered."
        )
    return Refusal(field, message[0].upper() + message[1:])


def _team_number(value, errors, i, who, key, points=False):
    """Slow path for a team's count or points: missing means 0, bad input a refusal."""
    if value is None:
        return 0
    if type(value) is int and value >= 0 and not (points and value % 5):
        return value
    subject = f"{who}'s {_TEAM_FIELD_WORDS[key]}"
    errors.append(_bad_number(value, f"teams[{i}].{key}", subject, points))
    return None


# -- one team ----------------------------------------------------------------------------


class _Team:
    """What one team's entry says, once read; ``None`` marks a value that was refused."""

    __slots__ = (
        "melded_points",
        "natural",
        "mixed",
        "melded",
        "red_threes",
        "went_out",
        "hand_points",
        "perfect_cut",
        "penalty_points",
        "red_in_hand",
        "points_refused",
    )


def _read_team(rules, deck, i, team, errors, counts):
    """Read and check one team's entry; card counts of detailed entries go to ``counts``."""
    word = rules.team_word
    who = f"{word} {i + 1}"
    if type(team) is not dict:
        errors.append(
            Refusal(
                f"teams[{i}]",
                f"{who} must be entered as an object of counts, such as "
                f'{{"melded_points": 120, "red_threes": 1}}, not {describe(team)}.',
            )
        )
        return None
    if not _TEAM_KEYS.issuperset(team):
        for key in team:
            if key not in _TEAM_KEYS:
                errors.append(
                    Refusal(
                        f"teams[{i}].{key_name(key)}",
                        f"{who} has an entry {quote(key_name(key))} that is not part of a "
                        f"hand; check its spelling (the entries are {_TEAM_KEY_LIST}).",
                    )
                )
    t = _Team()
    t.points_refused = False

    # went_out first: the black three rule of detailed melds depends on it.
    value = team.get("went_out")
    if value is None or value == "none":
        went_out = 0
    elif isinstance(value, str) and value in _WENT_OUT:
        went_out = _WENT_OUT[value]
    else:
        went_out = None
        errors.append(
            Refusal(
                f"teams[{i}].went_out",
                f"{who}'s going out (went_out) must be none, out or concealed, "
                f"not {describe(value)}.",
            )
        )
    t.went_out = went_out

    # Totals, as entered (None where missing or refused).
    raw_mp = team.get("melded_points")
    if type(raw_mp) is int and raw_mp >= 0 and not raw_mp % 5:
        mp = raw_mp
    else:
        mp = _team_number(raw_mp, errors, i, who, "melded_points", True)
    raw_nat = team.get("natural_canastas")
    if type(raw_nat) is int and raw_nat >= 0:
        nat = raw_nat
    else:
        nat = _team_number(raw_nat, errors, i, who, "natural_canastas")
    raw_mix = team.get("mixed_canastas")
    if type(raw_mix) is int and raw_mix >= 0:
        mix = raw_mix
    else:
        mix = _team_number(raw_mix, errors, i, who, "mixed_canastas")

    # Detailed melds, if given: derive the totals from them.
    melds = team.get("melds")
    if melds is None:
        melded = None if mp is None else mp > 0
    elif type(melds) is not list:
        errors.append(
            Refusal(
                f"teams[{i}].melds",
                f"{who}'s melds must be a list such as "
                f'[{{"rank": "K", "naturals": 7}}], not {describe(melds)}.',
            )
        )
        melded = None
        mp = nat = mix = None
    else:
        melded = bool(melds)
        derived = _read_melds(rules, i, who, melds, went_out, errors, counts)
        if derived is None:
            mp = nat = mix = None
        else:
            d_mp, d_nat, d_mix = derived
            if raw_mp is not None or raw_nat is not None or raw_mix is not None:
                for key, given, found in (
                    ("melded_points", raw_mp, d_mp),
                    ("natural_canastas", raw_nat, d_nat),
                    ("mixed_canastas", raw_mix, d_mix),
                ):
                    if type(given) is int and given >= 0 and given != found:
                        errors.append(_disagree(i, who, key, given, found, "its melds"))
            mp, nat, mix = d_mp, d_nat, d_mix
    t.melded = melded

    if melds is None:
        # Totals only: they must be able to hold the canastas they claim.
        if mp == 0 and (nat or mix):
            key = "natural_canastas" if nat else "mixed_canastas"
            errors.append(
                Refusal(
                    f"teams[{i}].{key}",
                    f"{who} has {plural((nat or 0) + (mix or 0), 'canasta')} but no melded "
                    f"points; a team with canastas has melded, so enter its melded points "
                    f"(the canastas' cards count too).",
                )
            )
        elif mp is not None and nat is not None and mix is not None:
            needed = NATURAL_CANASTA_MIN_POINTS * nat + MIXED_CANASTA_MIN_POINTS * mix
            if mp < needed:
                errors.append(
                    Refusal(
                        f"teams[{i}].melded_points",
                        f"{who} has {_canasta_words(nat, mix)}, which hold at least "
                        f"{num(needed)} points of cards (a natural canasta at least "
                        f"{NATURAL_CANASTA_MIN_POINTS}, a mixed one at least "
                        f"{MIXED_CANASTA_MIN_POINTS}), but its melded points are only "
                        f"{num(mp)}; correct the melded points or the canastas.",
                    )
                )
        if mp is not None and mp > deck.card_points:
            t.points_refused = True
            errors.append(_too_many_points(i, who, "melded_points", mp, deck))
    t.melded_points, t.natural, t.mixed = mp, nat, mix

    # Cards left in hand.
    raw_hp = team.get("hand_points")
    if type(raw_hp) is int and raw_hp >= 0 and not raw_hp % 5:
        hp = raw_hp
    else:
        hp = _team_number(raw_hp, errors, i, who, "hand_points", True)
    hand_cards = team.get("hand_cards")
    if hand_cards is not None:
        found = _read_hand_cards(i, who, hand_cards, errors, counts)
        if found is None:
            hp = None
        else:
            if type(raw_hp) is int and raw_hp >= 0 and raw_hp != found:
                errors.append(_disagree(i, who, "hand_points", raw_hp, found, "the cards in hand"))
            hp = found
    elif hp is not None and hp > deck.card_points:
        t.points_refused = True
        errors.append(_too_many_points(i, who, "hand_points", hp, deck))
    t.hand_points = hp

    # Red threes on the table.
    value = team.get("red_threes")
    if type(value) is int and value >= 0:
        red = value
    else:
        red = _team_number(value, errors, i, who, "red_threes")
    if red is not None and red > deck.red_threes:
        errors.append(
            Refusal(
                f"teams[{i}].red_threes",
                f"{who} has {num(red)} red threes, but {plural(deck.decks, 'deck')} hold "
                f"only {deck.red_threes}.",
            )
        )
        red = None
    t.red_threes = red

    # Perfect cut (club house rule).
    value = team.get("perfect_cut")
    if value is None or value is False:
        t.perfect_cut = False
    elif value is True:
        t.perfect_cut = True
        if not rules.perfect_cut_enabled:
            errors.append(
                Refusal(
                    f"teams[{i}].perfect_cut",
                    f"{who} is marked for a perfect cut, but these rules ({rules.label}) "
                    f"have no perfect cut bonus; clear the perfect cut mark.",
                )
            )
    else:
        t.perfect_cut = False
        errors.append(
            Refusal(
                f"teams[{i}].perfect_cut",
                f"{who}'s perfect cut mark must be true or false, not {describe(value)}.",
            )
        )

    # Penalties.
    value = team.get("penalties")
    if value is None or value == []:
        t.penalty_points, t.red_in_hand = 0, 0
    else:
        t.penalty_points, t.red_in_hand = _read_penalties(rules, i, who, value, errors)

    # Going out needs a meld and the canastas the rules ask for.
    if went_out:
        if melded is False:
            errors.append(
                Refusal(
                    f"teams[{i}].went_out",
                    f"{who} went out but has not melded; a team must meld, and complete "
                    f"{plural(rules.canastas_needed[2], 'canasta')}, before going out.",
                )
            )
        elif nat is not None and mix is not None:
            have = nat + mix
            need = rules.canastas_needed[went_out]
            if have < need:
                errors.append(
                    Refusal(
                        f"teams[{i}].went_out",
                        f"{who} went out but has {'only ' if have else ''}"
                        f"{plural(have, 'canasta')}; {num(need)} "
                        f"{'is' if need == 1 else 'are'} needed to go out under these rules.",
                    )
                )
        if rules.players_per_team == 1 and hp:
            errors.append(
                Refusal(
                    f"teams[{i}].hand_points",
                    f"{who} went out, so no cards were left in that player's hand; the "
                    f"points left in hand must be 0, not {num(hp)}.",
                )
            )
    return t


def _canasta_words(nat: int, mix: int) -> str:
    if nat and mix:
        return f"{plural(nat, 'natural canasta')} and {plural(mix, 'mixed canasta')}"
    if nat:
        return plural(nat, "natural canasta")
    return plural(mix, "mixed canasta")


def _disagree(i, who, key, given, found, source) -> Refusal:
    return Refusal(
        f"teams[{i}].{key}",
        f"{who}'s {_TEAM_FIELD_WORDS[key]} ({num(given)}) do not match {source}, which give "
        f"{num(found)}; correct one of them, or leave the total out.",
    )


def _too_many_points(i, who, key, points, deck) -> Refusal:
    return Refusal(
        f"teams[{i}].{key}",
        f"{who}'s {_TEAM_FIELD_WORDS[key]} ({num(points)}) are more than all the cards of "
        f"{plural(deck.decks, 'deck')} are worth ({num(deck.card_points)}).",
    )


def _read_melds(rules, i, who, melds, went_out, errors, counts):
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
    """Refuse one meld for every rule it breaks; returns the meld if it breaks none."""
    max_wild = rules.max_wild_per_meld
    min_nat = rules.min_naturals_per_meld
    no_outnumber = rules.wilds_may_not_outnumber_naturals
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
        for key in meld:
            if key not in _MELD_KEYS:
                errors.append(
                    Refusal(
                        f"{where}.{key_name(key)}",
                        f"{who}'s meld {j + 1} has an entry {quote(key_name(key))} that a "
                        f"meld does not have; use rank, naturals, jokers and twos.",
                    )
                )
    meld_errors = len(errors)
    rank = meld.get("rank")
    if not (isinstance(rank, str) and rank in _RANK_VALUES):
        errors.append(
            Refusal(
                f"{where}.rank",
                f"{who}'s meld {j + 1} needs a rank: {_RANK_LIST}, not {describe(rank)}.",
            )
        )
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
                _bad_number(
                    value,
                    f"{where}.{key}",
                    f"the number of {_MELD_FIELD_WORDS[key]} in {who}'s meld {j + 1}",
                    False,
                )
            )
    if rank is None or len(numbers) < 3:
        return None
    naturals, jokers, twos = numbers
    wild = jokers + twos
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
        if not rules.black_three_meld:
            errors.append(
                Refusal(
                    where,
                    f"{who} melded black threes, which these rules never allow; count "
                    f"them as cards left in hand instead.",
                )
            )
        else:
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
            if went_out == 0:
                errors.append(
                    Refusal(
                        where,
                        f"{who} melded black threes without going out; only the player "
                        f"going out may meld black threes.",
                    )
                )
    elif naturals == 0:
        if wild:
            errors.append(
                Refusal(
                    where,
                    f"{subject} has only wild cards; wild cards alone never form a "
                    f"meld, so add at least {min_nat} natural {name}.",
                )
            )
        else:
            errors.append(Refusal(where, f"{subject} has no cards; enter its cards or remove it."))
    else:
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
                    f"{subject} has only {plural(naturals + wild, 'card')}; a meld needs "
                    f"at least 3.",
                )
            )
        if wild > max_wild:
            errors.append(
                Refusal(
                    where,
                    f"{subject} has {num(wild)} wild cards; a meld may hold at most "
                    f"{plural(max_wild, 'wild card')}.",
                )
            )
        elif no_outnumber and wild > naturals:
            errors.append(
                Refusal(
                    where,
                    f"{subject} has more wild cards ({num(wild)}) than natural cards "
                    f"({num(naturals)}); under these rules wild cards may not outnumber "
                    f"naturals.",
                )
            )
    if len(errors) > meld_errors:
        return None
    return rank, naturals, jokers, twos


def _read_hand_cards(i, who, hand_cards, errors, counts):
    """Check ``hand_cards`` ({"A": 1, "4": 1}); returns their points or None."""
    if type(hand_cards) is not dict:
        errors.append(
            Refusal(
                f"teams[{i}].hand_cards",
                f"{who}'s cards in hand (hand_cards) must be an object of counts by card, such as "
                f'{{"A": 1, "4": 2}}, not {describe(hand_cards)}.',
            )
        )
        return None
    errors_before = len(errors)
    points = 0
    found = []
    for key, value in hand_cards.items():
        if key not in CARD_VALUES:
            errors.append(
                Refusal(
                    f"teams[{i}].hand_cards.{key_name(key)}",
                    f"{who}'s cards in hand list {quote(key_name(key))}, which is not a "
                    f"card a hand can hold; use "
                    f"{_HAND_CARD_LIST}. A red three kept in hand is entered as a "
                    f"red_three_in_hand penalty.",
                )
            )
            continue
        if value is None:
            continue
        if type(value) is not int or value < 0:
            errors.append(
                _bad_number(
                    value,
                    f"teams[{i}].hand_cards.{key}",
                    f"{who}'s count of {CARD_PLURALS[key]} in hand",
                    False,
                )
            )
            continue
        points += CARD_VALUES[key] * value
        found.append((key, value))
    for key, value in found:
        counts[key] = counts.get(key, 0) + value
    if len(errors) > errors_before:
        return None
    return points


def _read_penalties(rules, i, who, penalties, errors):
    """Check penalties; returns (points to subtract, red threes kept in hand)."""
    if type(penalties) is not list:
        errors.append(
            Refusal(
                f"teams[{i}].penalties",
                f"{who}'s penalties must be a list such as "
                f'[{{"kind": "discard_unused"}}], not {describe(penalties)}.',
            )
        )
        return 0, 0
    amounts = rules.penalty_amounts
    total = red_in_hand = 0
    for k, penalty in enumerate(penalties):
        if type(penalty) is dict and len(penalty) == 1:
            kind = penalty.get("kind")
            if type(kind) is str and kind in amounts:  # the usual case: just a kind
                total += amounts[kind]
                if kind == "red_three_in_hand":
                    red_in_hand += 1
                continue
        where = f"teams[{i}].penalties[{k}]"
        if type(penalty) is not dict:
            errors.append(
                Refusal(
                    where,
                    f"{who}'s penalty {k + 1} must be an object such as "
                    f'{{"kind": "discard_unused"}}, not {describe(penalty)}.',
                )
            )
            continue
        if not _PENALTY_KEYS.issuperset(penalty):
            for key in penalty:
                if key not in _PENALTY_KEYS:
                    errors.append(
                        Refusal(
                            f"{where}.{key_name(key)}",
                            f"{who}'s penalty {k + 1} has an entry {quote(key_name(key))} "
                            f"that a penalty does not have; use kind, points and note.",
                        )
                    )
        kind = penalty.get("kind")
        points = penalty.get("points")
        note = penalty.get("note")
        if note is not None and not isinstance(note, str):
            errors.append(
                Refusal(
                    f"{where}.note",
                    f"The note of {who}'s penalty {k + 1} must be text, not {describe(note)}.",
                )
            )
        if not (isinstance(kind, str) and kind in PENALTY_KINDS):
            errors.append(
                Refusal(
                    f"{where}.kind",
                    f"{who}'s penalty {k + 1} needs a kind: ask_to_go_out_failed, "
                    f"discard_unused, red_three_in_hand, or other (with points and a note); "
                    f"not {describe(kind)}.",
                )
            )
            continue
        if kind == "other":
            if not (type(points) is int and 0 < points <= MAX_OTHER_PENALTY and not points % 5):
                errors.append(
                    Refusal(
                        f"{where}.points",
                        f"{who}'s other penalty {k + 1} needs its points: a whole number "
                        f"above 0 and up to {num(MAX_OTHER_PENALTY)}, a multiple of 5 (it is "
                        f"subtracted); not {describe(points)}.",
                    )
                )
            else:
                total += points
            if (note is None or isinstance(note, str)) and not (note and note.strip()):
                errors.append(
                    Refusal(
                        f"{where}.note",
                        f"{who}'s other penalty {k + 1} needs a note saying what it is for.",
                    )
                )
            continue
        amount = amounts[kind]
        if points is not None and not (type(points) is int and points == amount):
            errors.append(
                Refusal(
                    f"{where}.points",
                    f"The penalty for {_PENALTY_WORDS[kind]} is {plural(amount, 'point')} "
                    f"under these rules; leave {who}'s points out or enter {num(amount)}.",
                )
            )
            continue
        total += amount
        if kind == "red_three_in_hand":
            red_in_hand += 1
    return total, red_in_hand


# -- the whole hand ----------------------------------------------------------------------


def _read_scores(rules, scores_before, errors):
    n = rules.teams
    if scores_before is None:
        return [0] * n
    word = rules.teams_word.lower()
    if type(scores_before) is not list:
        errors.append(
            Refusal(
                "scores_before",
                f"The scores before the hand must be a list of the {word}' scores, "
                f"one whole number for each of the {n} {word}, not {describe(scores_before)}.",
            )
        )
        return None
    if len(scores_before) != n:
        errors.append(
            Refusal(
                "scores_before",
                f"The scores before the hand list {plural(len(scores_before), 'score')}, "
                f"but these rules have {n} {word}; give one score before the hand for each.",
            )
        )
        return None
    scores = []
    for k, score in enumerate(scores_before):
        if type(score) is int and -MAX_SCORE <= score <= MAX_SCORE:
            scores.append(score)
            continue
        who = f"{rules.team_word} {k + 1}"
        if type(score) is int:
            message = f"{who}'s score before this hand ({num(score)}) is not a believable score."
        else:
            message = (
                f"{who}'s score before this hand must be a whole number, not {describe(score)}."
            )
        errors.append(Refusal(f"scores_before[{k}]", message))
    return scores if len(scores) == n else None


def _check_hand(rules, deck, parsed, counts, errors):
    """Checks that need all the teams at once (entries refused earlier are None)."""
    out = cut = red = in_hand = points = 0
    red_known = points_known = True
    for t in parsed:
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
        in_hand += t.red_in_hand
        if t.points_refused:
            points_known = False
        if t.melded_points is not None:
            points += t.melded_points
        if t.hand_points is not None:
            points += t.hand_points
    word = rules.teams_word
    if out > 1:
        numbers = [str(k + 1) for k, t in enumerate(parsed) if t is not None and t.went_out]
        errors.append(
            Refusal(
                "teams",
                f"{word} {sentence_list(numbers)} {'both' if out == 2 else 'all'} went out; "
                f"only one {rules.team_word.lower()} can go out in a hand.",
            )
        )
    if cut > 1:
        numbers = [str(k + 1) for k, t in enumerate(parsed) if t is not None and t.perfect_cut]
        errors.append(
            Refusal(
                "teams",
                f"{word} {sentence_list(numbers)} are all marked for a perfect cut; only the "
                f"player who cut can earn it, so mark one {rules.team_word.lower()} only.",
            )
        )
    # A red three kept in hand (a penalty) is a red three too.
    if red_known and red + in_hand > deck.red_threes:
        where = f" ({num(red)} on the table and {num(in_hand)} kept in hand)" if in_hand else ""
        errors.append(
            Refusal(
                "teams",
                f"The {word.lower()} have {num(red + in_hand)} red threes{where}, but "
                f"{plural(deck.decks, 'deck')} hold only {deck.red_threes}.",
            )
        )
    if counts:
        too_many = [key for key, found in counts.items() if found > deck.limit(key)]
        if too_many:
            points_known = False  # the card points are then too many as well
            for key in HAND_CARD_KEYS:
                if key in too_many:
                    errors.append(
                        Refusal(
                            "teams",
                            f"The melds and hands hold {num(counts[key])} {CARD_PLURALS[key]}, "
                            f"but {plural(deck.decks, 'deck')} hold only {deck.limit(key)}; "
                            f"check the counts of {CARD_PLURALS[key]}.",
                        )
                    )
    if points_known and points > deck.card_points:
        errors.append(
            Refusal(
                "teams",
                f"The {word.lower()} melded and held {num(points)} points of cards, but all "
                f"the cards of {plural(deck.decks, 'deck')} are worth only "
                f"{num(deck.card_points)}; check the melded points and points in hand.",
            )
        )


def careful_read(rules, teams, scores_before):
    """Check everything and explain every problem; returns (teams, scores, refusals)."""
    deck = rules.deck_totals
    errors: list[Refusal] = []
    if type(teams) is not list:
        if type(teams) is tuple:
            teams = list(teams)
        else:
            errors.append(
                Refusal(
                    "teams",
                    f"The teams must be a list with one entry for each of the {rules.teams} "
                    f"{rules.teams_word.lower()}, not {describe(teams)}.",
                )
            )
            _read_scores(rules, scores_before, errors)
            return None, None, errors
    if len(teams) != rules.teams:
        errors.append(
            Refusal(
                "teams",
                f"These rules ({rules.label}) have {rules.teams} "
                f"{rules.teams_word.lower()}, but {len(teams)} were entered; enter one "
                f"entry for each.",
            )
        )
    counts: dict[str, int] = {}
    found = [_read_team(rules, deck, i, team, errors, counts) for i, team in enumerate(teams)]
    scores = _read_scores(rules, scores_before, errors)
    _check_hand(rules, deck, found, counts, errors)
    if errors:
        return None, None, errors
    parsed = [
        (
            t.melded_points,
            t.natural,
            t.mixed,
            t.melded,
            t.red_threes,
            t.went_out,
            t.hand_points,
            t.perfect_cut,
            t.penalty_points,
        )
        for t in found
    ]
    return parsed, scores, errors
