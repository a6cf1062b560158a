"""A team's melded totals: melded points, canastas of each kind and unfinished melds,
entered as totals or as melds.

Canastas are counted by kind: ``"canastas": {"natural": 1, "mixed": 2, "sevens": 1}``,
or (the older form, still read) ``natural_canastas`` and ``mixed_canastas``; both give
the same counts. Unfinished melds of a kind that costs a penalty (Modern American
sevens, aces and wild cards) are counted in ``"unfinished": {"sevens": 1}``.

Totals cannot be checked card by card, so they must at least hold the canastas and
unfinished melds claimed (the cheapest distinct ranks, see :mod:`.canastas`: a natural
canasta 35, a mixed one 50, five natural ones 210) and no more than the decks are worth.
Detailed melds are checked in :mod:`.melds`, and totals entered beside them must agree
with what they give.
"""

from __future__ import annotations

from .._text import _, count, describe, key_name, ngettext, num, plural, quote, sentence_list
from ..results import Refusal
from ..rules.kinds import GROUP, SEQUENCE, SEQUENCE_ORDER
from .canastas import (
    canasta_table,
    cheapest_canastas,
    count_words,
    describe_canastas,
    kind_plural,
)
from .melds import read_melds
from .numbers import bad_number, disagree, team_number, too_many_points

#: The older names of the counts of the two default kinds.
LEGACY_KEYS = {"natural": "natural_canastas", "mixed": "mixed_canastas"}
#: Cards an unfinished meld holds at least.
_MELD_CARDS = 3


def read_melded(rules, deck, i, who, team, went_out, errors, counts):
    """Read what a team melded: (melded points, canastas by kind, unfinished melds by
    kind, melded at all, points refused as too many); a refused value is None."""
    raw_mp = team.get("melded_points")
    if type(raw_mp) is int and raw_mp >= 0 and not raw_mp % 5:
        mp = raw_mp
    else:
        mp = team_number(raw_mp, errors, i, who, "melded_points", True)
    given = _read_canastas(rules, i, who, team, errors)
    unfinished = _read_unfinished(rules, i, who, team, errors)
    melds = team.get("melds")
    if melds is None:
        canastas = None if given is None else tuple(n or 0 for n in given)
        refused = _check_totals(rules, deck, i, who, team, mp, canastas, unfinished, errors)
        return mp, canastas, unfinished, None if mp is None else mp > 0, refused
    if type(melds) is not list:
        errors.append(
            Refusal(
                f"teams[{i}].melds",
                _(
                    '%(who)s\'s melds must be a list such as [{"rank": "K", "naturals": 7}], '
                    "not %(value)s."
                )
                % {"who": who, "value": describe(melds)},
            )
        )
        return None, None, None, None, False
    found = read_melds(rules, i, who, melds, went_out, errors, counts)
    if found is None:
        return None, None, None, bool(melds), False
    points, canastas, open_melds = found
    if type(raw_mp) is int and raw_mp >= 0 and raw_mp != points:
        errors.append(disagree(i, who, "melded_points", raw_mp, points, "its melds"))
    if given is not None:
        for k, n in enumerate(given):
            if n is not None and n != canastas[k]:
                errors.append(_disagree_kind(rules, i, who, team, k, n, canastas[k]))
    if unfinished is not None and "unfinished" in team:
        for k, n in enumerate(unfinished):
            if n != open_melds[k] and rules.kinds[k].key in team["unfinished"]:
                errors.append(_disagree_unfinished(rules, i, who, k, n, open_melds[k]))
    return points, canastas, open_melds, bool(melds), False


def canasta_field(rules, i, team, k) -> str:
    """Where a refusal about the canastas of kind ``k`` points: the older field when it
    was entered that way, else ``canastas.<kind>``."""
    key = rules.kinds[k].key
    legacy = LEGACY_KEYS.get(key)
    if legacy is not None and (legacy in team or "canastas" not in team):
        return f"teams[{i}].{legacy}"
    return f"teams[{i}].canastas.{key}"


def _read_canastas(rules, i, who, team, errors):
    """The counts of canastas of each kind as entered (None where not given), or None
    when a count was refused."""
    kinds = rules.kind_keys
    counts: list[int | None] = [None] * len(kinds)
    ok = True
    for key, legacy in LEGACY_KEYS.items():
        raw = team.get(legacy)
        if raw is None:
            continue
        value = raw if type(raw) is int and raw >= 0 else team_number(raw, errors, i, who, legacy)
        if value is None:
            ok = False
        else:
            counts[kinds.index(key)] = value
    raw = team.get("canastas")
    if raw is not None:
        ok = _read_kind_counts(rules, i, who, raw, "canastas", kinds, counts, errors) and ok
    if not ok:
        return None
    return counts


def _read_kind_counts(rules, i, who, raw, entry, allowed, counts, errors) -> bool:
    """Read ``{"sevens": 1}`` into ``counts`` (by ``rules.kind_keys``); False when
    anything was refused."""
    where = f"teams[{i}].{entry}"
    words = _("canastas") if entry == "canastas" else _("unfinished melds")
    if type(raw) is not dict:
        errors.append(
            Refusal(
                where,
                _(
                    "%(who)s's %(words)s must be counted by kind, such as "
                    '{"%(value)s": 1}, not %(describe)s.'
                )
                % {
                    "who": who,
                    "words": words,
                    "value": allowed[0] if allowed else "sevens",
                    "describe": describe(raw),
                },
            )
        )
        return False
    ok = True
    kinds = rules.kind_keys
    for key, value in raw.items():
        if key not in allowed:
            errors.append(_unknown_kind(rules, where, who, key, allowed, words))
            ok = False
            continue
        if type(value) is not int or value < 0:
            subject = f"{who}'s number of {words} of kind {key}"
            errors.append(bad_number(value, f"{where}.{key}", subject, False))
            ok = False
            continue
        k = kinds.index(key)
        if entry == "canastas" and counts[k] is not None and counts[k] != value:
            errors.append(
                Refusal(
                    f"{where}.{key}",
                    _(
                        "%(who)s's %(kind_plural)s are entered twice, as %(num)s and as "
                        "%(num2)s; enter them once."
                    )
                    % {
                        "who": who,
                        "kind_plural": kind_plural(rules.kinds[k]),
                        "num": num(counts[k]),
                        "num2": num(value),
                    },
                )
            )
            ok = False
            continue
        counts[k] = value
    return ok


def _unknown_kind(rules, where, who, key, allowed, words):
    listed = sentence_list(list(allowed), "or")
    if not allowed:
        return Refusal(
            f"{where}.{key_name(key)}",
            _(
                "%(who)s has %(words)s counted, but these rules (%(label)s) have "
                "no penalty for an unfinished meld; leave them out."
            )
            % {"who": who, "words": words, "label": rules.label},
        )
    return Refusal(
        f"{where}.{key_name(key)}",
        _(
            "%(who)s's %(words)s list %(quote)s, which is not a kind of "
            "these rules (%(label)s); use %(listed)s."
        )
        % {
            "who": who,
            "words": words,
            "quote": quote(key_name(key)),
            "label": rules.label,
            "listed": listed,
        },
    )


def _read_unfinished(rules, i, who, team, errors):
    """Unfinished melds of each kind (zeros when not given), or None when refused."""
    counts: list[int | None] = [None] * len(rules.kinds)
    raw = team.get("unfinished")
    if raw is not None:
        allowed = tuple(
            kind.key for kind in rules.kinds if kind.unfinished or kind.blocks_going_out
        )
        if not _read_kind_counts(rules, i, who, raw, "unfinished", allowed, counts, errors):
            return None
    return tuple(n or 0 for n in counts)


def _disagree_kind(rules, i, who, team, k, given, found):
    return Refusal(
        canasta_field(rules, i, team, k),
        _(
            "%(who)s's number of %(kind_plural)s says %(num)s, but its melds "
            "give %(num2)s; correct one of them, or leave %(who)s's total "
            "empty."
        )
        % {
            "who": who,
            "kind_plural": kind_plural(rules.kinds[k]),
            "num": num(given),
            "num2": num(found),
        },
    )


def _disagree_unfinished(rules, i, who, k, given, found):
    kind = rules.kinds[k]
    return Refusal(
        f"teams[{i}].unfinished.{kind.key}",
        _(
            "%(who)s's unfinished %(kind_plural)s say %(num)s, but its melds "
            "give %(num2)s; correct one of them, or leave the unfinished "
            "melds out."
        )
        % {"who": who, "kind_plural": kind_plural(kind), "num": num(given), "num2": num(found)},
    )


def _check_totals(rules, deck, i, who, team, mp, canastas, unfinished, errors):
    """Totals only: they must be able to hold the canastas and melds they claim, and no
    more points than the decks hold. Returns whether the points were refused as too
    many."""
    total = sum(canastas) if canastas else 0
    opened = sum(unfinished) if unfinished else 0
    if mp == 0 and (total or opened):
        k = next(k for k, n in enumerate(canastas or unfinished) if n)
        if total:
            found = cheapest_canastas(rules, *canastas)
            least = (
                _(", at least %(points)s") % {"points": num(sum(c.points for c in found))}
                if found
                else ""
            )
            errors.append(
                Refusal(
                    canasta_field(rules, i, team, k),
                    _(
                        "%(who)s has %(plural)s but no melded points; a team with "
                        "canastas has melded, so enter its melded points (the canastas' "
                        "cards count too%(least)s)."
                    )
                    % {
                        "who": who,
                        "plural": count(total, "%(n)s canasta", "%(n)s canastas"),
                        "least": least,
                    },
                )
            )
        else:
            errors.append(
                Refusal(
                    f"teams[{i}].unfinished.{rules.kinds[k].key}",
                    _(
                        "%(who)s has %(plural)s but no melded points; enter its melded "
                        "points (the melds' cards count too)."
                    )
                    % {
                        "who": who,
                        "plural": count(opened, "%(n)s unfinished meld", "%(n)s unfinished melds"),
                    },
                )
            )
    elif mp is not None and canastas is not None and unfinished is not None:
        _check_canastas(rules, i, who, team, mp, canastas, unfinished, errors)
    if mp is not None and mp > deck.card_points:
        errors.append(too_many_points(i, who, "melded_points", mp, deck))
        return True
    return False


def _check_canastas(rules, i, who, team, mp, canastas, unfinished, errors):
    """No more canastas than the ranks allow, and melded points that can hold them and
    the unfinished melds."""
    found = cheapest_canastas(rules, *canastas)
    if found is None:
        errors.append(_too_many_canastas(rules, i, who, team, canastas))
        return
    if _same_rank_twice(rules, i, who, canastas, unfinished, errors):
        return
    needed = sum(canasta.points for canasta in found)
    open_points, open_words = _unfinished_least(rules, unfinished)
    if mp < needed + open_points:
        total = sum(canastas)
        if total:
            what = ngettext(
                "%(canastas)s, which holds at least %(needed)s points of cards (%(cheapest)s)",
                "%(canastas)s, which hold at least %(needed)s points of cards (%(cheapest)s)",
                total,
            ) % {
                "canastas": count_words(rules.kinds, canastas),
                "needed": num(needed),
                "cheapest": _cheapest_words(found),
            }
            if open_points:
                what = _("%(canastas)s, and %(unfinished)s") % {
                    "canastas": what,
                    "unfinished": open_words,
                }
        else:
            what = open_words
        if total and not open_points:
            message = ngettext(
                "%(who)s has %(canastas)s, which holds at least %(needed)s points of cards "
                "(%(cheapest)s), but its melded points are only %(points)s; enter at "
                "least %(needed)s melded points, or correct the canastas.",
                "%(who)s has %(canastas)s, which hold at least %(needed)s points of cards "
                "(%(cheapest)s), but its melded points are only %(points)s; enter at "
                "least %(needed)s melded points, or correct the canastas.",
                total,
            ) % {
                "who": who,
                "canastas": count_words(rules.kinds, canastas),
                "needed": num(needed),
                "cheapest": _cheapest_words(found),
                "points": num(mp),
            }
        else:
            message = (
                _(
                    "%(who)s has %(what)s, but its melded points are only %(points)s; enter "
                    "at least %(needed)s melded points, or correct the canastas."
                )
                if total
                else _(
                    "%(who)s has %(what)s, but its melded points are only %(points)s; enter "
                    "at least %(needed)s melded points, or correct the unfinished melds."
                )
            ) % {"who": who, "what": what, "points": num(mp), "needed": num(needed + open_points)}
        errors.append(
            Refusal(
                f"teams[{i}].melded_points",
                message,
            )
        )


def _unfinished_least(rules, unfinished):
    """The fewest points the unfinished melds hold (three of their cheapest cards each),
    and words for them."""
    values = rules.values
    points = 0
    parts = []
    for kind, n in zip(rules.kinds, unfinished, strict=True):
        if not n:
            continue
        if kind.shape == GROUP:
            each = _MELD_CARDS * values[kind.rank] if kind.rank else 0
        elif kind.shape == SEQUENCE:
            each = sum(values[rank] for rank in SEQUENCE_ORDER[:_MELD_CARDS])
        else:
            each = _MELD_CARDS * min(values["2"], values["joker"])
        points += n * each
        parts.append(unfinished_words(kind, n))
    words = (
        _("%(melds)s (%(points)s points of cards at least)")
        % {"melds": sentence_list(parts), "points": num(points)}
        if parts
        else ""
    )
    return points, words


def unfinished_words(kind, n: int) -> str:
    """ "2 unfinished canastas of sevens", in the reader's language."""
    return ngettext("%(n)s unfinished %(kind)s", "%(n)s unfinished %(kind)s", n) % {
        "n": num(n),
        "kind": kind.word if n == 1 else kind.plural,
    }


def _same_rank_twice(rules, i, who, canastas, unfinished, errors) -> bool:
    """With one meld per rank, a kind of one rank is one meld: a canasta of sevens and
    an unfinished meld of sevens cannot both be on the table."""
    if not rules.one_meld_per_rank:
        return False
    for k, kind in enumerate(rules.kinds):
        if kind.rank is None or canastas[k] + unfinished[k] <= 1:
            continue
        errors.append(
            Refusal(
                f"teams[{i}].unfinished.{kind.key}",
                _(
                    "%(who)s has %(plural)s and %(plural2)s of the same rank; a team "
                    "has one meld per rank, so enter at most one of them."
                )
                % {
                    "who": who,
                    "plural": plural(canastas[k], kind.word, kind_plural(kind)),
                    "plural2": count(
                        unfinished[k], "%(n)s unfinished meld", "%(n)s unfinished melds"
                    ),
                },
            )
        )
        return True
    return False


def _cheapest_words(canastas):
    if len(canastas) == 1:
        return _("the cheapest is %(cards)s") % {"cards": describe_canastas(canastas)}
    return _("one meld per rank: the cheapest are %(cards)s") % {
        "cards": describe_canastas(canastas)
    }


def _too_many_canastas(rules, i, who, team, canastas):
    table = canasta_table(rules)
    total = sum(canastas)
    over = [k for k, n in enumerate(canastas) if n > table.most_by_kind[k]]
    preferred = {key: n for n, key in enumerate(("natural", "mixed"))}
    # The kind named: the most of them, natural before mixed before the others.
    largest = min(
        range(len(canastas)),
        key=lambda k: (-canastas[k], preferred.get(rules.kinds[k].key, 2), k),
    )
    if total > table.most:
        k, limit, what = largest, table.most, _("canastas in all")
    elif over:
        k = over[0]
        limit = table.most_by_kind[k]
        what = kind_plural(rules.kinds[k]) if limit != 1 else rules.kinds[k].word
    else:
        return Refusal(
            canasta_field(rules, i, team, largest),
            _(
                "%(who)s has %(count_words)s, but under these rules a team "
                "cannot have all of them (%(why)s); enter fewer."
            )
            % {"who": who, "count_words": count_words(rules.kinds, canastas), "why": _why(rules)},
        )
    several = sum(1 for n in canastas if n) > 1
    return Refusal(
        canasta_field(rules, i, team, k),
        _(
            "%(who)s has %(count_words)s%(value)s, but under these rules a "
            "team can have at most %(num)s %(what)s (%(why)s); enter at most "
            "%(num)s."
        )
        % {
            "who": who,
            "count_words": count_words(rules.kinds, canastas),
            "value": _(" (%(n)s in all)") % {"n": num(total)} if several else "",
            "num": num(limit),
            "what": what,
            "why": _why(rules),
        },
    )


def _why(rules) -> str:
    if rules.one_meld_per_rank:
        return _("one meld per rank, A down to 4")
    return _("as many as the decks hold cards for")
