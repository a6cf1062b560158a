"""Making a club (the one way a new club starts: the ``create_club`` command and the
sign-up build on :func:`create_club`) and moving one to another slug."""

from __future__ import annotations

from django.db import transaction

from members.clubs import in_club
from members.models import Club, default_paper
from members.permissions import make_officer
from members.services.clubs import move_club, record_move
from scoring.models import ClubSettings, ResultsVersion, RuleSet

#: The shipped preset a new club plays unless its officers choose another.
DEFAULT_PRESET = "club"

__all__ = ["create_club", "move_club", "record_move"]


def create_club(slug: str, name: str, *, officer=None, **fields) -> Club:
    """A new club ``slug`` called ``name`` (``fields``: any other ``Club`` field), with
    its settings (the shipped house rules as its default rule set) and its results
    version; its paper is its language's usual one unless ``CLUB_PAPER`` or ``fields``
    say; ``officer``, a user, becomes its first officer. Raises Django's
    ``ValidationError`` for a slug that is taken or not allowed."""
    if "language_code" in fields:
        fields.setdefault("paper", default_paper(fields["language_code"]))
    club = Club(slug=slug, name=name, **fields)
    club.full_clean()
    with transaction.atomic():
        club.save()
        with in_club(club):
            ClubSettings.objects.create(
                default_rule_set=RuleSet.objects.filter(slug=DEFAULT_PRESET, is_preset=True).first()
            )
            ResultsVersion.objects.get_or_create()  # saving the settings may have made it
            if officer is not None:
                make_officer(officer)
    return club
