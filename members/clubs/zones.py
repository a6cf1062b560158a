"""The time zones a club may choose, and which one a new club starts with.

The names are the canonical ones of the tz database, as its ``zone.tab`` lists them
(one or more per country, read from the ``tzdata`` package, the copy of the database
Python's ``zoneinfo`` falls back on), plus UTC: never a deprecated alias such as
``US/Eastern`` or ``America/Buenos_Aires``, which ``zoneinfo.available_timezones()``
also knows. A list starts with the zones of the countries a club speaking the language
is likely in (Uruguay and Argentina first for Spanish, Brazil for Portuguese, the
United States for English), then "Other time zones" for the rest, so a club finds its
own in a few lines and nobody is left out.
"""

from __future__ import annotations

import functools
import zoneinfo
from importlib import resources

from django.utils.translation import gettext_lazy as _

#: The countries (ISO 3166 codes, as zone.tab has them) a club of each language is
#: likely in, in the order their zones are offered.
LIKELY_COUNTRIES = {
    "en": ("US", "CA", "GB", "IE", "AU", "NZ", "ZA"),
    "es": ("UY", "AR", "ES", "MX", "CL", "PY", "PE", "CO", "BO", "EC", "VE", "US"),
    "pt-br": ("BR", "PT"),
}

#: A new club's time zone when the browser says none the list has, by its language.
DEFAULT_ZONE = {
    "en": "America/New_York",
    "es": "America/Montevideo",
    "pt-br": "America/Sao_Paulo",
}


@functools.cache
def _zone_tab() -> tuple[tuple[str, str], ...]:
    """(country, zone) of each line of tzdata's zone.tab, in its order."""
    text = (resources.files("tzdata") / "zoneinfo" / "zone.tab").read_text("utf-8")
    known = zoneinfo.available_timezones()
    rows = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        country, _coordinates, zone, *_rest = line.split("\t")
        if zone in known:
            rows.append((country, zone))
    return tuple(rows)


@functools.cache
def canonical_zones() -> frozenset[str]:
    """Every time zone a club may choose."""
    return frozenset(zone for _country, zone in _zone_tab()) | {"UTC"}


@functools.cache
def aliases() -> dict[str, str]:
    """{old name: the canonical zone a club may choose} from tzdata's links (``L``
    lines of ``tzdata.zi``). Browsers still say some old names (Chromium says
    ``America/Buenos_Aires``, ``America/Cordoba``, ``Asia/Calcutta``): the sign-up
    page's script finds the browser's zone in the list through them."""
    text = (resources.files("tzdata") / "zoneinfo" / "tzdata.zi").read_text("utf-8")
    allowed = canonical_zones()
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L" and parts[1] in allowed:
            found[parts[2]] = parts[1]
    return found


def likely_zones(language: str) -> list[str]:
    """The zones of the countries a club speaking ``language`` is likely in."""
    order = {country: n for n, country in enumerate(LIKELY_COUNTRIES.get(language, ()))}
    rows = [(order[c], n, zone) for n, (c, zone) in enumerate(_zone_tab()) if c in order]
    seen: list[str] = []
    for _rank, _n, zone in sorted(rows):
        if zone not in seen:
            seen.append(zone)
    return seen


def default_zone(language: str) -> str:
    return DEFAULT_ZONE.get(language, DEFAULT_ZONE["en"])


def zone_choices(language: str, current: str | None = None) -> list:
    """A select's choices: the likely zones for ``language``, then the others (with
    ``current``, a club's stored zone, kept even when it is an old alias, so saving
    the settings page never changes it behind the officer's back)."""
    likely = likely_zones(language)
    others = sorted(canonical_zones() - set(likely))
    if current and current not in likely and current not in others:
        others = sorted([*others, current])
    return [
        (_("Usual for this language"), [(zone, zone) for zone in likely]),
        (_("Other time zones"), [(zone, zone) for zone in others]),
    ]
