"""Numbers and dates per language (``FORMAT_MODULE_PATH``): Django's own formats, with
the few the site changes and the named day formats its pages use.

Named formats (``{{ day.date|date:"DAY_FORMAT" }}``, ``date_format(value, "DAY_FORMAT")``)
must be defined in every language here, English included:

- ``DAY_FORMAT``: a date in a table or a line ("5 Dec 2026"; "5/12/2026").
- ``DAY_LONG_FORMAT``: a date in a title ("5 December 2026"; "5 de diciembre de 2026").
- ``WEEKDAY_FORMAT``: a day with its weekday ("Sat 5 Dec 2026"; "sáb 5/12/2026").
- ``WEEKDAY_SHORT_FORMAT``: the same without the year ("Sat 5 Dec"; "sáb 5/12").
- ``WEEKDAY_LONG_FORMAT``: a day sheet's title ("Saturday 5 December 2026").
- ``CLUB_DAY_FORMAT``: a club day's name ("Sat 05 Dec 2026"; "sáb 5/12/2026").
- ``DAY_MONTH_FORMAT``: a day without its year ("20 Nov"; "20/11").
"""
