"""Making a club (the one way a new club starts: the ``create_club`` command and the
sign-up build on :func:`create_club`) and moving one to another slug."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from members.clubs.addresses import fold_host, host_problem
from members.clubs.moves import move_club, record_move
from members.clubs.scope import in_club
from members.models import Club, default_paper
from members.permissions import make_officer
from members.signals import club_created

__all__ = ["create_club", "move_club", "record_move"]


def create_club(slug: str, name: str, *, officer=None, **fields) -> Club:
    """A new club ``slug`` called ``name`` (``fields``: any other ``Club`` field); the
    other apps make what a club needs (``club_created``: scoring makes its settings, the
    shipped house rules as its default rule set, and its results version). ``officer``,
    a user, becomes its first officer. Raises Django's ``ValidationError`` for a slug
    or host name that is taken or not allowed. Its paper is its language's usual one
    unless ``CLUB_PAPER`` or ``fields`` say."""
    if "language_code" in fields:
        fields.setdefault("paper", default_paper(fields["language_code"]))
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
            club_created.send(sender=Club, club=club)
            if officer is not None:
                make_officer(officer)
    return club
