"""The people list's filters (django-filter)."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from members.models import Person


class PersonFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="search",
        label=_("Number or name"),
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    kind = django_filters.ChoiceFilter(
        choices=Person.Kind.choices, empty_label=_("Members and guests"), label=_("Who")
    )
    status = django_filters.ChoiceFilter(
        choices=Person.Status.choices, empty_label=_("Any status"), label=_("Status")
    )

    class Meta:
        model = Person
        fields = ["q", "kind", "status"]

    def search(self, queryset, name, value):
        value = (value or "").strip()
        if not value:
            return queryset
        return queryset.filter(pk__in=Person.objects.search(value).values("pk"))
