"""What scoring does when something happens in `members`."""

from django.db.models import Min
from django.dispatch import receiver

from members.signals import person_merged
from scoring import ratings
from scoring.models import TeamPlayer


@receiver(person_merged, dispatch_uid="scoring.ratings_after_merge")
def ratings_after_merge(sender, kept, removed, record, **kwargs):
    """Two records of one person became one: the games of both are now the kept
    person's, so ratings are replayed from the first of them (standings read the
    moved rows directly and need nothing)."""
    first = TeamPlayer.objects.filter(person=kept).aggregate(first=Min("game__day_date"))["first"]
    if first is not None:
        ratings.replay_from(first)
