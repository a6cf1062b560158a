"""django-filter FilterSets of the results pages.

All share the period filter: a season (the current one by default), all games, or one's
own from/to dates, validated by :class:`scoring.results.forms.PeriodForm` (clear
messages for bad or reversed dates — never a server error). After validation
``filterset.period`` is the chosen :class:`scoring.results.standings.periods.Period` and
``.qs`` the queryset limited to it.
"""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.models import ClubDay, Person
from scoring.models import Season, TeamPlayer
from scoring.results.forms import DATE_FORMATS, PeriodForm
from scoring.results.standings.days import days_with_results
from scoring.results.standings.periods import Period, finished_players

GUEST_CHOICES = (("show", _("Show guests")), ("hide", _("Hide guests")))
BAD_DATE = _("That is not a date: pick one from the calendar, or type it as 2025-03-31.")


class _DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self):
        super().__init__(format="%Y-%m-%d")


class _SeasonField(django_filters.fields.ChoiceField):
    """Also accepts "all" and "current" when they are not listed (no seasons yet), so a
    bookmarked link keeps working."""

    def valid_value(self, value):
        return value in ("all", "current") or super().valid_value(value)


class SeasonFilter(django_filters.ChoiceFilter):
    field_class = _SeasonField


class PeriodFilterSet(django_filters.FilterSet):
    """Season or dates. Subclasses name the date field of their queryset
    (``date_field``) and the default period (``default``: "current" or "all")."""

    season = SeasonFilter(label=_("Season"), method="_no_filter", empty_label=None, choices=())
    start = django_filters.DateFilter(
        label=_("From"),
        method="_no_filter",
        widget=_DateInput(),
        input_formats=DATE_FORMATS,
        error_messages={"invalid": BAD_DATE},
    )
    end = django_filters.DateFilter(
        label=_("To"),
        method="_no_filter",
        widget=_DateInput(),
        input_formats=DATE_FORMATS,
        error_messages={"invalid": BAD_DATE},
    )

    date_field = "game__day_date"
    default = "current"

    class Meta:
        form = PeriodForm
        fields: list[str] = []

    def __init__(self, data=None, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.filters["season"].extra["choices"] = self.season_choices()

    def season_choices(self) -> list[tuple[str, str]]:
        seasons = list(Season.objects.order_by("-start", "name"))
        self.seasons = seasons  # the form chooses among them, with no query of its own
        if self.default == "all":
            first = [("", gettext("All dates"))]
            if seasons:
                first.append(("current", gettext("Current season")))
        else:
            first = [("", gettext("Current season") if seasons else gettext("All games"))]
            if seasons:
                first.append(("all", gettext("All games")))
        return first + [(str(s.pk), s.name) for s in seasons]

    def get_form_class(self):
        form_class = super().get_form_class()
        form_class.default = self.default
        form_class.seasons = getattr(self, "seasons", None)
        return form_class

    @staticmethod
    def _no_filter(queryset, name, value):
        # Season and dates are applied together in filter_queryset (from the period).
        return queryset

    @property
    def period(self) -> Period | None:
        """The chosen period, or None while the form has errors."""
        if not self.is_valid():
            return None
        return self.form.cleaned_data.get("period")

    def filter_queryset(self, queryset):
        for name, value in self.form.cleaned_data.items():
            if name in self.filters:  # "period" is the form's, not a filter
                queryset = self.filters[name].filter(queryset, value)
        period = self.period
        if period is None:
            return queryset.none()
        return queryset.filter(period.limits(self.date_field))


class StandingsFilter(PeriodFilterSet):
    """Standings and partnerships: the seats taken in finished games of the period,
    guests shown or hidden."""

    guests = django_filters.ChoiceFilter(
        label=_("Guests"), choices=GUEST_CHOICES, empty_label=None, method="filter_guests"
    )

    class Meta(PeriodFilterSet.Meta):
        model = TeamPlayer

    @staticmethod
    def filter_guests(queryset, name, value):
        if value == "hide":
            return queryset.filter(person__kind=Person.Kind.MEMBER)
        return queryset

    @property
    def include_guests(self) -> bool:
        if self.is_valid():
            return self.form.cleaned_data.get("guests") != "hide"
        return self.data.get("guests") != "hide"

    @classmethod
    def for_request(cls, data):
        return cls(data, queryset=finished_players())


class DayFilter(PeriodFilterSet):
    """Club days of a period (all days by default)."""

    date_field = "date"
    default = "all"

    class Meta(PeriodFilterSet.Meta):
        model = ClubDay

    @classmethod
    def for_request(cls, data):
        return cls(data, queryset=days_with_results())
