"""Small helpers that write numbers and entered values into messages for score keepers,
and the words of those messages in the reader's language.

They never fail, whatever they are given: a value from the outside world may be a huge
integer (``str()`` refuses very long ones), a deeply nested list (``repr()`` could recurse)
or anything else, so only scalars are ever shown and long text is cut short.

**Languages.** The engine writes its messages in English through :func:`_` and
:func:`ngettext`, marked as Python's ``gettext`` marks them (so ``makemessages`` finds
them), with named placeholders (``%(team)s``) a translator can move. It knows nothing
of Django: by default the words stay English (the standard library's
``NullTranslations``); the site installs its own translations and number format once,
at start-up (:func:`install`, called by ``scoring.apps``), and every message is then
written in the language active where the engine is called.
"""

from __future__ import annotations

import gettext as _gettext

_BIG = 10**15


class _Language:
    """What the engine writes its words with (see :func:`install`)."""

    translations = _gettext.NullTranslations()
    number = None


def install(translations=None, number=None) -> None:
    """Write the engine's messages with ``translations`` (anything with ``gettext`` and
    ``ngettext``, e.g. ``django.utils.translation``) and whole numbers with ``number``
    (a function of an int, e.g. one grouping thousands as the language does)."""
    _Language.translations = translations or _gettext.NullTranslations()
    _Language.number = number


def _(message: str) -> str:
    """``message`` in the reader's language."""
    return _Language.translations.gettext(message)


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation where it is defined; :func:`_` says it later."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the reader's language."""
    return _Language.translations.ngettext(singular, plural, n)


def num(n: int) -> str:
    """``1180`` -> ``"1,180"`` (``"1.180"`` in Spanish); absurdly large numbers are not
    spelled out."""
    if -_BIG < n < _BIG:
        return _Language.number(n) if _Language.number else f"{n:,}"
    return _("an impossibly large number")


def plural(n: int, one: str, many: str | None = None) -> str:
    """``plural(1, "canasta")`` -> ``"1 canasta"``; ``plural(2, "canasta")`` -> ``"2 canastas"``.

    The words are given already in the reader's language (a kind of canasta's, from
    :func:`scoring.engine.rules.kinds.kind_words`); words of the engine's own use
    :func:`count`, which translates the number and its noun as one phrase."""
    if n == 1:
        return f"1 {one}"
    return f"{num(n)} {many if many is not None else one + 's'}"


def count(n: int, singular: str, plural: str) -> str:
    """``count(2, "%(n)s canasta", "%(n)s canastas")`` -> ``"2 canastas"``: a number and
    its noun, translated as one phrase."""
    return ngettext(singular, plural, n) % {"n": num(n)}


def describe(value: object) -> str:
    """A short description of an entered value, e.g. ``"35.5"``, ``'the text "ten"'``."""
    if value is None:
        return _("an empty entry")
    if value is True:
        return _("true")
    if value is False:
        return _("false")
    if type(value) is int:
        return num(value)
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            return _("a value that is not a number")
        if abs(value) < _BIG:
            return repr(value)
        return _("an impossibly large number")
    if isinstance(value, str):
        return _("the text %(text)s") % {"text": quote(value)}
    if isinstance(value, (list, tuple)):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return _("a value of the wrong kind")


def quote(text: str) -> str:
    """Entered text in double quotes, cut short when long."""
    shown = text if len(text) <= 30 else text[:27] + "..."
    return '"' + shown.replace('"', "'") + '"'


def sentence_list(items: list[str], last: str = "and") -> str:
    """``["1", "2", "3"]`` -> ``"1, 2 and 3"`` (or ``"1, 2 or 3"`` with ``last="or"``)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    first = ", ".join(items[:-1])
    if last == "or":
        return _("%(first)s or %(last)s") % {"first": first, "last": items[-1]}
    return _("%(first)s and %(last)s") % {"first": first, "last": items[-1]}


def key_name(key: object) -> str:
    """A dictionary key as it may appear in a field path."""
    if isinstance(key, str):
        return key if len(key) <= 40 else key[:37] + "..."
    return "?"
