"""The results' own writes: seasons and the club's ranking settings.

Scores are written only by the play services; what officers set for the results pages
(a season's dates, how standings rank) is written here, each in one transaction. Both
change what the results pages show, so the receivers drop their cached bodies
(``post_save`` of Season and ClubSettings, :mod:`scoring.results.receivers`).
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import ClubSettings, Season
from scoring.play.services import totals

RANKING_FIELDS = ("public_standings", "min_games_to_rank", "ranking_measures")


def save_season(season: Season) -> Season:
    """Save a season an officer added or edited (the season form has checked it). Its
    stored totals are added up again for its dates (the ``post_save`` receiver), with
    the totals to this edit alone from before the dates change: a game ending
    meanwhile waits, then reads the new dates (:func:`totals.only_writer`)."""
    with transaction.atomic():
        totals.only_writer()
        season.save()
    return season


def set_ranking(club: ClubSettings, **values) -> ClubSettings:
    """Set how the standings rank (whether the public sees them, the games needed to
    rank, the measures in order); only :data:`RANKING_FIELDS` may be given."""
    unknown = set(values) - set(RANKING_FIELDS)
    if unknown:
        raise ValueError(f"Not a ranking setting: {', '.join(sorted(unknown))}")
    for name, value in values.items():
        setattr(club, name, value)
    with transaction.atomic():
        club.save(update_fields=list(values))
    return club
