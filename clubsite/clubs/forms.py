"""A club's settings page: two plain ModelForms, the club's own fields and its game
settings (``scoring.ClubSettings``)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django_scopes.forms import SafeModelChoiceField

from clubsite.clubs import zones
from members.models import Club
from scoring.labels import rules_words
from scoring.models import ClubSettings, RuleSet


def language_choices():
    codes = dict(settings.LANGUAGES)  # the site's languages (clubsite.languages)
    codes.setdefault(settings.LANGUAGE_CODE, settings.LANGUAGE_CODE)
    return sorted(codes.items())


def language_codes() -> list[str]:
    """The language codes a club may choose."""
    return [code for code, _ in language_choices()]


class ClubForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        choices=(),
        label=_("Time zone"),
        help_text=_(
            "Where the club plays, e.g. America/Montevideo: dates and times are shown in it "
            "and a day's table links end at its midnight."
        ),
    )
    language_code = forms.ChoiceField(
        choices=(),
        label=_("Language"),
        help_text=_(
            "The language of the club's pages: tables, the board and anyone who has not "
            "chosen their own read them in it."
        ),
    )

    class Meta:
        model = Club
        fields = [
            "name",
            "time_zone",
            "language_code",
            "paper",
            "results_sender_name",
            "results_reply_to",
        ]
        labels = {
            "name": _("Club name"),
            "paper": _("Paper"),
            "results_sender_name": _("Results e-mail: sender's name"),
            "results_reply_to": _("Results e-mail: replies go to"),
        }
        help_texts = {
            "paper": _(
                "The paper the club prints on: the workbook, the day sheet, the table cards."
            ),
            "results_sender_name": _(
                "The name the results e-mail comes from (the club's name when empty)."
            ),
            "results_reply_to": _("Where replies to the results e-mail go (none when empty)."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = zones.zone_choices(
            self.instance.language_code, current=self.instance.time_zone
        )
        languages = language_choices()
        current = self.instance.language_code
        if current and current not in dict(languages):
            languages.append((current, current))
        self.fields["language_code"].choices = languages


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
