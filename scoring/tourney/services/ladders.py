"""Making and changing a ladder (its days, the minimum to qualify, how it ranks, the
amount per player per day). A name is the club's once, whatever its capitals: the name
is looked up first (:class:`AlreadyDone` names the ladder that has it, so sending the
same form twice makes one ladder), and the database's constraint catches the same name
saved at the same moment by another request. Any other refusal of the database is an
error of the program and is raised as it is."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.tourney.models import Ladder, LadderDay
from scoring.tourney.services.errors import AlreadyDone


def ladder_named(name: str, *, besides: Ladder | None = None) -> Ladder | None:
    """The club's ladder called ``name`` whatever its capitals (other than ``besides``)."""
    found = Ladder.objects.filter(name__iexact=(name or "").strip())
    if besides is not None and besides.pk:
        found = found.exclude(pk=besides.pk)
    return found.first()


def _name_taken(name: str, existing: Ladder) -> AlreadyDone:
    error = AlreadyDone(
        _("A ladder called “%(name)s” already exists; choose another name.")
        % {"name": existing.name}
    )
    error.ladder = existing
    return error


def save_ladder(ladder: Ladder | None, *, days, **fields) -> Ladder:
    """Create (``ladder`` None) or change a ladder and set its days."""
    original = ladder
    name = fields.get("name", ladder.name if ladder is not None else "")
    existing = ladder_named(name, besides=original)
    if existing is not None:
        raise _name_taken(name, existing)
    try:
        with transaction.atomic():
            if ladder is None:
                ladder = Ladder.objects.create(**fields)
            else:
                for field, value in fields.items():
                    setattr(ladder, field, value)
                ladder.save()
            LadderDay.objects.filter(ladder=ladder).exclude(day__in=days).delete()
            have = set(LadderDay.objects.filter(ladder=ladder).values_list("day_id", flat=True))
            LadderDay.objects.bulk_create(
                [LadderDay(ladder=ladder, day=day) for day in days if day.pk not in have]
            )
    except IntegrityError:
        # Saved at the same moment by another request (a double tap): that one stands.
        existing = ladder_named(name, besides=original)
        if existing is None:
            raise
        raise _name_taken(name, existing) from None
    return ladder
