"""The event's settings form: rounds and clock, the games' rules (a rule set of the
club's: a game to a target, or a fixed number of hands with minimums by hand, as the
rule set pages make them), what "time called" does, the movement and the ranking with
its victory point table (a burraco preset or the club's own rows)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.events.ranking import BURRACO_3_HANDS, BURRACO_4_HANDS, RankingError, check_vp_table
from scoring.models import RuleSet
from scoring.play.forms.rulesets import RuleSetChoiceField
from scoring.tourney.models import Event

PRESETS = {"burraco3": BURRACO_3_HANDS.rows, "burraco4": BURRACO_4_HANDS.rows}
VP_CHOICES = [
    ("burraco3", _("Burraco scale 0–20, turns of three deals")),
    ("burraco4", _("Burraco scale 0–20, turns of four deals")),
    ("own", _("The club's own table (below)")),
]


def rows_text(rows) -> str:
    """A victory point table as the box shows it: "50 10 10" a line, "- 20 0" last."""
    return "\n".join(
        " ".join("-" if v is None else str(v) for v in (bound, win, lose))
        for bound, win, lose in rows
    )


def parse_rows(text: str) -> list[list]:
    rows = []
    for line in (text or "").strip().splitlines():
        parts = line.replace(",", " ").split()
        if not parts:
            continue
        if len(parts) != 3:
            raise ValueError
        bound = None if parts[0] in ("-", "–") else int(parts[0])
        rows.append([bound, int(parts[1]), int(parts[2])])
    check_vp_table(rows)
    return rows


class EventForm(forms.ModelForm):
    rule_set = RuleSetChoiceField(
        lambda: RuleSet.objects.with_default(),
        label=_("Rules of each round's games"),
        empty_label=None,
        help_text=_(
            "A game to a target, or a fixed number of hands: for three hands with "
            "minimums 125, 155 and 180, make a rule set with those settings on the rule "
            "sets page, then choose it here."
        ),
    )
    vp_preset = forms.ChoiceField(
        choices=VP_CHOICES,
        initial="burraco3",
        label=_("Victory point table"),
        widget=forms.RadioSelect,
    )
    vp_rows = forms.CharField(
        required=False,
        label=_("The club's own victory point table"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One row a line: the largest point difference, the winner's points, the "
            "loser's points, e.g. “50 10 10”. The first row gives both sides the same; "
            "the differences go up; the last row has a dash for any larger difference, "
            "e.g. “- 20 0”."
        ),
    )

    rounds = forms.IntegerField(
        min_value=1,
        max_value=20,
        initial=3,
        label=_("Number of rounds"),
        help_text=_("A Mitchell has at most as many rounds as tables."),
    )
    round_minutes = forms.IntegerField(
        min_value=1, max_value=300, initial=50, label=_("Minutes per round")
    )
    move_minutes = forms.IntegerField(
        min_value=0, max_value=60, initial=5, label=_("Minutes to move between rounds")
    )
    warning_minutes = forms.IntegerField(
        min_value=0, max_value=60, initial=10, label=_("Warning, minutes before time is called")
    )

    upper_bracket = forms.IntegerField(
        min_value=0,
        max_value=500,
        initial=0,
        required=False,
        label=_("Places in the upper bracket"),
        help_text=_(
            "For brackets in the last rounds: how many of the best places before them "
            "make the upper bracket. Leave 0 for no brackets."
        ),
    )
    bracket_rounds = forms.IntegerField(
        min_value=0,
        max_value=19,
        initial=0,
        required=False,
        label=_("Last rounds played in brackets"),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "movement",
            "rounds",
            "round_minutes",
            "move_minutes",
            "warning_minutes",
            "rule_set",
            "time_called",
            "ranking",
            "sections",
            "tie_break",
            "upper_bracket",
            "bracket_rounds",
        ]
        labels = {
            "name": _("Name of the event"),
            "movement": _("How tables are made each round"),
            "time_called": _("When time is called"),
            "ranking": _("Ranking"),
            "tie_break": _("Ties broken by"),
            "sections": _("A Mitchell's ranking"),
        }
        help_texts = {
            "name": _("For example “Spring pairs”. Optional."),
            "sections": _(
                "In a Mitchell the North–South pairs never play each other, nor do the "
                "East–West pairs: ranked separately, each line has its own places 1–3 on "
                "the prize list. Other movements rank one list."
            ),
        }
        widgets = {
            "movement": forms.RadioSelect,
            "time_called": forms.RadioSelect,
            "ranking": forms.RadioSelect,
            "sections": forms.RadioSelect,
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rows = [tuple(r) for r in self.instance.vp_table] if self.instance.pk else None
        preset = next((k for k, v in PRESETS.items() if rows and tuple(v) == tuple(rows)), None)
        if rows and preset is None:
            self.initial.setdefault("vp_preset", "own")
            self.initial.setdefault("vp_rows", rows_text(rows))
        else:
            self.initial.setdefault("vp_preset", preset or "burraco3")
        for name in ("rounds", "round_minutes", "move_minutes", "warning_minutes"):
            field = self.fields[name]
            field.widget.attrs.update(min=field.min_value, max=field.max_value)

    def clean(self):
        data = super().clean()
        if data.get("vp_preset") == "own":
            try:
                data["vp_table"] = parse_rows(data.get("vp_rows", ""))
            except (ValueError, RankingError):
                self.add_error(
                    "vp_rows",
                    _(
                        "This table cannot be used. Write one row a line with three whole "
                        "numbers: the largest difference, the winner's points, the loser's "
                        "points; start with equal points, make the differences go up, and "
                        "end with a dash for any larger difference (“- 20 0”)."
                    ),
                )
        elif data.get("vp_preset") in PRESETS:
            data["vp_table"] = [list(r) for r in PRESETS[data["vp_preset"]]]
        warning, minutes = data.get("warning_minutes"), data.get("round_minutes")
        if warning is not None and minutes is not None and warning >= minutes:
            self.add_error(
                "warning_minutes", _("The warning must come before the end: fewer minutes.")
            )
        upper, last = data.get("upper_bracket") or 0, data.get("bracket_rounds") or 0
        data["upper_bracket"], data["bracket_rounds"] = upper, last
        rounds = data.get("rounds")
        if bool(upper) != bool(last):
            self.add_error(
                "bracket_rounds",
                _("For brackets give both numbers (places and last rounds); for none, both 0."),
            )
        elif (
            upper
            and data.get("movement") == Event.Movement.MITCHELL
            and data.get("sections") == Event.Sections.LINES
        ):
            self.add_error(
                "sections",
                _(
                    "Brackets rank everyone in one list: with brackets, choose “One "
                    "ranking for everyone”, or give 0 places in the upper bracket."
                ),
            )
        elif last and rounds is not None and last >= rounds:
            self.add_error(
                "bracket_rounds",
                _("The brackets need at least one round before them: fewer last rounds."),
            )
        return data

    def settings(self) -> dict:
        out = {name: self.cleaned_data[name] for name in self.Meta.fields}
        out["vp_table"] = self.cleaned_data["vp_table"]
        return out
