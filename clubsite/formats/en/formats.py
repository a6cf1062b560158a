"""English: Django's own formats, and the site's named day formats."""

DAY_FORMAT = "j M Y"
DAY_LONG_FORMAT = "j F Y"
WEEKDAY_FORMAT = "D j M Y"
WEEKDAY_SHORT_FORMAT = "D j M"
WEEKDAY_LONG_FORMAT = "l j F Y"
CLUB_DAY_FORMAT = "D d M Y"
DAY_MONTH_FORMAT = "j M"
