"""The rule-set services the views call to copy and edit a rule set."""

import pytest

from scoring import engine
from scoring.labels import rules_description
from scoring.models import RuleSet
from scoring.play.services.errors import RuleSetRefused
from scoring.play.services.rulesets import copy_rule_set, edit_rule_set, unique_slug


def test_copy_rule_set_keeps_every_setting_under_a_new_name(club_rules):
    copy = copy_rule_set(club_rules, "Club 2026")
    assert copy.pk != club_rules.pk
    assert (copy.name, copy.slug, copy.based_on) == ("Club 2026", "club-2026", "club")
    assert not copy.is_preset and RuleSet.objects.club_default() != copy
    # A preset's description in the officer's language, not its stored English row.
    assert copy.description == rules_description(club_rules) != club_rules.description
    rules = copy.as_engine()
    assert rules.label == "Club 2026" and rules.name == "club-2026"
    club = club_rules.as_engine()
    assert rules.target_score == club.target_score
    assert rules.perfect_cut_enabled == club.perfect_cut_enabled


def test_copy_rule_set_gives_a_slug_no_rule_set_has(club_rules):
    first = copy_rule_set(club_rules, "Mine")
    second = copy_rule_set(club_rules, "Mine!")
    assert (first.slug, second.slug) == ("mine", "mine-2")
    assert unique_slug("Mine") == "mine-3"
    assert unique_slug("!!!") == "rules"


def test_copy_rule_set_refuses_settings_the_engine_refuses(club_rules):
    broken = RuleSet(name="Broken", slug="broken", settings={**club_rules.settings})
    broken.settings["target_score"] = 3003
    before = RuleSet.objects.count()
    with pytest.raises(RuleSetRefused) as refused:
        copy_rule_set(broken, "Copy of broken")
    assert "multiple of 5" in refused.value.message
    assert RuleSet.objects.count() == before


def test_edit_rule_set_saves_name_description_and_settings(club_rules):
    copy = copy_rule_set(club_rules, "Mine")
    rules, refusals = engine.rules_from_spec({**copy.settings, "target_score": 3000})
    assert not refusals
    edit_rule_set(copy, name="Ours", description="For Thursdays", rules=rules)
    copy.refresh_from_db()
    assert (copy.name, copy.description) == ("Ours", "For Thursdays")
    assert copy.settings == rules.to_dict()
    assert copy.as_engine().target_score == 3000


def test_edit_rule_set_refuses_a_preset(club_rules):
    rules = engine.PRESETS["classic"]
    with pytest.raises(RuleSetRefused, match="Presets cannot be changed"):
        edit_rule_set(club_rules, name="Hacked", description="", rules=rules)
    club_rules.refresh_from_db()
    assert club_rules.name != "Hacked"
    assert club_rules.settings == engine.PRESETS["club"].to_dict()
