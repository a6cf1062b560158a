"""What a draw gives, in the reader's language: the words of :mod:`members.draw` (which
stays free of Django) for the seating page and its refusals."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from members.draw import SeatingImpossible, table_sizes


def impossible(count: int) -> str:
    """Why ``count`` people cannot sit at tables of three and four, and what to do."""
    if count in (2, 5):
        text = ngettext(
            "%(n)s person cannot be seated at tables of three and four without someone "
            "sitting out. Choose “sit out”, or wait for one more person.",
            "%(n)s people cannot be seated at tables of three and four without someone "
            "sitting out. Choose “sit out”, or wait for one more person.",
            count,
        )
    else:
        text = ngettext(
            "%(n)s person cannot be seated at tables of three and four without someone "
            "sitting out. Choose “sit out”, or wait for more people.",
            "%(n)s people cannot be seated at tables of three and four without someone "
            "sitting out. Choose “sit out”, or wait for more people.",
            count,
        )
    return text % {"n": count}


def describe(count: int, remainder: str) -> str:
    """A sentence for the officer: what this choice gives for ``count`` people."""
    try:
        sizes, out = table_sizes(count, remainder)
    except SeatingImpossible:
        return impossible(count)
    if not sizes:
        if out:
            return ngettext(
                "Nobody can play: %(n)s person would sit out.",
                "Nobody can play: %(n)s people would sit out.",
                out,
            ) % {"n": out}
        return gettext("Nobody is signed in yet.")
    fours, threes = sizes.count(4), sizes.count(3)
    parts = []
    if fours:
        parts.append(ngettext("%(n)s table of four", "%(n)s tables of four", fours) % {"n": fours})
    if threes:
        parts.append(
            ngettext("%(n)s table of three", "%(n)s tables of three", threes) % {"n": threes}
        )
    text = (
        gettext("%(first)s and %(second)s") % {"first": parts[0], "second": parts[1]}
        if len(parts) == 2
        else parts[0]
    )
    if out:
        text = ngettext(
            "%(tables)s; %(n)s person sits out.", "%(tables)s; %(n)s people sit out.", out
        ) % {"tables": text, "n": out}
        return text
    return gettext("%(tables)s.") % {"tables": text}
