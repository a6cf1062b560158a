"""The event's sentences that several pages say, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _


def done_words(action: str, number: int = 0) -> str:
    words = {
        "start": _("Round %(number)s has started: the clock is running."),
        "end": _("Round %(number)s has ended; the next seating is shown to every table."),
        "pause": _("The clock of round %(number)s is paused."),
        "resume": _("The clock of round %(number)s is running again."),
        "add": _("A minute added to round %(number)s; later rounds move with it."),
        "remove": _("A minute taken off round %(number)s; later rounds move with it."),
    }
    if action not in words:
        return _("That button is not known here: reload the page and try again.")
    return words[action] % {"number": number}


def time_called_words(policy: str) -> str:
    if policy == "finish_hand":
        return _(
            "Time is called: finish the hand you are playing and enter it; no new hand "
            "is dealt, and your game ends with it."
        )
    return _(
        "Time is called: stop playing. Enter the hand in play as it lies, what each side "
        "has melded and holds, with nobody going out (no going-out bonus); your game "
        "ends with it. No hand started? Nothing to enter."
    )


def section_words(name: str) -> str:
    """A ranking's section or bracket by its name ("ns", "ew", "upper", "lower"), in
    the reader's language; "" for one ranking (no section). Every page, the e-mail,
    the workbook and the event_ranking command name sections with this (templates
    through the ``section_words`` filter of the ``tourney`` library)."""
    return {
        "ns": _("North–South"),
        "ew": _("East–West"),
        "upper": _("Upper bracket"),
        "lower": _("Lower bracket"),
    }.get(name, "")
