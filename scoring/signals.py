"""What scoring does when something happens in `members`."""

from django.db.models import Min
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from members.signals import person_merged
from scoring import ratings
from scoring.models import ClubSettings, ResultsVersion, Season, TeamPlayer


@receiver(post_save, sender=Season, dispatch_uid="scoring.results_after_season_save")
@receiver(post_delete, sender=Season, dispatch_uid="scoring.results_after_season_delete")
@receiver(post_save, sender=ClubSettings, dispatch_uid="scoring.results_after_settings")
def results_after_settings(sender, **kwargs):
    """Seasons and the ranking settings shape the results pages: their cached bodies
    must not be used again."""
    ResultsVersion.bump()


@receiver(person_merged, dispatch_uid="scoring.ratings_after_merge")
def ratings_after_merge(sender, kept, removed, record, **kwargs):
    """Two records of one person became one: the games of both are now the kept
    person's, so ratings are replayed from the first of them (standings read the
    moved rows directly and need nothing)."""
    ResultsVersion.bump()
    first = TeamPlayer.objects.filter(person=kept).aggregate(first=Min("game__day_date"))["first"]
    if first is not None:
        ratings.replay_from(first)
