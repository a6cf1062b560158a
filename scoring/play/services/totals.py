"""The stored season totals (:class:`~scoring.models.SeasonTotal` per person,
:class:`~scoring.models.PartnershipTotal` per pair of partners): written here only.

A game that finishes, or a finished game that is corrected, re-opened or rebuilt,
changes the totals of its players (and of their partnerships) in every season whose
dates cover its day: :func:`game_changed`, called by the services in the same
transaction (:func:`scoring.play.services.state.tell_ratings`), adds those players'
finished games of those seasons up again from the per-game statistics on ``GameTeam``
(a few hundred rows at most: a small read that never grows with the club's history,
and always right after a correction, where adding and taking away could drift).
Editing a season's dates recomputes that season (:func:`refresh_season`); a merge of
two people, their rows; ``manage.py rebuild_totals`` everything (:func:`rebuild_all`).

Every function takes an optional ``apps`` (a migration's app registry), so the
migration that adds the tables fills them with the same code.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.apps import apps as global_apps
from django.db import transaction
from django.db.models import F, Q

from scoring.models.totals import STAT_FIELDS, team_aggregates

FINISHED = "finished"
PARTNER = "team__memberships__person"


def _models(apps=None):
    registry = apps or global_apps
    return (
        registry.get_model("scoring", "Season"),
        registry.get_model("scoring", "TeamPlayer"),
        registry.get_model("scoring", "SeasonTotal"),
        registry.get_model("scoring", "PartnershipTotal"),
    )


def game_changed(game, people: list[int] | None = None) -> None:
    """Recompute the stored totals of ``game``'s players (``people``, when the caller
    has them) and their partnerships in every season covering its day: call inside the
    transaction that changed it."""
    Season, TeamPlayer, _, _ = _models()
    if people is None:
        people = list(
            TeamPlayer.objects.filter(game_id=game.pk).values_list("person_id", flat=True)
        )
    for season in Season.objects.filter(start__lte=game.day_date, end__gte=game.day_date):
        refresh(season, people)


def refresh_people(person_ids: Iterable[int], apps=None) -> None:
    """Recompute these people's totals in every season (after a merge moved games)."""
    Season, _, _, _ = _models(apps)
    ids = list(person_ids)
    with transaction.atomic():
        for season in Season.objects.all():
            refresh(season, ids, apps=apps)


def refresh_season(season, apps=None) -> None:
    """Recompute one season's totals for everyone (its dates changed, or a rebuild)."""
    refresh(season, None, apps=apps)


def rebuild_all(apps=None) -> int:
    """Recompute every season's totals; returns the number of seasons."""
    Season, _, _, _ = _models(apps)
    seasons = list(Season.objects.all())
    for season in seasons:
        refresh(season, None, apps=apps)
    return len(seasons)


def refresh(season, person_ids: list[int] | None, apps=None) -> None:
    """Replace ``season``'s stored rows of these people (None: everyone) with their
    finished games added up: six queries (two aggregates, two deletes, two inserts)."""
    with transaction.atomic():
        _refresh(season, person_ids, apps)


def _refresh(season, person_ids, apps) -> None:
    _, TeamPlayer, SeasonTotal, PartnershipTotal = _models(apps)
    seats = TeamPlayer.objects.filter(
        game__status=FINISHED, game__day_date__gte=season.start, game__day_date__lte=season.end
    )
    aggregates = team_aggregates()
    people = seats if person_ids is None else seats.filter(person_id__in=person_ids)
    rows = people.values("person_id").annotate(**aggregates).order_by()
    stale = SeasonTotal.objects.filter(season=season)
    if person_ids is not None:
        stale = stale.filter(person_id__in=person_ids)
    stale.delete()
    SeasonTotal.objects.bulk_create(
        SeasonTotal(season=season, **_stats(row), person_id=row["person_id"]) for row in rows
    )
    _refresh_pairs(season, seats, person_ids, aggregates, PartnershipTotal)


def _refresh_pairs(season, seats, person_ids, aggregates, PartnershipTotal) -> None:
    """The partnerships' rows: the seats self-joined on their team, the lower id
    first, so each pair is counted once per game (teams of one have no pair)."""
    pair = Q(**{f"{PARTNER}_id__gt": F("person_id")})
    if person_ids is not None:
        pair &= Q(person_id__in=person_ids) | Q(**{f"{PARTNER}_id__in": person_ids})
    rows = (
        seats.filter(pair)
        .values("person_id", partner_id=F(f"{PARTNER}_id"))
        .annotate(**aggregates)
        .order_by()
    )
    stale = PartnershipTotal.objects.filter(season=season)
    if person_ids is not None:
        stale = stale.filter(Q(person_id__in=person_ids) | Q(partner_id__in=person_ids))
    stale.delete()
    PartnershipTotal.objects.bulk_create(
        PartnershipTotal(
            season=season, person_id=row["person_id"], partner_id=row["partner_id"], **_stats(row)
        )
        for row in rows
    )


def _stats(row: dict) -> dict:
    """The stored fields of an aggregated row (sums of nothing are 0; bests stay None)."""
    return {
        name: row[name] if name in ("best_game", "best_hand") else row[name] or 0
        for name in STAT_FIELDS
    }
