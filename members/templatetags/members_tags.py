"""Small template helpers for the members pages."""

from django import template

from members.services import local_time

register = template.Library()


@register.filter
def clock(value) -> str:
    """A time as people say it at the door: '2:14 pm'."""
    return local_time(value) if value else ""
