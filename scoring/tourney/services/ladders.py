"""Making and changing a ladder (its days, the minimum to qualify, how it ranks, the
amount per player per day). A name is the club's once: sending the same form twice
makes one ladder (:class:`AlreadyDone` names the one made)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.tourney.models import Ladder, LadderDay
from scoring.tourney.services.errors import AlreadyDone


def save_ladder(ladder: Ladder | None, *, days, **fields) -> Ladder:
    """Create (``ladder`` None) or change a ladder and set its days."""
    try:
        with transaction.atomic():
            if ladder is None:
                ladder = Ladder.objects.create(**fields)
            else:
                for name, value in fields.items():
                    setattr(ladder, name, value)
                ladder.save()
            LadderDay.objects.filter(ladder=ladder).exclude(day__in=days).delete()
            have = set(LadderDay.objects.filter(ladder=ladder).values_list("day_id", flat=True))
            LadderDay.objects.bulk_create(
                [LadderDay(ladder=ladder, day=day) for day in days if day.pk not in have]
            )
    except IntegrityError:
        existing = Ladder.objects.filter(name=fields.get("name")).first()
        error = AlreadyDone(
            _("A ladder called “%(name)s” already exists; choose another name.")
            % {"name": fields.get("name")}
        )
        error.ladder = existing
        raise error from None
    return ladder
