"""Template filters of the results pages: ``{{ ordinal|rating }}`` shows a stored
openskill ordinal on the friendly rating scale ("1,040"; "1.040" in Spanish and Portuguese),
"—" when there is none."""

from django import template
from django.utils.formats import number_format

from scoring.results.ratings import display_rating

register = template.Library()


@register.filter
def rating(ordinal) -> str:
    shown = display_rating(ordinal)
    return "—" if shown is None else number_format(shown, force_grouping=True)
