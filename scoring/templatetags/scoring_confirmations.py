"""Template tags that let pages outside the table (the members' day page, the results
pages) show hands still waiting for the other team's OK, without `members` importing
anything of `scoring`: the templates ask, the services answer."""

from django import template

from scoring.play.services.confirmations import (
    open_confirmations,
    unconfirmed_days_between,
    unconfirmed_hand_counts,
)

register = template.Library()


@register.simple_tag
def hands_to_settle(day):
    """The day's hands still waiting for the other team, or disputed (for officers)."""
    return open_confirmations(day)


@register.simple_tag
def unconfirmed_days(days=None, start=None, end=None):
    """[(club day, number of its open hands)] for the given day(s), or for the club days
    between ``start`` and ``end`` (either may be None), oldest first."""
    if days is None:
        return unconfirmed_days_between(start, end)
    chosen = list(days) if isinstance(days, (list, tuple)) else [days]
    counts = unconfirmed_hand_counts(d.pk for d in chosen)
    return [(d, counts[d.pk]) for d in chosen if d.pk in counts]
