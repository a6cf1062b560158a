"""The engine's settings for the variants clubs play (issue 25) in every stored rule set,
and the new presets as read-only rows.

The engine's ``RuleSet.from_dict`` is strict, so every stored rule set gets the new
settings with the values that keep the classic game: no other kinds of canasta, the
usual card values, a black three left in hand 5, red threes counting with a meld, no
kinds needed to go out, no special hands, minimums by score, a game to its target, no
limit of cards in a meld and one meld per rank. A game's frozen rules, the club's own
rule sets and their history all get them, so every stored game scores as it did.

The shipped presets are rewritten from the engine, and the new presets (Modern
American canasta, Hand and Foot, Samba, Bolivia, Uruguayan and Cuban canasta) are
added. Going back removes the settings and the new presets again.
"""

from django.db import migrations

#: The new settings and the values that keep every stored game as it was.
CLASSIC_VALUES = {
    "card_values": {
        "joker": 50,
        "2": 20,
        "A": 20,
        "K": 10,
        "Q": 10,
        "J": 10,
        "10": 10,
        "9": 10,
        "8": 10,
        "7": 5,
        "6": 5,
        "5": 5,
        "4": 5,
        "3": 5,
    },
    "canasta_kinds": [],
    "red_threes_need_canastas": 0,
    "going_out_kinds": [],
    "special_hands": [],
    "initial_meld_by_hand": [],
    "hands_in_game": 0,
    "max_meld_cards": 0,
    "one_meld_per_rank": True,
    "black_three_in_hand": 5,
}

NEW_PRESETS = {
    "modern-american": "Modern American canasta (American Canasta Society style): 13 "
    "cards, canastas of sevens and aces 2,500, wild canastas 2,000 to 3,000, penalties for "
    "unfinished ones, special hands, two canastas to go out, game to 8,500.",
    "hand-and-foot": "Hand and Foot: five decks, a hand and a foot of 11 cards each, four "
    "hands with minimums 50, 90, 120 and 150, two natural and two mixed canastas to go "
    "out; the highest total after the fourth hand wins.",
    "samba": "Samba: three decks, 15 cards, sequences of one suit (a samba of seven "
    "scores 1,500), two canastas to go out, going out 200, game to 10,000.",
    "bolivia": "Bolivia: Samba with wild canastas (a bolivia of seven wild cards 2,500), "
    "an escalera among the canastas to go out, black threes left in hand minus 100, game "
    "to 15,000.",
    "uruguayan": "Uruguayan canasta: classic canasta with wild canastas of seven jokers "
    "and twos (2,000).",
    "cuban": "Cuban canasta: 13 cards, wild canastas 2,000 to 4,000, red threes 100, 300, "
    "500 and 1,000 with a canasta, melds of at most seven, game to 7,500.",
}


def with_settings(settings):
    """``settings`` with every new setting added where missing; None when there is
    nothing to change (all there, or not an object of settings at all)."""
    if not isinstance(settings, dict):
        return None
    missing = {key: value for key, value in CLASSIC_VALUES.items() if key not in settings}
    if not missing:
        return None
    return {**settings, **missing}


def without_settings(settings):
    if not isinstance(settings, dict) or not any(key in settings for key in CLASSIC_VALUES):
        return None
    return {k: v for k, v in settings.items() if k not in CLASSIC_VALUES}


def _rewrite(queryset, field, change):
    for row in queryset.only("pk", field).iterator():
        new = change(getattr(row, field))
        if new is not None:
            queryset.model.objects.filter(pk=row.pk).update(**{field: new})


def add_settings(apps, schema_editor):
    from scoring import engine

    Game = apps.get_model("scoring", "Game")
    RuleSet = apps.get_model("scoring", "RuleSet")
    HistoricalRuleSet = apps.get_model("scoring", "HistoricalRuleSet")
    _rewrite(Game.objects.all(), "rules", with_settings)
    _rewrite(RuleSet.objects.all(), "settings", with_settings)
    _rewrite(HistoricalRuleSet.objects.all(), "settings", with_settings)
    for slug, rules in engine.PRESETS.items():
        RuleSet.objects.filter(slug=slug, is_preset=True).update(settings=rules.to_dict())
    for slug, description in NEW_PRESETS.items():
        rules = engine.PRESETS[slug]
        if RuleSet.objects.filter(slug=slug, club__isnull=True).exists():
            # A new site's migration 0002 made every preset of the engine, undescribed.
            RuleSet.objects.filter(slug=slug, is_preset=True, description="").update(
                description=description
            )
            continue
        name = rules.label
        if RuleSet.objects.filter(name=name, club__isnull=True).exists():
            name = f"{rules.label} (preset)"
        RuleSet.objects.create(
            name=name,
            slug=slug,
            based_on=slug,
            is_preset=True,
            description=description,
            settings=rules.to_dict(),
            club=None,  # the shipped presets belong to no club
        )


def remove_settings(apps, schema_editor):
    RuleSet = apps.get_model("scoring", "RuleSet")
    RuleSet.objects.filter(slug__in=list(NEW_PRESETS), is_preset=True, days__isnull=True).delete()
    for model, field in (
        ("Game", "rules"),
        ("RuleSet", "settings"),
        ("HistoricalRuleSet", "settings"),
    ):
        _rewrite(apps.get_model("scoring", model).objects.all(), field, without_settings)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0020_club_required")]

    operations = [migrations.RunPython(add_settings, remove_settings)]
