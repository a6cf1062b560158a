"""A club's own fields on its settings page (a plain ModelForm); the page's other
form, the game settings, is scoring's (``scoring.play.forms.club_settings``)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from members.clubs import zones
from members.models import Club


def language_choices():
    codes = dict(settings.LANGUAGES)  # the site's languages (members.clubs.languages)
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
