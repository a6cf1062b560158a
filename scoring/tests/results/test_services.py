"""The results' own writes go through scoring.results.services."""

import datetime

import pytest

from scoring.models import ClubSettings, ResultsVersion, Season
from scoring.results.services import save_season, set_ranking

pytestmark = pytest.mark.django_db


def _version() -> int:
    return ResultsVersion.objects.values_list("number", flat=True).first() or 0


def test_save_season_writes_it_and_drops_cached_results():
    before = _version()
    season = save_season(
        Season(name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    )
    assert Season.objects.get(pk=season.pk).name == "2026"
    assert _version() > before


def test_set_ranking_writes_only_ranking_fields():
    club = ClubSettings.load()
    before = _version()
    set_ranking(club, min_games_to_rank=7, public_standings=False)
    fresh = ClubSettings.objects.get(pk=club.pk)
    assert fresh.min_games_to_rank == 7 and fresh.public_standings is False
    assert _version() > before
    with pytest.raises(ValueError, match="Not a ranking setting"):
        set_ranking(club, club_name="x")
