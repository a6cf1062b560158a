"""Stored rule sets and games after issue 25 (migration 0021): every stored rule set gets
the variants' settings with the values that keep its game as it was, and the new presets
are rows."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from members.tests.factories import ClubDayFactory, TableFactory
from scoring import engine
from scoring.models import RuleSet
from scoring.play.services.hands import record_hand
from scoring.tests.games import people, play
from scoring.tests.samples import quick

migration = importlib.import_module("scoring.migrations.0021_variant_settings")


def test_the_settings_added_are_the_classic_values():
    classic = engine.PRESETS["classic"].to_dict()
    for key, value in migration.CLASSIC_VALUES.items():
        assert classic[key] == value, key
    assert migration.with_settings({"target_score": 5000})["hands_in_game"] == 0
    assert migration.with_settings(classic) is None
    assert migration.with_settings(None) is None
    assert migration.without_settings(classic) == {
        k: v for k, v in classic.items() if k not in migration.CLASSIC_VALUES
    }


@pytest.mark.django_db
def test_old_games_and_rule_sets_read_and_score_as_before():
    day = ClubDayFactory()
    four = people(4)
    tbl = TableFactory(round__day=day, number=1, seated=four)
    game = play(tbl, [four[:2], four[2:]], [], rule_set=RuleSet.objects.get(slug="club"))
    old_rules = {k: v for k, v in game.rules.items() if k not in migration.CLASSIC_VALUES}
    type(game).objects.filter(pk=game.pk).update(rules=old_rules)
    mine = RuleSet.objects.create(
        name="Ours", slug="ours", based_on="club", settings=dict(old_rules)
    )
    RuleSet.objects.filter(slug="samba").delete()

    migration.add_settings(apps, None)

    game.refresh_from_db()
    assert game.engine_rules() == engine.PRESETS["club"]
    mine.refresh_from_db()
    assert mine.as_engine() == engine.PRESETS["club"]
    samba = RuleSet.objects.get(slug="samba")
    assert samba.is_preset and samba.as_engine() == engine.PRESETS["samba"]
    assert "sequences" in samba.description
    record_hand(game, [quick(melded=120, hand=0), quick(melded=60, hand=20)], number=1)
    game.refresh_from_db()
    assert [t.total for t in game.teams.order_by("index")] == [120, 40]


@pytest.mark.django_db
def test_every_preset_of_the_engine_is_a_read_only_row():
    rows = {r.slug: r for r in RuleSet.objects.filter(is_preset=True)}
    assert set(rows) == set(engine.PRESET_SLUGS)
    for slug, row in rows.items():
        assert row.as_engine() == engine.PRESETS[slug]
        assert row.description
