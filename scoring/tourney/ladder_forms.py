"""The ladder's form: its name, the club days that count, the minimum of days to
qualify, how it ranks and the amount per player per day for the fund."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from members.models import ClubDay
from scoring.tourney.models import Ladder


class DayChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return str(obj)


class LadderForm(forms.ModelForm):
    days = DayChoices(
        queryset=ClubDay.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=_("Club days that count"),
        error_messages={"required": _("Choose at least one club day.")},
    )
    min_days = forms.IntegerField(
        min_value=1, max_value=366, initial=1, label=_("Days to play to be ranked")
    )
    per_player = forms.DecimalField(
        min_value=Decimal("0"),
        max_digits=8,
        decimal_places=2,
        initial=Decimal("0"),
        label=_("Into the fund per player per day"),
        help_text=_("For example 2.00; 0 for no fund. Shown on the ladder's page."),
    )

    class Meta:
        model = Ladder
        fields = ["name", "days", "min_days", "ranked_by", "per_player"]
        labels = {"name": _("Name of the ladder"), "ranked_by": _("Ranked by")}
        widgets = {"ranked_by": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Inside the request's club: its own days, newest first.
        self.fields["days"].queryset = ClubDay.objects.order_by("-date", "-pk")

    def fields_to_save(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "min_days": data["min_days"],
            "ranked_by": data["ranked_by"],
            "per_player": data["per_player"],
        }
