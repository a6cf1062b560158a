"""One team's entry for a hand (:class:`TeamEntryForm`): reading it into the contract's
team dict, putting the engine's refusals back on the box at fault, and the groups of
boxes the template draws (melds, cards left in hand, penalties).
"""

from __future__ import annotations

from functools import lru_cache

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.rules.kinds import SEQUENCE_ORDER
from scoring.labels import RANK_WORDS
from scoring.play.forms.fields import (
    EXTRA_MELD_ROWS,
    QUICK_FIELDS,
    SEQUENCE_ROWS,
    extra_kinds,
    meld_ranks,
    penalty_fields,
    rank_slug,
    rare_kind,
    team_fields,
    unfinished_kinds,
)


@lru_cache(maxsize=256)
def _fields_of(rules: engine.RuleSet, language: str | None) -> dict[str, forms.Field]:
    """A rule set's team boxes in one language (their labels and help are words of the
    language the page is drawn in), built once: Django would copy every field of a
    form's class for each form made, and a hand form has about 40 boxes a side."""
    return team_fields(
        rules.perfect_cut_enabled,
        rules.perfect_cut_bonus,
        rules.players_per_team == 1,
        rules.penalty_amounts,
        rules=rules,
    )


class TeamEntryForm(forms.Form):
    """One team's entry for a hand. Built per rule set (the perfect cut box appears only
    when the rules have a perfect cut)."""

    def __init__(self, *args, rules: engine.RuleSet, label: str = "", names: str = "", **kw):
        super().__init__(*args, **kw)
        self.rules = rules
        self.label = label
        self.names = names
        self.team_errors: list[str] = []
        self.meld_errors: dict[str, list[str]] = {}
        self.melds_errors: list[str] = []
        self.cards_errors: list[str] = []
        self.penalty_errors: list[str] = []
        self._meld_ranks: list[str] = []
        self._penalty_kinds: list[str] = []
        self.alone = rules.players_per_team == 1
        self.penalty_names = penalty_fields(rules)
        # Shared by every form of this rule set and language, never changed by one:
        # what a form changes (its data, errors, refusals) is its own.
        self.fields = _fields_of(rules, get_language())

    # -- reading -------------------------------------------------------------------

    @property
    def mode(self) -> str:
        value = None
        if self.is_bound:
            value = self.data.get(self.add_prefix("mode"))
        else:
            value = self.initial.get("mode")
        return value if value in ("quick", "detailed") else "quick"

    @property
    def card_by_card(self) -> bool:
        """Entered card by card (templates: ``tf.mode`` is the mode's bound field)."""
        return self.mode == "detailed"

    def _n(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        return value if isinstance(value, int) else 0

    def to_team(self) -> dict:
        """The contract's team dict (call after is_valid())."""
        team: dict = {}
        self._meld_ranks = []
        if self.mode == "detailed":
            team["melds"] = self._melds()
            team["hand_cards"] = {
                key: self._n(f"card_{key.lower()}")
                for key in engine.HAND_CARD_KEYS
                if self._n(f"card_{key.lower()}")
            }
        else:
            for name in QUICK_FIELDS:
                team[name] = self._n(name)
            kinds = {k.key: self._n(f"canasta_{k.key}") for k in extra_kinds(self.rules)}
            if any(kinds.values()):
                team["canastas"] = {key: n for key, n in kinds.items() if n}
            open_melds = {
                k.key: self._n(f"unfinished_{k.key}") for k in unfinished_kinds(self.rules)
            }
            if any(open_melds.values()):
                team["unfinished"] = {key: n for key, n in open_melds.items() if n}
        team["red_threes"] = self._n("red_threes")
        went_out = self.cleaned_data.get("went_out") or "none"
        team["went_out"] = went_out
        team["perfect_cut"] = bool(self.cleaned_data.get("perfect_cut"))
        if self.cleaned_data.get("special_hand"):
            team["special_hand"] = self.cleaned_data["special_hand"]
        penalties = []
        self._penalty_kinds = []
        for kind, name in self.penalty_names.items():
            for _n in range(min(self._n(name), 50)):
                penalties.append({"kind": kind})
                self._penalty_kinds.append(kind)
        other = self.cleaned_data.get("pen_other_points")
        note = (self.cleaned_data.get("pen_other_note") or "").strip()
        if other or note:
            penalty = {"kind": "other", "points": other or 0, "note": note}
            penalties.append(penalty)
            self._penalty_kinds.append("other")
        team["penalties"] = penalties
        return team

    def _melds(self) -> list[dict]:
        """The card-by-card melds, each row typed into, in the order of the rows; the
        key of each meld's row is kept for its refusals (``_meld_ranks``)."""
        melds = []
        for rank in meld_ranks(self.rules):
            slug = rank_slug(rank)
            meld = {"rank": rank, "naturals": self._n(f"meld_{slug}_naturals")}
            if f"meld_{slug}_jokers" in self.fields:
                meld["jokers"] = self._n(f"meld_{slug}_jokers")
                meld["twos"] = self._n(f"meld_{slug}_twos")
            self._add_meld(melds, meld, rank)
        if "meld_wild_jokers" in self.fields:
            meld = {"rank": "wild", "jokers": self._n("meld_wild_jokers")}
            meld["twos"] = self._n("meld_wild_twos")
            self._add_meld(melds, meld, "wild")
        for n in range(1, EXTRA_MELD_ROWS + 1):
            rank = self.cleaned_data.get(f"extra{n}_rank")
            if f"extra{n}_rank" in self.fields and rank:
                meld = {"rank": rank}
                for part in ("naturals", "jokers", "twos"):
                    meld[part] = self._n(f"extra{n}_{part}")
                self._add_meld(melds, meld, f"extra{n}")
        for n in range(1, SEQUENCE_ROWS + 1):
            low = self.cleaned_data.get(f"seq{n}_from")
            cards = self._n(f"seq{n}_cards")
            if f"seq{n}_from" in self.fields and low and cards:
                start = SEQUENCE_ORDER.index(low)
                run = list(SEQUENCE_ORDER[start : start + min(cards, 20)])
                if len(run) < cards:  # past the ace: the engine says what is wrong
                    run += ["3"] * (cards - len(run))
                melds.append({"sequence": run})
                self._meld_ranks.append(f"seq{n}")
        return melds

    def _add_meld(self, melds, meld, key):
        if any(v for k, v in meld.items() if k != "rank"):
            melds.append(meld)
            self._meld_ranks.append(key)

    def clean(self):
        data = super().clean()
        for name in self.penalty_names.values():
            if (data.get(name) or 0) > 50:
                self.add_error(name, _("At most 50 penalties of one kind in a hand."))
        return data

    # -- refusals --------------------------------------------------------------------

    def add_refusal(self, key: str | None, index: int | None, sub: str | None, message: str):
        """Put one engine refusal on the field at fault (see HandEntry.apply_refusals)."""
        detailed = self.mode == "detailed"
        if key is None:
            self.team_errors.append(message)
        elif key in QUICK_FIELDS:
            if detailed:
                (self.cards_errors if key == "hand_points" else self.melds_errors).append(message)
            else:
                self.add_error(key, message)
        elif key in ("red_threes", "went_out") or (
            key in ("perfect_cut", "special_hand") and key in self.fields
        ):
            self.add_error(key, message)
        elif key in ("canastas", "unfinished"):
            name = self._kind_field(key, sub)
            if name and not detailed:
                self.add_error(name, message)
            else:
                self.melds_errors.append(message)
        elif key == "melds":
            if index is not None and 0 <= index < len(self._meld_ranks):
                self.meld_errors.setdefault(self._meld_ranks[index], []).append(message)
            else:
                self.melds_errors.append(message)
        elif key == "hand_cards":
            name = f"card_{sub.lower()}" if sub else ""
            if name in self.fields:
                self.add_error(name, message)
            else:
                self.cards_errors.append(message)
        elif key == "penalties":
            kind = None
            if index is not None and 0 <= index < len(self._penalty_kinds):
                kind = self._penalty_kinds[index]
            if kind in self.penalty_names:
                self.add_error(self.penalty_names[kind], message)
            elif kind == "other":
                self.add_error("pen_other_note" if sub == "note" else "pen_other_points", message)
            else:
                self.penalty_errors.append(message)
        else:
            self.team_errors.append(message)

    def _kind_field(self, key: str, kind: str | None) -> str | None:
        """The box of a kind's canastas (``key`` "canastas") or unfinished melds."""
        if key == "canastas":
            name = f"{kind}_canastas" if kind in ("natural", "mixed") else f"canasta_{kind}"
        else:
            name = f"unfinished_{kind}"
        return name if name in self.fields else None

    # -- rendering helpers -----------------------------------------------------------

    def meld_rows(self):
        """The card-by-card rows of melds of one rank (and of wild cards, and other
        melds of a rank where a team may have several)."""
        rows = []
        for rank in meld_ranks(self.rules):
            slug = rank_slug(rank)
            cells = [self[f"meld_{slug}_naturals"]]
            if f"meld_{slug}_jokers" in self.fields:
                cells += [self[f"meld_{slug}_jokers"], self[f"meld_{slug}_twos"]]
            rows.append(self._row(rank, RANK_WORDS[rank], cells))
        if "meld_wild_jokers" in self.fields:
            cells = [None, self["meld_wild_jokers"], self["meld_wild_twos"]]
            rows.append(self._row("wild", "Wild cards only", cells))
        for n in range(1, EXTRA_MELD_ROWS + 1):
            if f"extra{n}_rank" in self.fields:
                cells = [self[f"extra{n}_{part}"] for part in ("naturals", "jokers", "twos")]
                row = self._row(f"extra{n}", "", cells)
                row["choice"] = self[f"extra{n}_rank"]
                errors = list(row["choice"].errors)
                row["errors"] = errors + row["errors"]
                rows.append(row)
        return rows

    def _row(self, key, words, cells):
        errors = list(self.meld_errors.get(key, []))
        for cell in cells:
            if cell is not None:
                errors += list(cell.errors)
        return {"rank": key, "words": words, "cells": cells, "errors": errors}

    def sequence_rows(self):
        """The card-by-card rows of sequences (Samba, Bolivia): lowest card, cards."""
        rows = []
        for n in range(1, SEQUENCE_ROWS + 1):
            if f"seq{n}_from" not in self.fields:
                break
            low, cards = self[f"seq{n}_from"], self[f"seq{n}_cards"]
            errors = list(self.meld_errors.get(f"seq{n}", [])) + list(low.errors)
            rows.append({"n": n, "low": low, "cards": cards, "errors": errors + list(cards.errors)})
        return rows

    @property
    def sequence_word(self) -> str:
        kinds = self.rules.kinds_by_shape("sequence")
        return kinds[0].label if kinds else ""

    def card_fields(self):
        return [self[f"card_{key.lower()}"] for key in engine.HAND_CARD_KEYS]

    def penalty_fields(self):
        return [self[name] for name in self.penalty_names.values()]

    def pad_kind_names(self) -> list[str]:
        """The boxes of the game's other kinds of canasta drawn on the pad."""
        kinds = extra_kinds(self.rules)
        return [f"canasta_{k.key}" for k in kinds if not rare_kind(self.rules, k)]

    def more_kind_fields(self):
        """The rare kinds' boxes and the unfinished melds' boxes, under "More"."""
        kinds = extra_kinds(self.rules)
        names = [f"canasta_{k.key}" for k in kinds if rare_kind(self.rules, k)]
        names += [f"unfinished_{k.key}" for k in unfinished_kinds(self.rules)]
        return [self[name] for name in names]

    @property
    def more_open(self) -> bool:
        """Whether a rare item (under "More") is set or wrong: went out concealed, a
        perfect cut, a penalty."""
        if self.penalties_open or self["mode"].errors:
            return True
        for name in ("perfect_cut", "special_hand"):
            if name in self.fields and self[name].errors:
                return True
        if any(field.errors for field in self.more_kind_fields()):
            return True
        source = self.data if self.is_bound else self.initial
        for field in self.more_kind_fields():
            key = self.add_prefix(field.name) if self.is_bound else field.name
            if source.get(key) not in (None, "", 0, "0"):
                return True
        special = source.get(self.add_prefix("special_hand") if self.is_bound else "special_hand")
        if special:
            return True
        source = self.data if self.is_bound else self.initial
        key = self.add_prefix if self.is_bound else str
        return source.get(key("went_out")) == "concealed" or source.get(key("perfect_cut")) not in (
            None,
            "",
            False,
            "false",
            "off",
        )

    @property
    def penalties_open(self) -> bool:
        names = [*self.penalty_names.values(), "pen_other_points", "pen_other_note"]
        if self.penalty_errors or any(self[n].errors for n in names):
            return True
        source = self.data if self.is_bound else self.initial
        for name in names:
            key = self.add_prefix(name) if self.is_bound else name
            if source.get(key) not in (None, "", 0, "0"):
                return True
        return False
