"""Moving a club to another slug: its old slug redirects to the new one for good
(``ClubSlugRedirect``, consulted by ``members.clubs.addresses``). The platform
operator does it in the admin."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from members.models import Club, ClubSlugRedirect


def move_club(club: Club, new_slug: str) -> Club:
    """Give ``club`` the slug ``new_slug``: its pages move to ``/<new_slug>/…`` and the
    old slug redirects there permanently (:class:`ClubSlugRedirect`). Raises
    ``ValidationError`` for a slug that is taken, reserved, or another club's old one."""
    old_slug = club.slug
    club.slug = new_slug
    try:
        club.full_clean()
    except ValidationError:
        club.slug = old_slug
        raise
    with transaction.atomic():
        club.save()
        record_move(club, old_slug)
    return club


def record_move(club: Club, old_slug: str) -> None:
    """After ``club`` was saved with a new slug: its old slug redirects to it, and an
    old slug of its own that it took back no longer does."""
    if old_slug == club.slug:
        return
    ClubSlugRedirect.objects.filter(club=club, old_slug=club.slug).delete()
    ClubSlugRedirect.objects.update_or_create(old_slug=old_slug, defaults={"club": club})
