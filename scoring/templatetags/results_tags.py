"""Template filters of the results pages: ``{{ ordinal|rating }}`` shows a stored
openskill ordinal on the friendly rating scale ("1,040"), "—" when there is none."""

from django import template

from scoring.results.ratings import display_rating

register = template.Library()


@register.filter
def rating(ordinal) -> str:
    shown = display_rating(ordinal)
    return "—" if shown is None else f"{shown:,}"
