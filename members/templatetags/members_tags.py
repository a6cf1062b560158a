"""Small template helpers for the members pages."""

from django import template

from clubsite.clock import clock as clock_time

register = template.Library()


@register.filter
def clock(value) -> str:
    """A time as people say it at the door: '2:14 p.m.' (one format site-wide)."""
    return clock_time(value)
