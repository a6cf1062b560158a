"""Rule sets: every setting of a rule set (generated from the engine's list of
settings), a new rule set copied from another, and the rule set a club day plays."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, pgettext

from members.clubs.scope import ClubChoiceField
from scoring import engine
from scoring.labels import rules_description, rules_words
from scoring.models import RuleSet


def _pairs_text(pairs) -> str:
    lines = []
    for a, b in pairs or []:
        lines.append(f"{pgettext('meld table', 'below') if a is None else a} = {b}")
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
                gettext("Line %(line)s should look like '4 = 800' (a number, =, points).")
                % {"line": number}
            )
        left, right = (p.replace(",", "").strip() for p in parts)
        below = ("below", "any", "*", "less", "lower", pgettext("meld table", "below").lower())
        if allow_below and left.lower() in below:
            left_value = None
        elif re.fullmatch(r"-?\d{1,9}", left):
            left_value = int(left)
        else:
            raise ValidationError(
                gettext("Line %(line)s: '%(text)s' is not a whole number.")
                % {"line": number, "text": left[:20]}
            )
        if not re.fullmatch(r"-?\d{1,9}", right):
            raise ValidationError(
                gettext("Line %(line)s: '%(text)s' is not a whole number.")
                % {"line": number, "text": right[:20]}
            )
        rows.append([left_value, int(right)])
    return rows


#: The most text a rule set's table box takes (a few dozen short lines).
TABLE_TEXT_MAX = 500

#: Settings typed one item a line, "name = number", and what the box says about them.
_LINE_TYPES = {
    "kinds": (
        gettext_lazy(
            "One kind a line, 'kind = bonus', then if the game says so ', unfinished 2500' "
            "(taken off for each one left unfinished), ', held 1500' (for each player holding "
            "three or more of its rank), ', blocks going out' and ', called Samba' (its name "
            "in this game). Kinds: sevens, aces, wild_twos, wild_jokers, wild, bolivia, "
            "sequence. Leave empty for natural and mixed canastas only."
        ),
        5,
    ),
    "kind_counts": (
        gettext_lazy(
            "One kind a line, 'kind = number', such as 'sequence = 1'. Leave empty if any "
            "canastas will do."
        ),
        3,
    ),
    "card_values": (
        gettext_lazy(
            "One card a line, 'card = points', such as 'joker = 50' (cards: joker, 2, A, K, "
            "Q, J, 10, 9, 8, 7, 6, 5, 4 and 3 for the black three). A card not listed keeps "
            "its usual value."
        ),
        6,
    ),
    "special_hands": (
        gettext_lazy(
            "One hand a line, 'name = points', such as 'straight = 3000'. Leave empty if the "
            "game has none."
        ),
        4,
    ),
    "minimums": (
        gettext_lazy(
            "The minimums of hand 1, 2, 3 and so on, separated by commas, such as "
            "'50, 90, 120, 150'. Leave empty to go by score."
        ),
        2,
    ),
}


def _kinds_text(entries) -> str:
    lines = []
    for entry in entries or []:
        line = f"{entry['kind']} = {entry['bonus']}"
        if entry.get("unfinished"):
            line += f", unfinished {entry['unfinished']}"
        if entry.get("held"):
            line += f", held {entry['held']}"
        if entry.get("blocks_going_out"):
            line += ", blocks going out"
        if entry.get("label"):
            line += f", called {entry['label']}"
        lines.append(line)
    return "\n".join(lines)


def _whole(text: str, number: int, what: str) -> int:
    text = text.replace(",", "").strip()
    if not re.fullmatch(r"\d{1,9}", text):
        raise ValidationError(
            gettext("Line %(line)s: '%(text)s' is not a whole number of %(what)s.")
            % {"line": number, "text": text[:20], "what": what}
        )
    return int(text)


def _parse_kinds(text: str) -> list[dict]:
    """ "sevens = 2500, unfinished 2500" lines into kind entries; ValidationError."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = [part.strip() for part in line.split(",")]
        if not parts[0]:
            continue
        head = re.split(r"\s*(?:=|:)\s*", parts[0])
        if len(head) != 2:
            raise ValidationError(
                gettext("Line %(line)s should start like 'sevens = 2500' (a kind, =, its bonus).")
                % {"line": number}
            )
        entry: dict = {
            "kind": head[0].strip().lower(),
            "bonus": _whole(head[1], number, gettext("points")),
        }
        for part in parts[1:]:
            words = part.split(None, 1)
            word = words[0].lower() if words else ""
            rest = words[1].lstrip("= ").strip() if len(words) > 1 else ""
            if word in ("unfinished", "held"):
                entry[word] = _whole(rest, number, gettext("points"))
            elif part.lower() == "blocks going out":
                entry["blocks_going_out"] = True
            elif word in ("called", "label") and rest:
                entry["label"] = rest
            else:
                raise ValidationError(
                    gettext(
                        "Line %(line)s: '%(text)s' is not understood; use 'unfinished 2500', "
                        "'held 1500', 'blocks going out' or 'called Samba'."
                    )
                    % {"line": number, "text": part[:30]}
                )
        entries.append(entry)
    return entries


def _parse_named(text: str, what: str, *, card: bool = False) -> list[list]:
    """ "name = number" lines into [[name, number], ...]; ValidationError."""
    rows = []
    for number, line in enumerate(text.replace(";", "\n").splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        parts = re.split(r"\s*(?:=|:|→|->)\s*", line)
        if len(parts) != 2 or not parts[0]:
            raise ValidationError(
                gettext("Line %(line)s should look like 'name = %(what)s'.")
                % {"line": number, "what": what}
            )
        name = parts[0].strip()
        name = name.upper() if card and name.lower() in ("a", "k", "q", "j") else name.lower()
        if card and name == _card_word("joker").lower():
            name = "joker"
        rows.append([name, _whole(parts[1], number, what)])
    return rows


def _parse_minimums(text: str) -> list[int]:
    found = []
    for number, part in enumerate(re.split(r"[,;\s]+", text.strip()), start=1):
        if part:
            found.append(_whole(part, number, gettext("points")))
    return found


def _card_word(card: str) -> str:
    """A card as the card-values box writes it: the joker in the reader's language
    ("joker", "coringa"; the box reads "joker" too), the others as they are."""
    return pgettext("card", "joker") if card == "joker" else card


def _line_text(kind: str, value) -> str:
    """A stored setting of one of the :data:`_LINE_TYPES` as the box shows it."""
    if kind == "kinds":
        return _kinds_text(value)
    if kind == "minimums":
        return ", ".join(str(n) for n in value or [])
    if kind == "card_values":
        return "\n".join(f"{_card_word(card)} = {points}" for card, points in (value or {}).items())
    return "\n".join(f"{name} = {points}" for name, points in value or [])


def _parse_line_text(kind: str, text: str):
    if kind == "kinds":
        return _parse_kinds(text)
    if kind == "minimums":
        return _parse_minimums(text)
    if kind == "card_values":
        return _parse_named(text, gettext("points"), card=True)
    return _parse_named(text, gettext("number") if kind == "kind_counts" else gettext("points"))


class RuleSetForm(forms.Form):
    """Every setting of a rule set, generated from engine.RULESET_FIELDS (the engine's
    `name` and `label` come from the rule set's own name)."""

    name = forms.CharField(
        max_length=80,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("For example 'Club rules 2025'."),
    )
    description = forms.CharField(
        required=False,
        max_length=1000,
        label=gettext_lazy("Description"),
        help_text=gettext_lazy("At most 1,000 characters."),
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    confirm_hands = forms.BooleanField(
        required=False,
        label=gettext_lazy("The other team confirms every hand"),
        help_text=gettext_lazy(
            "After a hand is saved, a player of the other team taps their name to say "
            "it is right, or disputes it; an officer settles what stays open. It never changes "
            "a score. A club day can turn it on or off for itself."
        ),
    )

    def __init__(self, *args, instance: RuleSet | None = None, **kw):
        super().__init__(*args, **kw)
        self.instance = instance
        self.engine_rules = None
        for spec in engine.RULESET_FIELDS:
            if spec.name in ("name", "label"):
                continue
            label, spec_help = gettext(spec.label), gettext(spec.help)
            if spec.type in ("count", "points"):
                field = forms.IntegerField(
                    label=label,
                    help_text=spec_help,
                    min_value=spec.minimum,
                    max_value=spec.maximum,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
            elif spec.type == "bool":
                field = forms.BooleanField(label=label, help_text=spec_help, required=False)
            elif spec.type == "choice":
                field = forms.ChoiceField(
                    label=label,
                    help_text=spec_help,
                    choices=[(value, gettext(words)) for value, words in spec.choices],
                    widget=forms.RadioSelect,
                )
            elif spec.type in _LINE_TYPES:
                help_text, rows = _LINE_TYPES[spec.type]
                field = forms.CharField(
                    label=label,
                    max_length=TABLE_TEXT_MAX,
                    help_text=f"{spec_help} {help_text}",
                    required=False,
                    widget=forms.Textarea(attrs={"rows": rows}),
                )
            elif spec.type == "meld_table":
                field = forms.CharField(
                    label=label,
                    max_length=TABLE_TEXT_MAX,
                    help_text=gettext(
                        "One row a line, 'from score = minimum'; the first line "
                        "'below = 15' covers every lower score."
                    ),
                    widget=forms.Textarea(attrs={"rows": 5}),
                )
            else:
                empty = (
                    gettext("Leave empty for the same amounts as the schedule above.")
                    if spec.type == "schedule_or_null"
                    else gettext("Leave empty if no number of red threes is special.")
                )
                field = forms.CharField(
                    label=label,
                    max_length=TABLE_TEXT_MAX,
                    help_text=gettext(
                        "One pair a line, 'red threes = points', such as '4 = 800'. %(empty)s"
                    )
                    % {"empty": empty},
                    required=False,
                    widget=forms.Textarea(attrs={"rows": 3}),
                )
            self.fields[spec.name] = field
        if instance is not None and not self.is_bound:
            self.initial.update(self.initial_from(instance))

    @staticmethod
    def initial_from(rule_set: RuleSet) -> dict:
        initial = {
            "name": rule_set.name,
            "description": rules_description(rule_set),
            "confirm_hands": rule_set.confirm_hands,
        }
        for spec in engine.RULESET_FIELDS:
            value = rule_set.settings.get(spec.name)
            if spec.type in ("schedule", "schedule_or_null", "meld_table"):
                value = _pairs_text(value) if value is not None else ""
            elif spec.type in _LINE_TYPES:
                value = _line_text(spec.type, value)
            initial[spec.name] = value
        return initial

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        others = RuleSet.objects.filter(name__iexact=name)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise ValidationError(gettext("Another rule set has this name; choose another."))
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
            elif spec.type in _LINE_TYPES:
                try:
                    value = _parse_line_text(spec.type, value or "")
                except ValidationError as exc:
                    self.add_error(spec.name, exc)
                    continue
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


class RuleSetChoiceField(ClubChoiceField):
    """A choice of rule set, the presets' names in the reader's language."""

    def label_from_instance(self, obj):
        return rules_words(obj)


class NewRuleSetForm(forms.Form):
    source = RuleSetChoiceField(
        lambda: RuleSet.objects.with_default(),
        label=gettext_lazy("Copy"),
        empty_label=None,
        help_text=gettext_lazy("The new rule set starts with every setting of this one."),
    )
    name = forms.CharField(max_length=80, label=gettext_lazy("Name of the new rule set"))

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise ValidationError(gettext("Give the rule set a name."))
        if RuleSet.objects.filter(name__iexact=name).exists():
            raise ValidationError(gettext("Another rule set has this name; choose another."))
        return name


#: A day's choice about the other team's OK: as its rule set says, on, or off.
CONFIRM_CHOICES = [
    ("", gettext_lazy("As the rule set says")),
    ("on", gettext_lazy("On: the other team confirms every hand today")),
    ("off", gettext_lazy("Off: the score keeper's word is enough today")),
]


class DayRulesForm(forms.Form):
    rule_set = RuleSetChoiceField(
        lambda: RuleSet.objects.with_default(),
        label=gettext_lazy("Rule set for this day"),
        empty_label=None,
        widget=forms.RadioSelect,
    )
    confirm_hands = forms.ChoiceField(
        choices=CONFIRM_CHOICES,
        required=False,
        label=gettext_lazy("The other team confirms every hand"),
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Hands saved from now on wait for a player of the other team to say they "
            "are right; hands already saved are not asked again."
        ),
    )

    @staticmethod
    def confirm_initial(value) -> str:
        return {True: "on", False: "off"}.get(value, "")

    def confirm_value(self):
        """The chosen setting as the day stores it: True, False or None."""
        return {"on": True, "off": False}.get(self.cleaned_data.get("confirm_hands"))
