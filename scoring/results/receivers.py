"""What the results do when something happens elsewhere: a game's result changed (sent by
the play services), a person was merged (sent by ``members``), seasons or the ranking
settings were edited.

A game's result rewrites its players' stored totals
(:mod:`scoring.play.services.totals`) in the transaction that changed it. Each receiver
tells the results cache (:func:`scoring.results.cache.results_changed`)
and, where a game's outcome moved, the ratings, once the change has committed.
"""

from django.db import transaction
from django.db.models import Min
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from members.signals import person_merged
from scoring.models import ClubSettings, Season, TeamPlayer
from scoring.play.services import totals
from scoring.results import ratings
from scoring.results.cache import results_changed
from scoring.signals import game_result_changed


@receiver(game_result_changed, dispatch_uid="scoring.totals_after_game")
def totals_after_game(sender, game, people=None, **kwargs):
    """A game finished or a finished game changed: its players' stored totals are added
    up again in the same transaction (``people``: its players, when the sender read
    them). Connected before :func:`results_after_game`, so the totals are written
    before the results hear of the change."""
    totals.game_changed(game, people)


@receiver(game_result_changed, dispatch_uid="scoring.results_after_game")
def results_after_game(sender, game, what, rate=True, **kwargs):
    """A game finished ("finished") or a finished game changed ("changed"): cached
    results bodies are no longer used (a person's own page only if they played in it:
    the play services replaced their stored rows), and (``rate``) the ratings are
    redone once the change commits."""
    results_changed()
    if not rate:
        return
    if what == "finished":
        transaction.on_commit(lambda: ratings.game_finished(game))
    elif what == "changed":
        transaction.on_commit(lambda: ratings.game_changed(game))


@receiver(post_save, sender=Season, dispatch_uid="scoring.totals_after_season_save")
def totals_after_season_save(sender, instance, raw=False, **kwargs):
    """A season was added or its dates changed: its stored totals are added up again
    (a season's standings read them; its deletion removes them)."""
    if not raw:
        totals.refresh_season(instance)


@receiver(post_save, sender=Season, dispatch_uid="scoring.results_after_season_save")
@receiver(post_delete, sender=Season, dispatch_uid="scoring.results_after_season_delete")
@receiver(post_save, sender=ClubSettings, dispatch_uid="scoring.results_after_settings")
def results_after_settings(sender, **kwargs):
    """Seasons and the ranking settings shape the results pages, every person's own
    page included: their cached bodies must not be used again."""
    results_changed(every_person=True)


@receiver(person_merged, dispatch_uid="scoring.ratings_after_merge")
def ratings_after_merge(sender, kept, removed, record, **kwargs):
    """Two records of one person became one: the games of both are now the kept
    person's, so ratings are replayed from the first of them (standings read the
    moved rows directly and need nothing)."""
    results_changed(every_person=True)
    totals.refresh_people([kept.pk, removed.pk])
    first = TeamPlayer.objects.filter(person=kept).aggregate(first=Min("game__day_date"))["first"]
    if first is not None:
        ratings.replay_from(first)
