"""Forms: entering a hand (quick or detailed, per team), starting games, rule sets.

The hand form knows no rule of canasta. It turns what the keeper typed into the
contract's team dicts (``HandEntry.inputs()``), the engine scores or refuses them, and
each refusal's field path (``teams[1].red_threes``, ``teams[0].melds[2]``) is put back
on the form field at fault (``HandEntry.apply_refusals()``). Everything typed is kept.

Field names, per team ``i`` (0-based; Django prefix ``t{i}``):

- ``t{i}-mode``: ``quick`` or ``detailed``
- quick: ``t{i}-melded_points``, ``t{i}-natural_canastas``, ``t{i}-mixed_canastas``,
  ``t{i}-hand_points``
- detailed: ``t{i}-meld_{rank}_naturals`` / ``_jokers`` / ``_twos`` for rank in
  a k q j 10 9 8 7 6 5 4 and 3 (black threes: naturals only); ``t{i}-card_{key}`` for
  key in joker 2 a k q j 10 9 8 7 6 5 4 3
- both: ``t{i}-red_threes``, ``t{i}-went_out`` (none/out/concealed), ``t{i}-perfect_cut``
  (only when the rules have it), ``t{i}-pen_ask_to_go_out_failed``,
  ``t{i}-pen_discard_unused``, ``t{i}-pen_red_three_in_hand`` (counts),
  ``t{i}-pen_other_points``, ``t{i}-pen_other_note``
- hand: ``number`` (the hand number the device is entering), ``version`` (edits)
"""

from __future__ import annotations

import re
from functools import lru_cache

from django import forms
from django.core.exceptions import ValidationError

from scoring import engine
from scoring.labels import CARD_WORDS, PENALTY_LABELS, RANK_WORDS, WENT_OUT_CHOICES
from scoring.models import RuleSet
from scoring.play import widgets as fast

NUMBER_ATTRS = {
    "inputmode": "numeric",
    "pattern": "[0-9]*",
    "autocomplete": "off",
    "class": "num",
}

#: Largest number the form accepts in any box (the engine refuses impossible ones).
MAX_DIGITS = 7

PENALTY_FIELDS = {
    "ask_to_go_out_failed": "pen_ask_to_go_out_failed",
    "discard_unused": "pen_discard_unused",
    "red_three_in_hand": "pen_red_three_in_hand",
}

MODE_CHOICES = [("quick", "Quick"), ("detailed", "Card by card")]

QUICK_FIELDS = ("melded_points", "natural_canastas", "mixed_canastas", "hand_points")


def rank_slug(rank: str) -> str:
    return rank.lower()


class WholeNumberField(forms.CharField):
    """A box for a count or points: digits only, empty means 0; opens a number pad."""

    default_error_messages = {
        "invalid": "Enter a whole number with digits only, such as 120.",
        "too_big": "That number is far too large; check it.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", fast.TextInput(attrs=dict(NUMBER_ATTRS)))
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        text = value.replace(" ", "").replace(",", "")
        if text == "":
            return None
        if len(text) > 40 or not text.isascii() or not text.isdigit():
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        if len(text.lstrip("0")) > MAX_DIGITS:
            raise ValidationError(self.error_messages["too_big"], code="too_big")
        return int(text)


@lru_cache(maxsize=16)
def _team_fields(perfect_cut_enabled: bool, perfect_cut_bonus: int) -> dict[str, forms.Field]:
    """The fields of one team's entry (see :class:`TeamEntryForm`)."""
    f: dict[str, forms.Field] = {}
    f["mode"] = forms.ChoiceField(
        choices=MODE_CHOICES,
        required=False,
        initial="quick",
        widget=fast.RadioSelect,
        label="How to enter",
    )
    f["melded_points"] = WholeNumberField(
        label="Melded card points", help_text="The cards on the table, canastas included."
    )
    f["natural_canastas"] = WholeNumberField(label="Natural canastas")
    f["mixed_canastas"] = WholeNumberField(label="Mixed canastas")
    f["hand_points"] = WholeNumberField(
        label="Points left in hand", help_text="Both partners' cards, added up."
    )
    for rank in engine.MELD_RANKS:
        slug = rank_slug(rank)
        f[f"meld_{slug}_naturals"] = WholeNumberField(label=f"{RANK_WORDS[rank]}: natural cards")
        if rank != "3":
            f[f"meld_{slug}_jokers"] = WholeNumberField(label=f"{RANK_WORDS[rank]}: jokers")
            f[f"meld_{slug}_twos"] = WholeNumberField(label=f"{RANK_WORDS[rank]}: twos")
    for key in engine.HAND_CARD_KEYS:
        f[f"card_{key.lower()}"] = WholeNumberField(label=CARD_WORDS[key])
    f["red_threes"] = WholeNumberField(label="Red threes")
    f["went_out"] = forms.ChoiceField(
        choices=WENT_OUT_CHOICES,
        required=False,
        initial="none",
        widget=fast.RadioSelect,
        label="Went out",
    )
    if perfect_cut_enabled:
        f["perfect_cut"] = forms.BooleanField(
            required=False, widget=fast.CheckboxInput, label=f"Perfect cut (+{perfect_cut_bonus})"
        )
    for kind, name in PENALTY_FIELDS.items():
        f[name] = WholeNumberField(label=f"{PENALTY_LABELS[kind]} (times)")
    f["pen_other_points"] = WholeNumberField(
        label="Other penalty: points", help_text="An officer's ruling, taken off."
    )
    f["pen_other_note"] = forms.CharField(
        required=False,
        max_length=200,
        label="Other penalty: what for",
        widget=fast.TextInput(attrs={"autocomplete": "off"}),
    )
    return f


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
        # The fields never change once made, so each form shares one set per rule set
        # shape instead of building (or deep-copying) about sixty of them.
        self.fields = dict(_team_fields(rules.perfect_cut_enabled, rules.perfect_cut_bonus))

    # -- reading -------------------------------------------------------------------

    @property
    def mode(self) -> str:
        value = None
        if self.is_bound:
            value = self.data.get(self.add_prefix("mode"))
        else:
            value = self.initial.get("mode")
        return value if value in ("quick", "detailed") else "quick"

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
            for _ in range(min(self._n(name), 50)):
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
                self.add_error(name, "At most 50 penalties of one kind in a hand.")
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


_PATH = re.compile(r"^teams\[(\d+)\](?:\.([a-z_]+)(?:\[(\d+)\])?(?:\.([A-Za-z0-9_]+))?)?$")


class HandMetaForm(forms.Form):
    number = forms.IntegerField(min_value=1, max_value=10_000, widget=fast.HiddenInput)
    version = forms.IntegerField(
        min_value=0, max_value=10**9, required=False, widget=fast.HiddenInput
    )


class HandEntry:
    """The whole hand: one TeamEntryForm per team and the hidden hand number/version."""

    def __init__(
        self, rules: engine.RuleSet, teams, data=None, *, inputs=None, number=None, version=None
    ):
        self.rules = rules
        self.top_errors: list[str] = []
        initial_meta = {"number": number, "version": version}
        self.meta = HandMetaForm(data, initial=initial_meta)
        self.teams = []
        for i, team in enumerate(teams):
            initial = team_initial(inputs[i]) if inputs and i < len(inputs) else {}
            self.teams.append(
                TeamEntryForm(
                    data,
                    rules=rules,
                    prefix=f"t{i}",
                    initial=initial,
                    label=getattr(team, "label_text", None) or rules.team_label(i),
                    names=getattr(team, "player_names", ""),
                )
            )
        self._valid = None

    def is_valid(self) -> bool:
        if self._valid is None:
            results = [self.meta.is_valid()] + [form.is_valid() for form in self.teams]
            self._valid = all(results)
            if not self.meta.is_valid():
                self.top_errors.append(
                    "This form is out of date or was changed; reload the page and enter the "
                    "hand again."
                )
        return self._valid

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


def team_initial(team: dict) -> dict:
    """Form initial values from a stored team dict (for editing a hand)."""
    if not isinstance(team, dict):
        return {}
    initial: dict = {}
    if "melds" in team:
        initial["mode"] = "detailed"
        for meld in team.get("melds") or []:
            if not isinstance(meld, dict) or meld.get("rank") not in engine.MELD_RANKS:
                continue
            slug = rank_slug(meld["rank"])
            for part in ("naturals", "jokers", "twos"):
                if meld.get(part):
                    initial[f"meld_{slug}_{part}"] = meld[part]
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
    initial["went_out"] = team.get("went_out") or "none"
    initial["perfect_cut"] = bool(team.get("perfect_cut"))
    counts: dict[str, int] = {}
    for penalty in team.get("penalties") or []:
        if not isinstance(penalty, dict):
            continue
        kind = penalty.get("kind")
        if kind in PENALTY_FIELDS:
            counts[kind] = counts.get(kind, 0) + 1
        elif kind == "other":
            initial["pen_other_points"] = penalty.get("points")
            initial["pen_other_note"] = penalty.get("note", "")
    for kind, count in counts.items():
        initial[PENALTY_FIELDS[kind]] = count
    return initial


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


# -- starting games ----------------------------------------------------------------------


class StartGameForm(forms.Form):
    """Partnerships, score keeper and first dealer, chosen from the players at the table.

    Fields: ``team{i}_player{j}`` (i, j from 0) for each place in each team,
    ``score_keeper``, ``first_dealer``, and (officers) ``rule_set``.
    """

    def __init__(self, *args, people, rules: engine.RuleSet, initial_teams=None, **kw):
        super().__init__(*args, **kw)
        self.people = list(people)
        self.rules = rules
        choices = [("", "Choose a player")] + [(str(p.pk), p.full_name) for p in self.people]
        self.team_rows = []
        for i in range(rules.teams):
            row = []
            for j in range(rules.players_per_team):
                name = f"team{i}_player{j}"
                label = (
                    rules.team_label(i)
                    if rules.players_per_team == 1
                    else f"{rules.team_label(i)}, player {j + 1}"
                )
                initial = None
                if initial_teams and i < len(initial_teams) and j < len(initial_teams[i]):
                    initial = str(initial_teams[i][j].pk)
                self.fields[name] = forms.ChoiceField(choices=choices, label=label, initial=initial)
                row.append(name)
            self.team_rows.append(row)
        optional = [("", "Nobody in particular")] + choices[1:]
        self.fields["score_keeper"] = forms.ChoiceField(
            choices=optional, required=False, label="Score keeper"
        )
        self.fields["first_dealer"] = forms.ChoiceField(
            choices=[("", "The first player listed")] + choices[1:],
            required=False,
            label="First dealer",
            help_text="The player who drew the high card.",
        )

    def _person(self, value):
        for p in self.people:
            if str(p.pk) == value:
                return p
        return None

    def clean(self):
        data = super().clean()
        teams = []
        seen = set()
        for row in self.team_rows:
            team = []
            for name in row:
                person = self._person(data.get(name))
                if person is None:
                    if name not in self.errors:
                        self.add_error(name, "Choose a player.")
                    continue
                if person.pk in seen:
                    self.add_error(name, f"{person.full_name} is already in a team.")
                seen.add(person.pk)
                team.append(person)
            teams.append(team)
        data["teams"] = teams
        data["score_keeper_person"] = self._person(data.get("score_keeper"))
        data["first_dealer_person"] = self._person(data.get("first_dealer"))
        for key in ("score_keeper", "first_dealer"):
            person = data[f"{key}_person"]
            if person is not None and person.pk not in seen:
                self.add_error(key, "Choose one of the players of the game.")
        return data

    def team_fields(self):
        """Per side: its legend ("Team 1", "Player 2") and its fields."""
        return [
            {"legend": self.rules.team_label(i), "fields": [self[name] for name in row]}
            for i, row in enumerate(self.team_rows)
        ]


class NextGameForm(forms.Form):
    """How the next game's partnerships are set: by the club's draw or by choice."""

    high_card = forms.ChoiceField(label="Who drew the higher card?", widget=forms.RadioSelect)

    def __init__(self, *args, left, right, **kw):
        super().__init__(*args, **kw)
        self.fields["high_card"].choices = [
            (str(left.pk), f"{left.full_name} (on the keeper's left)"),
            (str(right.pk), f"{right.full_name} (on the keeper's right)"),
        ]


# -- rule sets ---------------------------------------------------------------------------


def _pairs_text(pairs) -> str:
    lines = []
    for a, b in pairs or []:
        lines.append(f"{'below' if a is None else a} = {b}")
    return "\n".join(lines)


def _parse_pairs(text: str, *, allow_below: bool):
    """ "4 = 800" lines (or "below = 15" first) into [[4, 800], ...]; ValidationError."""
    rows = []
    for number, line in enumerate(text.replace(";", "\n").splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        parts = re.split(r"\s*(?:=|:|→|->)\s*", line)
        if len(parts) != 2:
            raise ValidationError(
                f"Line {number} should look like '4 = 800' (a number, =, points)."
            )
        left, right = (p.replace(",", "").strip() for p in parts)
        if allow_below and left.lower() in ("below", "any", "*", "less", "lower"):
            left_value = None
        elif re.fullmatch(r"-?\d{1,9}", left):
            left_value = int(left)
        else:
            raise ValidationError(f"Line {number}: '{left[:20]}' is not a whole number.")
        if not re.fullmatch(r"-?\d{1,9}", right):
            raise ValidationError(f"Line {number}: '{right[:20]}' is not a whole number.")
        rows.append([left_value, int(right)])
    return rows


class RuleSetForm(forms.Form):
    """Every setting of a rule set, generated from engine.RULESET_FIELDS (the engine's
    `name` and `label` come from the rule set's own name)."""

    name = forms.CharField(max_length=80, label="Name", help_text="For example 'Club rules 2025'.")
    description = forms.CharField(
        required=False, label="Description", widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, instance: RuleSet | None = None, **kw):
        super().__init__(*args, **kw)
        self.instance = instance
        self.engine_rules = None
        for spec in engine.RULESET_FIELDS:
            if spec.name in ("name", "label"):
                continue
            if spec.type in ("count", "points"):
                field = forms.IntegerField(
                    label=spec.label,
                    help_text=spec.help,
                    min_value=spec.minimum,
                    max_value=spec.maximum,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
            elif spec.type == "bool":
                field = forms.BooleanField(label=spec.label, help_text=spec.help, required=False)
            elif spec.type == "meld_table":
                field = forms.CharField(
                    label=spec.label,
                    help_text="One row a line, 'from score = minimum'; the first line "
                    "'below = 15' covers every lower score.",
                    widget=forms.Textarea(attrs={"rows": 5}),
                )
            else:
                empty = (
                    "Leave empty for the same amounts as the schedule above."
                    if spec.type == "schedule_or_null"
                    else "Leave empty if no number of red threes is special."
                )
                field = forms.CharField(
                    label=spec.label,
                    help_text=f"One pair a line, 'red threes = points', such as '4 = 800'. {empty}",
                    required=False,
                    widget=forms.Textarea(attrs={"rows": 3}),
                )
            self.fields[spec.name] = field
        if instance is not None and not self.is_bound:
            self.initial.update(self.initial_from(instance))

    @staticmethod
    def initial_from(rule_set: RuleSet) -> dict:
        initial = {"name": rule_set.name, "description": rule_set.description}
        for spec in engine.RULESET_FIELDS:
            value = rule_set.settings.get(spec.name)
            if spec.type in ("schedule", "schedule_or_null", "meld_table"):
                value = _pairs_text(value) if value is not None else ""
            initial[spec.name] = value
        return initial

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        others = RuleSet.objects.filter(name__iexact=name)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise ValidationError("Another rule set has this name; choose another.")
        return name

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        spec_values: dict = {}
        for spec in engine.RULESET_FIELDS:
            if spec.name in ("name", "label"):
                continue
            value = data.get(spec.name)
            if spec.type in ("schedule", "schedule_or_null", "meld_table"):
                try:
                    pairs = _parse_pairs(value or "", allow_below=spec.type == "meld_table")
                except ValidationError as exc:
                    self.add_error(spec.name, exc)
                    continue
                value = None if (spec.type == "schedule_or_null" and not pairs) else pairs
            spec_values[spec.name] = value
        if self.errors:
            return data
        base = self.instance.based_on if self.instance and self.instance.based_on else "classic"
        if base not in engine.PRESETS:
            base = "classic"
        slug = self.instance.slug if self.instance else "club-rules"
        spec_values["name"] = slug[:100] or "rules"
        spec_values["label"] = data["name"][:100]
        rules, refusals = engine.rules_from_spec({"preset": base, **spec_values})
        for refusal in refusals:
            field = refusal.field.removeprefix("rules.")
            if field in self.fields and field not in ("name",):
                self.add_error(field, refusal.message)
            else:
                self.add_error(None, refusal.message)
        self.engine_rules = rules
        return data


class NewRuleSetForm(forms.Form):
    source = forms.ModelChoiceField(
        queryset=RuleSet.objects.all(),
        label="Copy",
        empty_label=None,
        help_text="The new rule set starts with every setting of this one.",
    )
    name = forms.CharField(max_length=80, label="Name of the new rule set")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError("Give the rule set a name.")
        if RuleSet.objects.filter(name__iexact=name).exists():
            raise ValidationError("Another rule set has this name; choose another.")
        return name


class DayRulesForm(forms.Form):
    rule_set = forms.ModelChoiceField(
        queryset=RuleSet.objects.all(),
        label="Rule set for this day",
        empty_label=None,
        widget=forms.RadioSelect,
    )
