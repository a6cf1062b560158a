"""The one way the site writes a time of day: "2:14 p.m." in the club's time zone.

Django's ``TIME_FORMAT`` for the site's language, as the templates' ``|time`` filter
writes it, so a time reads the same at the door, at the table and in a game's history.
"""

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _


def clock(moment) -> str:
    """ "2:14 p.m." for an aware datetime, in the club's time zone; "" for None."""
    if moment is None:
        return ""
    return date_format(timezone.localtime(moment), "TIME_FORMAT")


def clock_and_day(moment) -> str:
    """ "2:14 p.m.", with " on Nov. 23, 2026" added when it is not today."""
    text = clock(moment)
    local = timezone.localtime(moment)
    if local.date() != timezone.localdate():
        text = _("%(time)s on %(date)s") % {"time": text, "date": date_format(local, "DATE_FORMAT")}
    return text


def full_stop(text: str) -> str:
    """End a sentence: "at 7:02 a.m." stays as it is, "at 19:02" gets its full stop
    (Django's time format may already end with one)."""
    text = str(text)
    return text if text.endswith(".") else text + "."
