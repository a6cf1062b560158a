"""The engine's new setting ``initial_meld_check`` in every stored rule set (issue 11).

- A game's frozen rules get ``"never"``: games started before the check score as they
  did, whatever was saved in them.
- The club's own rule sets (and their history) get the presets' value,
  ``"except_concealed"``: games started from now on are checked.
- The shipped presets, which nobody can edit, are rewritten from the engine: this also
  brings the three-deck presets' red threes (four count 100 each, not 800).

Going back removes the setting again (the presets are then the engine's of that time).
"""

from django.db import migrations

SETTING = "initial_meld_check"
FOR_OLD_GAMES = "never"
FOR_RULE_SETS = "except_concealed"


def with_setting(settings, value):
    """``settings`` with the new setting added when missing; None when there is nothing
    to change (already set, or not an object of settings at all)."""
    if not isinstance(settings, dict) or SETTING in settings:
        return None
    return {**settings, SETTING: value}


def without_setting(settings):
    if not isinstance(settings, dict) or SETTING not in settings:
        return None
    return {k: v for k, v in settings.items() if k != SETTING}


def _rewrite(queryset, field, change):
    for row in queryset.only("pk", field).iterator():
        new = change(getattr(row, field))
        if new is not None:
            queryset.model.objects.filter(pk=row.pk).update(**{field: new})


def add_setting(apps, schema_editor):
    from scoring import engine

    Game = apps.get_model("scoring", "Game")
    RuleSet = apps.get_model("scoring", "RuleSet")
    HistoricalRuleSet = apps.get_model("scoring", "HistoricalRuleSet")
    _rewrite(Game.objects.all(), "rules", lambda s: with_setting(s, FOR_OLD_GAMES))
    _rewrite(RuleSet.objects.all(), "settings", lambda s: with_setting(s, FOR_RULE_SETS))
    _rewrite(HistoricalRuleSet.objects.all(), "settings", lambda s: with_setting(s, FOR_RULE_SETS))
    for slug, rules in engine.PRESETS.items():
        RuleSet.objects.filter(slug=slug, is_preset=True).update(settings=rules.to_dict())


def remove_setting(apps, schema_editor):
    for model, field in (
        ("Game", "rules"),
        ("RuleSet", "settings"),
        ("HistoricalRuleSet", "settings"),
    ):
        _rewrite(apps.get_model("scoring", model).objects.all(), field, without_setting)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0007_three_player_preset")]

    operations = [migrations.RunPython(add_setting, remove_setting)]
