"""Forms of the results pages: the period filter, seasons, and the standings settings."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models import ClubSettings, Season
from scoring.results import standings

DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATE_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%m/%d/%Y"]


class PeriodForm(forms.Form):
    """The form behind the period FilterSets (``Meta.form``): a season (or the default),
    or one's own from/to dates — not both — and the end not before the start. After
    validation ``cleaned_data["period"]`` is a :class:`standings.Period`."""

    # Set by the FilterSet: "current" (standings) or "all" (day results), and every
    # season, read once for the season choices (None: read them here when needed).
    default = "current"
    seasons = None

    def clean(self):
        data = super().clean()
        season_value = data.get("season") or ""
        start, end = data.get("start"), data.get("end")
        if self.errors:
            return data
        if season_value and (start or end):
            raise ValidationError(
                _(
                    "Choose a season or your own dates, not both: set the season back to "
                    "“%(choice)s” to use the dates."
                )
                % {"choice": self.fields["season"].choices[0][1]},
                code="season_and_dates",
            )
        if start and end and end < start:
            self.add_error(
                "end",
                ValidationError(
                    _("The end date is before the start date; choose an end on or after %(date)s.")
                    % {"date": date_format(start, "DAY_FORMAT")},
                    code="end_before_start",
                ),
            )
            return data
        data["period"] = self.resolve(season_value, start, end)
        return data

    def resolve(self, season_value: str, start, end) -> standings.Period:
        if start or end:
            return standings.Period(start=start, end=end)
        if season_value == "all":
            return standings.ALL_GAMES
        if season_value == "current":
            return standings.default_period(seasons=self.seasons)
        if season_value:
            season = self._season(int(season_value))
            if season is not None:
                return standings.season_period(season)
        if self.default == "all":
            return standings.ALL_GAMES
        return standings.default_period(seasons=self.seasons)

    def _season(self, pk: int) -> Season | None:
        if self.seasons is None:
            return Season.objects.filter(pk=pk).first()
        return next((season for season in self.seasons if season.pk == pk), None)


class SeasonForm(forms.ModelForm):
    """A season: a name and a date range. Overlapping seasons are allowed (a summer
    league inside a year, say) but the officer is told (``overlaps`` after
    validation)."""

    class Meta:
        model = Season
        fields = ["name", "start", "end"]
        widgets = {"start": DATE_WIDGET, "end": DATE_WIDGET}
        labels = {
            "name": gettext_lazy("Name"),
            "start": gettext_lazy("Start"),
            "end": gettext_lazy("End"),
        }
        help_texts = {
            "name": gettext_lazy(
                "For example “2025” or “Spring 2025”. It names the season in the standings "
                "and in the league workbook."
            ),
            "start": gettext_lazy("The first club day that counts."),
            "end": gettext_lazy("The last club day that counts (on or after the start)."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("start", "end"):
            self.fields[name].input_formats = DATE_FORMATS
        self.overlaps: list[Season] = []

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise ValidationError(_("Give the season a name."))
        clash = Season.objects.filter(name__iexact=name)
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            raise ValidationError(
                _("There is already a season called “%(name)s”; choose another.") % {"name": name}
            )
        return name

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if end < start:
                self.add_error(
                    "end",
                    _("The season ends before it starts; choose an end on or after %(date)s.")
                    % {"date": date_format(start, "DAY_FORMAT")},
                )
            else:
                self.overlaps = standings.overlapping_seasons(start, end, self.instance.pk)
        return data


def measure_choices(blank: str) -> list[tuple[str, str]]:
    return [("", blank)] + [(m.name, m.label) for m in standings.MEASURES.values()]


class StandingsSettingsForm(forms.Form):
    """How the standings rank people, and whether visitors may see them."""

    SLOTS = 4

    public_standings = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Show standings, day results and records to visitors who are not logged in"
        ),
        help_text=gettext_lazy("Players' own pages and contact details are never public."),
    )
    min_games_to_rank = forms.IntegerField(
        min_value=0,
        max_value=1000,
        label=gettext_lazy("Games needed to be ranked"),
        help_text=gettext_lazy("People with fewer games are listed apart, under “Not yet ranked”."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(self.SLOTS):
            self.fields[f"measure_{i + 1}"] = forms.ChoiceField(
                choices=measure_choices(_("(none)") if i else _("Choose a measure")),
                required=i == 0,
                label=_("Rank by") if i == 0 else _("then by"),
                help_text=_("Best first.") if i == 0 else "",
            )

    @classmethod
    def initial_for(cls, club: ClubSettings) -> dict:
        measures = standings.clean_measures(club.ranking_measures)
        initial = {
            "public_standings": club.public_standings,
            "min_games_to_rank": club.min_games_to_rank,
        }
        for i in range(cls.SLOTS):
            initial[f"measure_{i + 1}"] = measures[i] if i < len(measures) else ""
        return initial

    def measure_fields(self):
        return [self[f"measure_{i + 1}"] for i in range(self.SLOTS)]

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"measure_{i + 1}") for i in range(self.SLOTS)]
        seen = []
        gap = False
        for i, name in enumerate(chosen):
            if not name:
                gap = True
                continue
            if gap:
                self.add_error(
                    f"measure_{i + 1}",
                    _("Fill the measures in order, without a gap before this one."),
                )
            if name in seen:
                self.add_error(
                    f"measure_{i + 1}",
                    _(
                        "“%(measure)s” is already chosen above; choose another or leave this "
                        "one empty."
                    )
                    % {"measure": standings.MEASURES[name].label},
                )
            seen.append(name)
        data["ranking_measures"] = seen
        return data

    def ranking_values(self) -> dict:
        """The checked settings, as :func:`scoring.results.services.set_ranking` takes them."""
        return {
            name: self.cleaned_data[name]
            for name in ("public_standings", "min_games_to_rank", "ranking_measures")
        }
