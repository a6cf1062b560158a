"""A club's game settings (``scoring.ClubSettings``) on its settings page, beside the
club's own fields (``members.clubs.forms.ClubForm``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django_scopes.forms import SafeModelChoiceField

from scoring.labels import rules_words
from scoring.models import ClubSettings, RuleSet


class ClubGameSettingsForm(forms.ModelForm):
    confirm_hands = forms.TypedChoiceField(
        choices=[
            ("", _("As the day's rule set says")),
            ("on", _("On: the other team confirms every hand")),
            ("off", _("Off: the score keeper's word is enough")),
        ],
        coerce=lambda v: {"on": True, "off": False}.get(v),
        empty_value=None,
        required=False,
        label=_("The other team's OK"),
        widget=forms.RadioSelect,
        help_text=_("On days that do not choose for themselves (a club day's rules page can)."),
    )

    class Meta:
        model = ClubSettings
        fields = ["default_rule_set", "min_games_to_rank", "confirm_hands"]
        labels = {
            "default_rule_set": _("Default rule set"),
            "min_games_to_rank": _("Minimum games to be ranked"),
        }
        help_texts = {
            "default_rule_set": _("Played on a club day unless the day chooses another."),
            "min_games_to_rank": _("Fewer games than this: listed apart, not ranked."),
        }
        field_classes = {"default_rule_set": SafeModelChoiceField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["default_rule_set"]
        field.queryset = RuleSet.objects.all()
        field.required = True
        field.empty_label = None
        field.label_from_instance = lambda rule_set: rules_words(rule_set)
        self.initial["confirm_hands"] = {True: "on", False: "off"}.get(
            self.instance.confirm_hands, ""
        )
