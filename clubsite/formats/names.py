"""The month and weekday names of the dates the site writes ("F", "l" and "D" in
``clubsite/formats``), in the project's catalog, which Django reads before its own.

Django's Brazilian Portuguese catalog capitalises them ("Quinta-feira, 26 de Novembro");
Brazilian Portuguese writes them in small letters, as Spanish does: "quinta-feira, 26 de
novembro de 2026", "qui, 26/11/2026" (docs/glossary.md, "Numbers, dates, paper"). The
msgids are Django's own (django.utils.dates), so these entries replace its words; this
module only names them for ``make messages``.
"""

from django.utils.translation import gettext_noop

MONTHS = [
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
]
WEEKDAYS = [
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
]
WEEKDAYS_ABBR = [
    gettext_noop("Mon"),
    gettext_noop("Tue"),
    gettext_noop("Wed"),
    gettext_noop("Thu"),
    gettext_noop("Fri"),
    gettext_noop("Sat"),
    gettext_noop("Sun"),
]
