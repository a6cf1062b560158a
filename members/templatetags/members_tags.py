"""Small template helpers for the members pages."""

from django import template

from clubsite.clock import clock as clock_time
from clubsite.clock import full_stop as end_sentence

register = template.Library()


@register.filter
def clock(value) -> str:
    """A time as people say it at the door: '2:14 p.m.' (one format site-wide)."""
    return clock_time(value)


@register.filter
def full_stop(value) -> str:
    """End a sentence after a time without a second full stop: "at 7:02 a.m."."""
    return end_sentence(value)
