"""Making a club (the one way a new club starts: the ``create_club`` command and the
sign-up build on :func:`create_club`) and moving one to another slug."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from clubsite.clubs.addresses import fold_host, host_problem
from members.clubs import in_club
from members.models import Club
from members.permissions import make_officer
from members.services.clubs import move_club, record_move
from scoring.models import ClubSettings, ResultsVersion, RuleSet

#: The shipped preset a new club plays unless its officers choose another.
DEFAULT_PRESET = "club"

__all__ = ["create_club", "move_club", "record_move"]


def create_club(slug: str, name: str, *, officer=None, **fields) -> Club:
    """A new club ``slug`` called ``name`` (``fields``: any other ``Club`` field), with
    its settings (the shipped house rules as its default rule set) and its results
    version; ``officer``, a user, becomes its first officer. Raises Django's
    ``ValidationError`` for a slug or host name that is taken or not allowed."""
    club = Club(slug=slug, name=name, **fields)
    club.host = fold_host(club.host) or None
    errors = {}
    if problem := host_problem(club.host):
        errors["host"] = [problem]
    try:
        club.full_clean(exclude=["host"] if problem else None)
    except ValidationError as invalid:
        errors = invalid.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)
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
