"""Spanish as clubs of the Río de la Plata write it: 1.000 (Django's Spanish groups
thousands with a space) and 5/12/2026."""

THOUSAND_SEPARATOR = "."
DECIMAL_SEPARATOR = ","
NUMBER_GROUPING = 3
SHORT_DATE_FORMAT = "j/n/Y"
SHORT_DATETIME_FORMAT = "j/n/Y H:i"
TIME_FORMAT = "H:i"

DAY_FORMAT = "j/n/Y"
DAY_LONG_FORMAT = r"j \d\e F \d\e Y"
WEEKDAY_FORMAT = "D j/n/Y"
WEEKDAY_SHORT_FORMAT = "D j/n"
WEEKDAY_LONG_FORMAT = r"l j \d\e F \d\e Y"
CLUB_DAY_FORMAT = "D j/n/Y"
DAY_MONTH_FORMAT = "j/n"
