"""Rule sets: the club default, the rules a club day plays, and copying and editing a
rule set. The shipped presets are rows the data migrations make (``scoring`` 0002 and
0007, brought up to the engine by 0008); nobody can edit them.

A game keeps a frozen copy of its rules (``Game.rules``) from the moment it starts, so
nothing here ever changes a game already started.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from scoring import engine
from scoring.labels import rules_description
from scoring.models import ClubSettings, DayRules, RuleSet
from scoring.play.services.errors import RuleSetRefused


def rule_set_for_day(day) -> RuleSet | None:
    """The rule set a club day plays: its own choice, else the club default."""
    chosen = DayRules.objects.filter(day=day).select_related("rule_set").first()
    if chosen is not None:
        return chosen.rule_set
    return RuleSet.objects.club_default()


def set_club_default(rule_set: RuleSet) -> None:
    """The active club plays ``rule_set`` on days that choose none (one of its own or a
    shared preset)."""
    with transaction.atomic():
        settings = ClubSettings.load()
        settings.default_rule_set = rule_set
        settings.save(update_fields=["default_rule_set"])


#: ``set_day_rules(confirm_hands=KEEP)`` leaves the day's confirmation setting as it is.
KEEP = object()


def set_day_rules(day, rule_set: RuleSet, *, confirm_hands=KEEP) -> DayRules:
    """Choose the rule set a club day plays; games already started keep theirs.
    ``confirm_hands``: True or False turns the other team's OK on or off for the day,
    None leaves it to the rule set."""
    defaults = {"rule_set": rule_set}
    if confirm_hands is not KEEP:
        defaults["confirm_hands"] = confirm_hands
    obj, _ = DayRules.objects.update_or_create(day=day, defaults=defaults)
    return obj


def unique_slug(name: str) -> str:
    """A slug for a new rule set named ``name`` that no rule set has yet."""
    base = slugify(name)[:70] or "rules"
    slug, n = base, 2
    while RuleSet.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


def copy_rule_set(source: RuleSet, name: str) -> RuleSet:
    """A new rule set called ``name`` with every setting of ``source`` (never a preset
    itself). Raises :class:`RuleSetRefused` if the engine refuses the copied settings."""
    slug = unique_slug(name)
    settings_dict = dict(source.settings)
    settings_dict["name"] = slug[:100]
    settings_dict["label"] = name[:100]
    rules, refusals = engine.rules_from_spec(settings_dict)
    if rules is None:
        raise RuleSetRefused(" ".join(r.message for r in refusals))
    return RuleSet.objects.create(
        name=name,
        slug=slug,
        based_on=source.based_on or source.slug,
        is_preset=False,
        description=rules_description(source),
        settings=rules.to_dict(),
    )


def edit_rule_set(
    rule_set: RuleSet,
    *,
    name: str,
    description: str,
    rules: engine.RuleSet,
    confirm_hands: bool | None = None,
) -> RuleSet:
    """Save a rule set's new name, description and settings (``rules``, as the engine
    accepted them), and whether the other team confirms every hand (``confirm_hands``;
    None keeps it). Games already started keep the rules they started with. Raises
    :class:`RuleSetRefused` for a preset."""
    if rule_set.is_preset:
        raise RuleSetRefused("Presets cannot be changed; copy this one to change it.")
    rule_set.name = name
    rule_set.description = description
    rule_set.settings = rules.to_dict()
    if confirm_hands is not None:
        rule_set.confirm_hands = confirm_hands
    rule_set.save()
    return rule_set
