"""One team's entry for a hand (:class:`TeamEntryForm`): reading it into the contract's
team dict, putting the engine's refusals back on the box at fault, and the groups of
boxes the template draws (melds, cards left in hand, penalties).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _

from scoring import engine
from scoring.labels import RANK_WORDS
from scoring.play.forms.fields import PENALTY_FIELDS, QUICK_FIELDS, rank_slug, team_fields


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
        self.fields = team_fields(
            rules.perfect_cut_enabled,
            rules.perfect_cut_bonus,
            self.alone,
            rules.penalty_amounts,
        )

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
            melds = []
            for rank in engine.MELD_RANKS:
                slug = rank_slug(rank)
                meld = {"rank": rank, "naturals": self._n(f"meld_{slug}_naturals")}
                if rank != "3":
                    meld["jokers"] = self._n(f"meld_{slug}_jokers")
                    meld["twos"] = self._n(f"meld_{slug}_twos")
                if any(v for k, v in meld.items() if k != "rank"):
                    melds.append(meld)
                    self._meld_ranks.append(rank)
            team["melds"] = melds
            team["hand_cards"] = {
                key: self._n(f"card_{key.lower()}")
                for key in engine.HAND_CARD_KEYS
                if self._n(f"card_{key.lower()}")
            }
        else:
            for name in QUICK_FIELDS:
                team[name] = self._n(name)
        team["red_threes"] = self._n("red_threes")
        went_out = self.cleaned_data.get("went_out") or "none"
        team["went_out"] = went_out
        team["perfect_cut"] = bool(self.cleaned_data.get("perfect_cut"))
        penalties = []
        self._penalty_kinds = []
        for kind, name in PENALTY_FIELDS.items():
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

    def clean(self):
        data = super().clean()
        for name in PENALTY_FIELDS.values():
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
        elif key in ("red_threes", "went_out") or (key == "perfect_cut" and key in self.fields):
            self.add_error(key, message)
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
            if kind in PENALTY_FIELDS:
                self.add_error(PENALTY_FIELDS[kind], message)
            elif kind == "other":
                self.add_error("pen_other_note" if sub == "note" else "pen_other_points", message)
            else:
                self.penalty_errors.append(message)
        else:
            self.team_errors.append(message)

    # -- rendering helpers -----------------------------------------------------------

    def meld_rows(self):
        rows = []
        for rank in engine.MELD_RANKS:
            slug = rank_slug(rank)
            cells = [self[f"meld_{slug}_naturals"]]
            if rank != "3":
                cells += [self[f"meld_{slug}_jokers"], self[f"meld_{slug}_twos"]]
            errors = list(self.meld_errors.get(rank, []))
            for cell in cells:
                errors += list(cell.errors)
            rows.append({"rank": rank, "words": RANK_WORDS[rank], "cells": cells, "errors": errors})
        return rows

    def card_fields(self):
        return [self[f"card_{key.lower()}"] for key in engine.HAND_CARD_KEYS]

    def penalty_fields(self):
        return [self[name] for name in PENALTY_FIELDS.values()]

    @property
    def more_open(self) -> bool:
        """Whether a rare item (under "More") is set or wrong: went out concealed, a
        perfect cut, a penalty."""
        if self.penalties_open or self["mode"].errors:
            return True
        if "perfect_cut" in self.fields and self["perfect_cut"].errors:
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
        names = [*PENALTY_FIELDS.values(), "pen_other_points", "pen_other_note"]
        if self.penalty_errors or any(self[n].errors for n in names):
            return True
        source = self.data if self.is_bound else self.initial
        for name in names:
            key = self.add_prefix(name) if self.is_bound else name
            if source.get(key) not in (None, "", 0, "0"):
                return True
        return False
