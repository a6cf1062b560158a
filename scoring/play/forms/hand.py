"""The whole hand form (:class:`HandEntry`): one team entry per team plus the hidden
hand number and version, the path from an engine refusal to its box, and the way back
from stored inputs to form values (editing a hand; what a keeper would post).

The hand form knows no rule of canasta. It turns what the keeper typed into the
contract's team dicts (``HandEntry.inputs()``), the engine scores or refuses them, and
each refusal's field path (``teams[1].red_threes``, ``teams[0].melds[2]``) is put back
on the form field at fault (``HandEntry.apply_refusals()``). Everything typed is kept.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import NamedTuple

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import engine
from scoring.labels import PENALTY_LABELS
from scoring.play.forms.fields import (
    EXTRA_MELD_ROWS,
    QUICK_FIELDS,
    SEQUENCE_ROWS,
    rank_slug,
)
from scoring.play.forms.team import TeamEntryForm

_PATH = re.compile(r"^teams\[(\d+)\](?:\.([a-z_]+)(?:\[(\d+)\])?(?:\.([A-Za-z0-9_]+))?)?$")


#: The score pad's rows, top to bottom: (field name, how it is drawn). "quick" rows are
#: hidden for a side entering card by card. The rare items (perfect cut, penalties,
#: going out concealed, the way of entering) are under "More", below the pad.
PAD_ROWS = (
    ("melded_points", "quick"),
    ("natural_canastas", "quick"),
    ("mixed_canastas", "quick"),
    ("hand_points", "quick"),
    ("red_threes", "number"),
    ("went_out", "radio"),
)


#: What a Save with nothing typed is told (nothing is saved).
BLANK_MESSAGE = gettext_lazy("Type the hand first: every box is empty or 0, so nothing was saved.")
#: What a correction with every box empty or 0 is told (the hand stays as saved).
BLANK_CORRECTION_MESSAGE = gettext_lazy(
    "Every box is empty or 0: type the hand as it was played, or tap Cancel to keep it as saved."
)


class Problem(NamedTuple):
    """One thing to fix before the hand can be saved: where (a side and a box, or
    nothing when the message names them), the message, and the id of the box or
    group it is about (for a link; empty when it is about the whole hand)."""

    where: str
    message: str
    target: str = ""


class HandMetaForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=10_000, widget=forms.HiddenInput)
    version = forms.IntegerField(
        min_value=0, max_value=10**9, required=False, widget=forms.HiddenInput
    )
    #: The keeper's answer to "Save a hand where nobody scored?", asked only after a
    #: Save with every box empty (the stock ran out with nothing melded).
    nobody_scored = forms.BooleanField(
        required=False, label=gettext_lazy("Save a hand where nobody scored?")
    )


class HandEntry:
    """The whole hand: one TeamEntryForm per team and the hidden hand number/version.

    ``saving``: the form is about to be saved, so a hand with nothing typed is refused
    (:data:`BLANK_MESSAGE`, or ``blank_message`` for a correction) unless the keeper
    answered "Save a hand where nobody scored?" (``blank_refused`` then says to ask
    it)."""

    def __init__(
        self,
        rules: engine.RuleSet,
        teams,
        data=None,
        *,
        inputs=None,
        number=None,
        version=None,
        saving=False,
        blank_message=BLANK_MESSAGE,
    ):
        self.rules = rules
        self.saving = saving
        self.blank_message = blank_message
        self.blank_refused = False
        self.top_errors: list[str] = []
        initial_meta = {"number": number, "version": version}
        self.meta = HandMetaForm(data, initial=initial_meta)
        self._data, self._inputs = data, inputs
        #: Each team's (prefix, label, names): what its boxes are drawn with.
        self.team_shape = tuple(
            (
                f"t{i}",
                getattr(team, "label_text", None) or rules.team_label(i),
                getattr(team, "player_names", ""),
            )
            for i, team in enumerate(teams)
        )
        self._valid = None

    @cached_property
    def teams(self) -> list[TeamEntryForm]:
        """One form per team, made when first asked for."""
        forms_ = []
        for i, (prefix, label, names) in enumerate(self.team_shape):
            inputs = self._inputs
            initial = team_initial(inputs[i]) if inputs and i < len(inputs) else {}
            forms_.append(
                TeamEntryForm(
                    self._data,
                    rules=self.rules,
                    prefix=prefix,
                    initial=initial,
                    label=label,
                    names=names,
                )
            )
        return forms_

    def is_valid(self) -> bool:
        if self._valid is None:
            results = [self.meta.is_valid()] + [form.is_valid() for form in self.teams]
            self._valid = all(results)
            if not self.meta.is_valid():
                self.top_errors.append(
                    _(
                        "This form is out of date or was changed; reload the page and enter "
                        "the hand again."
                    )
                )
            elif self._valid and self.saving and self._refuses_blank():
                self.top_errors.append(str(self.blank_message))
                self.blank_refused = True
                self._valid = False
        return self._valid

    def _refuses_blank(self) -> bool:
        return self.is_blank() and not self.meta.cleaned_data.get("nobody_scored")

    def is_blank(self) -> bool:
        """Nothing typed: no side has a point, a card, a red three, a penalty, a cut
        or went out (call after the team forms are valid)."""
        return not any(_typed(team) for team in self.inputs())

    @property
    def number(self) -> int | None:
        if self.meta.is_bound and self.meta.is_valid():
            return self.meta.cleaned_data["number"]
        return self.meta.initial.get("number")

    @property
    def version(self) -> int | None:
        if self.meta.is_bound and self.meta.is_valid():
            return self.meta.cleaned_data.get("version")
        return self.meta.initial.get("version")

    def problems(self) -> list[Problem]:
        """Every error of the form, the hand's first, then each side's."""
        found = [Problem("", m) for m in self.top_errors]
        for i, form in enumerate(self.teams):
            found += _side_problems(form, i)
        return found

    @property
    def fragment_key(self) -> str | None:
        """What the empty pad (nothing typed, nothing to start from) is drawn from, for
        the template's fragment cache: the rule set and the sides' labels and names
        (with the language, which the template adds); None when anything was typed or
        given, so the boxes must be drawn with it."""
        if self._data is not None or self._inputs or self.top_errors:
            return None
        return f"{hash(self.rules)}|{self.team_shape!r}"

    @property
    def more_open(self) -> bool:
        """Whether "More" (the rare items) is drawn open: one of them is set or wrong."""
        return any(form.more_open for form in self.teams)

    def pad(self) -> dict:
        """The score pad: its rows (label and kind, one per item) and, per side, that
        side's form and its box in each row."""
        first = self.teams[0]
        rows = []
        for name, kind in PAD_ROWS:
            if name == "hand_points":  # the game's other kinds of canasta come first
                rows += [(kind_name, "quick") for kind_name in first.pad_kind_names()]
            if name in first.fields:
                rows.append((name, kind))
        return {
            # The pad's grid: its head and one row per item (rows-8 and up in the CSS).
            "grid_rows": len(rows) + 1,
            "rows": [{"label": first.fields[name].label, "kind": kind} for name, kind in rows],
            "sides": [
                {"form": form, "cells": [{"field": form[name], "kind": k} for name, k in rows]}
                for form in self.teams
            ],
        }

    def inputs(self) -> list[dict]:
        return [form.to_team() for form in self.teams]

    def apply_refusals(self, errors) -> None:
        """Show each engine refusal on its field; the rest at the top of the form."""
        for error in errors:
            match = _PATH.match(error.field or "")
            if not match:
                self.top_errors.append(error.message)
                continue
            i = int(match.group(1))
            if i >= len(self.teams):
                self.top_errors.append(error.message)
                continue
            index = int(match.group(3)) if match.group(3) is not None else None
            self.teams[i].add_refusal(match.group(2), index, match.group(4), error.message)


def hand_entry(game, teams, data=None, **kw) -> HandEntry:
    """The hand form of ``game`` (a Game: its rule set frozen when it started)."""
    return HandEntry(game.engine_rules(), teams, data, **kw)


def _side_problems(form: TeamEntryForm, i: int) -> list[Problem]:
    where = form.label

    def item(message, target, box=""):
        # The engine's messages name the side already ("Team 1 went out ...").
        # The engine's and the services' messages name the side or sides already.
        named = str(where) in message or any(
            str(word) in message for word in (form.rules.teams_word, _("Team"), _("Player"))
        )
        place = "" if named else f"{where}, {box}" if box else where
        return Problem(place, message, target)

    detail = f"detail-team-{i}" if form.card_by_card else f"entry-team-{i}"
    found = [item(m, f"entry-team-{i}") for m in form.team_errors]
    found += [item(m, detail) for m in form.melds_errors + form.cards_errors]
    found += [item(m, f"more-team-{i}") for m in form.penalty_errors]
    for rank, messages in form.meld_errors.items():
        box = form[_meld_box(rank)]
        found += [item(m, box.auto_id) for m in messages]
    for name, errors in form.errors.items():
        field = form[name] if name in form.fields else None
        for m in errors:
            found.append(item(m, field.auto_id if field else "", field.label if field else ""))
    return found


def _meld_box(key: str) -> str:
    """The first box of a card-by-card meld row: a rank's, the wild cards', another
    meld's (``extra1``) or a sequence's (``seq1``)."""
    if key == "wild":
        return "meld_wild_jokers"
    if key.startswith("extra"):
        return f"{key}_rank"
    if key.startswith("seq"):
        return f"{key}_from"
    return f"meld_{rank_slug(key)}_naturals"


def _typed(team: dict) -> bool:
    """Whether a contract team dict holds anything but zeros and "none"."""
    return any(value not in (0, None, "", "none", False, [], {}) for value in team.values())


def team_initial(team: dict) -> dict:
    """Form initial values from a stored team dict (for editing a hand)."""
    if not isinstance(team, dict):
        return {}
    initial: dict = {}
    if "melds" in team:
        initial["mode"] = "detailed"
        _melds_initial(team.get("melds") or [], initial)
        for key, count in (team.get("hand_cards") or {}).items():
            if key in engine.HAND_CARD_KEYS and count:
                initial[f"card_{key.lower()}"] = count
        if "hand_points" in team and not team.get("hand_cards"):
            # An entry with melds and a points total: show the total in the quick box.
            initial["hand_points"] = team["hand_points"]
    else:
        initial["mode"] = "quick"
    for name in (*QUICK_FIELDS, "red_threes"):
        if name in team and team[name] not in (None, ""):
            initial.setdefault(name, team[name])
    for entry, prefix in (("canastas", "canasta_"), ("unfinished", "unfinished_")):
        counts = team.get(entry)
        for kind, n in counts.items() if isinstance(counts, dict) else ():
            if entry == "canastas" and kind in ("natural", "mixed"):
                initial.setdefault(f"{kind}_canastas", n)
            else:
                initial[f"{prefix}{kind}"] = n
    initial["went_out"] = team.get("went_out") or "none"
    initial["perfect_cut"] = bool(team.get("perfect_cut"))
    if team.get("special_hand"):
        initial["special_hand"] = team["special_hand"]
    counts: dict[str, int] = {}
    for penalty in team.get("penalties") or []:
        if not isinstance(penalty, dict):
            continue
        kind = penalty.get("kind")
        if kind in PENALTY_LABELS:
            counts[kind] = counts.get(kind, 0) + 1
        elif kind == "other":
            initial["pen_other_points"] = penalty.get("points")
            initial["pen_other_note"] = penalty.get("note", "")
    for kind, count in counts.items():
        initial[f"pen_{kind}"] = count
    return initial


def _melds_initial(melds: list, initial: dict) -> None:
    """Card-by-card boxes from stored melds: a rank's row (its second meld in a row of
    another meld), the wild cards' row, the sequences' rows."""
    extra = sequence = 0
    seen: set[str] = set()
    for meld in melds:
        if not isinstance(meld, dict):
            continue
        run = meld.get("sequence")
        if isinstance(run, list) and run and sequence < SEQUENCE_ROWS:
            sequence += 1
            initial[f"seq{sequence}_from"] = run[0]
            initial[f"seq{sequence}_cards"] = len(run)
            continue
        rank = meld.get("rank")
        if rank == "wild":
            for part in ("jokers", "twos"):
                if meld.get(part):
                    initial[f"meld_wild_{part}"] = meld[part]
            continue
        if rank not in engine.MELD_RANKS:
            continue
        if rank in seen and extra < EXTRA_MELD_ROWS:
            extra += 1
            initial[f"extra{extra}_rank"] = rank
            for part in ("naturals", "jokers", "twos"):
                if meld.get(part):
                    initial[f"extra{extra}_{part}"] = meld[part]
            continue
        seen.add(rank)
        slug = rank_slug(rank)
        for part in ("naturals", "jokers", "twos"):
            if meld.get(part):
                initial[f"meld_{slug}_{part}"] = meld[part]


def hand_form_data(teams: list[dict], number: int, *, action: str = "save", version=None) -> dict:
    """What the hand form posts when a keeper types these contract team dicts (the
    inverse of ``HandEntry.inputs()``), for the benchmark and the tests."""
    data = {"number": str(number), "action": action}
    if version is not None:
        data["version"] = str(version)
    for i, team in enumerate(teams):
        for name, value in team_initial(team).items():
            if value is True:
                data[f"t{i}-{name}"] = "on"
            elif value not in (None, "", False):
                data[f"t{i}-{name}"] = str(value)
    return data
