"""Stored rule sets and games after issue 11 (migration 0008): old games score as they did.

The engine's ``RuleSet.from_dict`` is strict, so the migration adds the new setting
``initial_meld_check`` to every stored rule set: ``never`` in a game's frozen rules,
the presets' value in the club's rule sets; the read-only presets are rewritten from the
engine (three-deck red threes included).
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from members.tests.factories import ClubDayFactory, TableFactory
from scoring import engine
from scoring.models import RuleSet
from scoring.play.services.errors import HandRefused
from scoring.play.services.hands import record_hand
from scoring.tests.games import people, play
from scoring.tests.samples import quick

migration = importlib.import_module("scoring.migrations.0008_engine_meld_setting")

SETTING = "initial_meld_check"


def test_the_setting_is_added_only_where_missing():
    assert migration.with_setting({"target_score": 5000}, "never") == {
        "target_score": 5000,
        SETTING: "never",
    }
    assert migration.with_setting({SETTING: "always"}, "never") is None
    assert migration.with_setting(None, "never") is None
    assert migration.without_setting({SETTING: "always", "x": 1}) == {"x": 1}


@pytest.mark.django_db
def test_old_games_score_as_before_and_new_games_are_checked():
    day = ClubDayFactory()
    four = people(4)
    tbl = TableFactory(round__day=day, number=1, seated=four)
    club = RuleSet.objects.get(slug="club")
    game = play(tbl, [four[:2], four[2:]], [], rule_set=club)
    # As stored before the setting existed: the rules lack it, and so does the club's copy.
    old_rules = {k: v for k, v in game.rules.items() if k != SETTING}
    type(game).objects.filter(pk=game.pk).update(rules=old_rules)
    mine = RuleSet.objects.create(
        name="Ours", slug="ours", based_on="club", settings=dict(old_rules)
    )
    six = RuleSet.objects.get(slug="six-player")
    six.settings = {**six.settings, "red_three_schedule": [[4, 800], [5, 1000], [6, 1200]]}
    six.settings.pop(SETTING)
    six.save()

    migration.add_setting(apps, None)

    game.refresh_from_db()
    assert game.engine_rules().initial_meld_check == "never"
    mine.refresh_from_db()
    assert mine.as_engine().initial_meld_check == "except_concealed"
    six.refresh_from_db()
    assert six.as_engine() == engine.PRESETS["six-player"]
    assert six.as_engine().red_three_score(4, True) == 400

    # Team 2 needed 50 and shows 40 melded points: the old game takes it as before...
    hand = [quick(melded=120, hand=0), quick(melded=40, hand=20)]
    record_hand(game, hand, number=1)
    game.refresh_from_db()
    assert game.hand_count == 1
    # ...a game started now refuses it, naming the field and the number.
    others = people(4, "Q")
    new = play(TableFactory(round__day=day, number=2, seated=others), [others[:2], others[2:]], [])
    with pytest.raises(HandRefused) as refused:
        record_hand(new, hand, number=1)
    assert "at least 50" in str(refused.value)
