"""The three-player preset (each plays alone, 13 cards from two decks) as a read-only row."""

from django.db import migrations

DESCRIPTION = (
    "Three players, each scoring alone; 13 cards each from two decks; two canastas to go out."
)


def create_preset(apps, schema_editor):
    from scoring import engine

    RuleSet = apps.get_model("scoring", "RuleSet")
    rules = engine.PRESETS["three-player"]
    if RuleSet.objects.filter(slug=rules.name).exists():
        return
    name = rules.label
    if RuleSet.objects.filter(name=name).exists():
        name = f"{rules.label} (preset)"
    RuleSet.objects.create(
        name=name,
        slug=rules.name,
        based_on=rules.name,
        is_preset=True,
        description=DESCRIPTION,
        settings=rules.to_dict(),
    )


def remove_preset(apps, schema_editor):
    apps.get_model("scoring", "RuleSet").objects.filter(slug="three-player", is_preset=True).delete()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_text_length_caps")]

    operations = [migrations.RunPython(create_preset, remove_preset)]
