"""A member's choice to get each closed club day's results by e-mail (their own page,
or the unsubscribe link in a message, which works without logging in)."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _

from members.models import Person
from members.services.errors import MembersError

logger = logging.getLogger(__name__)


class MailChoiceRefused(MembersError):
    """The results e-mail cannot be switched on for this person (no address)."""


def set_results_by_email(person: Person, wanted: bool, *, how: str = "own page") -> Person:
    """Switch the results e-mail on or off for ``person`` (recorded in the person's
    history). Switching on needs an e-mail address on record."""
    if wanted and not person.email:
        raise MailChoiceRefused(
            _("We have no e-mail address for you. Ask an officer to add it, then switch this on.")
        )
    if person.results_by_email != wanted:
        person.results_by_email = wanted
        person._change_reason = f"Results by e-mail {'on' if wanted else 'off'} ({how})"
        person.save(update_fields=["results_by_email"])
        logger.info("%s: results by e-mail %s (%s)", person, "on" if wanted else "off", how)
    return person
