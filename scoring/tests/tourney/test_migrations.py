"""Upgrading keeps what the clubs had: events made before sections existed keep one
ranking for everyone (tourney.0003: their rankings and prize lists do not change), and
ladders whose names differ only in capitals are renamed "… (2)", "… (3)" before the
name becomes unique whatever its capitals (tourney.0002)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django_scopes import scopes_disabled

from members.tests.factories import ClubDayFactory
from scoring.models import RuleSet
from scoring.tourney.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tourney", "0001_initial")]


def _migrate(targets=None):
    """Migrate as ``manage.py migrate`` does (outside any club's scope); the apps of
    that state."""
    with scopes_disabled():
        executor = MigrationExecutor(connection)
        targets = targets or executor.loader.graph.leaf_nodes()
        executor.migrate(targets)
        executor.loader.build_graph()
        return executor.loader.project_state(targets).apps


@pytest.fixture
def at_tourney_0001(club):
    day = ClubDayFactory()
    rules = RuleSet.objects.get(slug="club")
    old_apps = _migrate(BEFORE)
    try:
        yield old_apps, day, rules
    finally:
        _migrate()


def test_old_events_keep_one_ranking(at_tourney_0001, club):
    old_apps, day, rules = at_tourney_0001
    old_apps.get_model("tourney", "Event").objects.create(
        club_id=club.pk, day_id=day.pk, rule_set_id=rules.pk, name="Old pairs"
    )
    new_apps = _migrate()
    sections = new_apps.get_model("tourney", "Event").objects.values_list("sections", flat=True)
    assert list(sections) == ["one"]
    assert Event._meta.get_field("sections").default == Event.Sections.LINES  # new events


def test_ladders_named_alike_but_for_capitals_are_renamed(at_tourney_0001, club):
    old_apps, _day, _rules = at_tourney_0001
    ladder = old_apps.get_model("tourney", "Ladder")
    for name in ("Spring", "spring", "Spring (2)", "SPRING", "Autumn"):
        ladder.objects.create(club_id=club.pk, name=name)
    new_apps = _migrate()
    ladders = new_apps.get_model("tourney", "Ladder").objects.order_by("pk")
    names = list(ladders.values_list("name", flat=True))
    assert names == ["Spring", "spring (3)", "Spring (2)", "SPRING (4)", "Autumn"]
