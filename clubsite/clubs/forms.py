"""A club's settings page: two plain ModelForms, the club's own fields and its game
settings (``scoring.ClubSettings``)."""

from __future__ import annotations

import zoneinfo

from django import forms
from django.conf import settings
from django_scopes.forms import SafeModelChoiceField

from members.models import Club
from scoring.models import ClubSettings, RuleSet

#: The language codes a club may choose (ready for the languages issue; the pages are
#: in English for now).
LANGUAGES = [("en-us", "English (US)"), ("en-gb", "English (UK)")]


def _language_choices():
    codes = dict(LANGUAGES)
    codes.setdefault(settings.LANGUAGE_CODE, settings.LANGUAGE_CODE)
    return sorted(codes.items())


def language_codes() -> list[str]:
    """The language codes a club may choose."""
    return [code for code, _ in _language_choices()]


class ClubForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        choices=(),
        help_text=Club._meta.get_field("time_zone").help_text,
    )
    language_code = forms.ChoiceField(
        choices=(),
        label="Language",
        help_text=Club._meta.get_field("language_code").help_text,
    )

    class Meta:
        model = Club
        fields = ["name", "time_zone", "language_code", "results_sender_name", "results_reply_to"]
        labels = {
            "name": "Club name",
            "results_sender_name": "Results e-mail: sender's name",
            "results_reply_to": "Results e-mail: replies go to",
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [(z, z) for z in zones]
        languages = _language_choices()
        current = self.instance.language_code
        if current and current not in dict(languages):
            languages.append((current, current))
        self.fields["language_code"].choices = languages


class ClubGameSettingsForm(forms.ModelForm):
    confirm_hands = forms.TypedChoiceField(
        choices=[
            ("", "As the day's rule set says"),
            ("on", "On: the other team confirms every hand"),
            ("off", "Off: the score keeper's word is enough"),
        ],
        coerce=lambda v: {"on": True, "off": False}.get(v),
        empty_value=None,
        required=False,
        label="The other team's OK",
        widget=forms.RadioSelect,
        help_text="On days that do not choose for themselves (a club day's rules page can).",
    )

    class Meta:
        model = ClubSettings
        fields = ["default_rule_set", "min_games_to_rank", "confirm_hands"]
        labels = {
            "default_rule_set": "Default rule set",
            "min_games_to_rank": "Minimum games to be ranked",
        }
        field_classes = {"default_rule_set": SafeModelChoiceField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["default_rule_set"]
        field.queryset = RuleSet.objects.all()
        field.required = True
        field.empty_label = None
        self.initial["confirm_hands"] = {True: "on", False: "off"}.get(
            self.instance.confirm_hands, ""
        )
