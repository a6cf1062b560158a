"""A team's melded totals: melded points and canastas, entered as totals or as melds.

Totals cannot be checked card by card, so they must at least hold the canastas claimed
(the cheapest distinct ranks, see :mod:`.canastas`: a natural canasta 35, a mixed one
50, five natural ones 210) and no more than the decks are worth. Detailed melds are
checked in :mod:`.melds`, and totals entered beside them must agree with what they give.
"""

from __future__ import annotations

from .._text import _, count, describe, ngettext, num
from ..results import Refusal
from .canastas import canasta_count_words, canasta_table, cheapest_canastas, describe_canastas
from .melds import read_melds
from .numbers import disagree, team_number, too_many_points

_TOTAL_KEYS = ("melded_points", "natural_canastas", "mixed_canastas")


def read_melded(rules, deck, i, who, team, went_out, errors, counts):
    """Read what a team melded: (melded points, natural canastas, mixed canastas,
    melded at all, points refused as too many); a refused value is None."""
    raw_mp = team.get("melded_points")
    if type(raw_mp) is int and raw_mp >= 0 and not raw_mp % 5:
        mp = raw_mp
    else:
        mp = team_number(raw_mp, errors, i, who, "melded_points", True)
    raw_nat = team.get("natural_canastas")
    if type(raw_nat) is int and raw_nat >= 0:
        nat = raw_nat
    else:
        nat = team_number(raw_nat, errors, i, who, "natural_canastas")
    raw_mix = team.get("mixed_canastas")
    if type(raw_mix) is int and raw_mix >= 0:
        mix = raw_mix
    else:
        mix = team_number(raw_mix, errors, i, who, "mixed_canastas")
    melds = team.get("melds")
    if melds is None:
        refused = _check_totals(rules, deck, i, who, mp, nat, mix, errors)
        return mp, nat, mix, None if mp is None else mp > 0, refused
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
    if raw_mp is not None or raw_nat is not None or raw_mix is not None:
        for key, given, total in zip(_TOTAL_KEYS, (raw_mp, raw_nat, raw_mix), found, strict=True):
            if type(given) is int and given >= 0 and given != total:
                errors.append(disagree(i, who, key, given, total, _("its melds")))
    return *found, bool(melds), False


def _check_totals(rules, deck, i, who, mp, nat, mix, errors):
    """Totals only: they must be able to hold the canastas they claim, and no more
    points than the decks hold. Returns whether the points were refused as too many."""
    if mp == 0 and (nat or mix):
        key = "natural_canastas" if nat else "mixed_canastas"
        canastas = cheapest_canastas(rules, nat or 0, mix or 0)
        words = {
            "who": who,
            "canastas": count((nat or 0) + (mix or 0), "%(n)s canasta", "%(n)s canastas"),
        }
        if canastas:
            message = _(
                "%(who)s has %(canastas)s but no melded points; a team with canastas has "
                "melded, so enter its melded points (the canastas' cards count too, at least "
                "%(least)s)."
            ) % {**words, "least": num(sum(c.points for c in canastas))}
        else:
            message = (
                _(
                    "%(who)s has %(canastas)s but no melded points; a team with canastas has "
                    "melded, so enter its melded points (the canastas' cards count too)."
                )
                % words
            )
        errors.append(Refusal(f"teams[{i}].{key}", message))
    elif mp is not None and nat is not None and mix is not None:
        _check_canastas(rules, i, who, mp, nat, mix, errors)
    if mp is not None and mp > deck.card_points:
        errors.append(too_many_points(i, who, "melded_points", mp, deck))
        return True
    return False


def _check_canastas(rules, i, who, mp, nat, mix, errors):
    """No more canastas than the ranks allow, and melded points that can hold them."""
    table = canasta_table(rules)
    canastas = cheapest_canastas(rules, nat, mix)
    if canastas is None:
        errors.append(_too_many_canastas(table, i, who, nat, mix))
        return
    needed = sum(canasta.points for canasta in canastas)
    if mp < needed:
        errors.append(
            Refusal(
                f"teams[{i}].melded_points",
                ngettext(
                    "%(who)s has %(canastas)s, which holds at least %(needed)s points of cards "
                    "(%(cheapest)s), but its melded points are only %(points)s; enter at "
                    "least %(needed)s melded points, or correct the canastas.",
                    "%(who)s has %(canastas)s, which hold at least %(needed)s points of cards "
                    "(%(cheapest)s), but its melded points are only %(points)s; enter at "
                    "least %(needed)s melded points, or correct the canastas.",
                    nat + mix,
                )
                % {
                    "who": who,
                    "canastas": canasta_count_words(nat, mix),
                    "needed": num(needed),
                    "cheapest": _cheapest_words(canastas),
                    "points": num(mp),
                },
            )
        )


def _cheapest_words(canastas):
    if len(canastas) == 1:
        return _("the cheapest is %(cards)s") % {"cards": describe_canastas(canastas)}
    return _("one meld per rank: the cheapest are %(cards)s") % {
        "cards": describe_canastas(canastas)
    }


def _too_many_canastas(table, i, who, nat, mix):
    if nat + mix > table.most:
        key = "mixed_canastas" if mix > nat else "natural_canastas"
        limit = table.most
        what = count(limit, "%(n)s canasta in all", "%(n)s canastas in all")
    elif nat > table.most_natural:
        key, limit = "natural_canastas", table.most_natural
        what = count(limit, "%(n)s natural canasta", "%(n)s natural canastas")
    else:
        key, limit = "mixed_canastas", table.most_mixed
        what = count(limit, "%(n)s mixed canasta", "%(n)s mixed canastas")
    has = canasta_count_words(nat, mix)
    if nat and mix:
        has = _("%(canastas)s (%(all)s in all)") % {"canastas": has, "all": num(nat + mix)}
    return Refusal(
        f"teams[{i}].{key}",
        _(
            "%(who)s has %(canastas)s, but under these rules a team can have at most "
            "%(most)s (one meld per rank, A down to 4); enter at most %(limit)s."
        )
        % {"who": who, "canastas": has, "most": what, "limit": num(limit)},
    )
