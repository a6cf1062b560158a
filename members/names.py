"""People's names as they are typed: tidied once, where they come in.

:func:`tidy_name` is the one rule, used by the roster import, the door (a new guest)
and the person form. Pure: no database.

A name typed all in small letters or all in capitals ("ann", "ADAMS") is put in title
case ("Ann", "Adams"); a name with both ("McDonald", "van der Berg", "O'Neill") was
typed with care and is kept exactly as typed. The first name and the last name are
judged each on its own: "ann" and "ADAMS" become "Ann Adams", "jan" and "van der Berg"
become "Jan van der Berg".
"""

from __future__ import annotations

import re

#: Small words that start many family names ("van der Berg", "de la Cruz"): kept in
#: small letters before the rest of a name typed all in one case.
NAME_PARTICLES = frozenset(
    {"van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le"}
)

_LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters: "o", "neill" in "o'neill"
_MC = re.compile(r"^Mc([a-z])(?=[a-z])")


def _title_word(word: str) -> str:
    """ "o'neill" → "O'Neill", "adams-smith" → "Adams-Smith", "mcdonald" → "McDonald"."""
    word = _LETTERS.sub(lambda match: match.group(0).capitalize(), word.lower())
    return _MC.sub(lambda match: "Mc" + match.group(1).upper(), word)


def tidy_name(text: str | None) -> str:
    """A first or a last name, spaces trimmed and collapsed; put in title case when it
    was typed all in small letters or all in capitals, else kept as typed."""
    text = " ".join((text or "").split())
    if text.lower() == text.upper():  # no letters that have a case
        return text
    if text not in (text.lower(), text.upper()):
        return text  # mixed case: typed with care
    words = text.split(" ")
    last = len(words) - 1
    return " ".join(
        word.lower() if word.lower() in NAME_PARTICLES and i < last else _title_word(word)
        for i, word in enumerate(words)
    )
