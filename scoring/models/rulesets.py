"""Rule sets as stored rows: the presets and the club's own, and the rules a club day
plays. A game keeps a frozen copy of its rule set (see :mod:`scoring.models.games`)."""

import json
from functools import lru_cache

from django.db import models
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.models import HistoricalRecords

from members.models import ClubDay
from scoring import engine


@lru_cache(maxsize=128)
def _rules_from_json(text: str) -> "engine.RuleSet":
    return engine.RuleSet.from_dict(json.loads(text))


def rules_from_settings(data: dict) -> "engine.RuleSet":
    """A stored rule set's settings as an engine rule set (parsed once, then cached)."""
    return _rules_from_json(json.dumps(data, sort_keys=True))


class RuleSetQuerySet(models.QuerySet):
    def presets(self):
        return self.filter(is_preset=True)

    def club_default(self):
        return self.filter(is_club_default=True).first()


class RuleSet(models.Model):
    """A named rule set: a shipped preset (read-only) or the club's own copy of one.

    `settings` holds `engine.RuleSet.to_dict()`; a game copies it when it starts, so
    editing a rule set never rescores an old game.
    """

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=80, unique=True)
    based_on = models.CharField(
        max_length=20, blank=True, help_text="The preset this rule set was copied from."
    )
    is_preset = models.BooleanField(default=False, help_text="Shipped presets cannot be edited.")
    is_club_default = models.BooleanField(
        default=False, help_text="Played on a club day unless the day chooses another."
    )
    description = models.TextField(
        blank=True, max_length=1000, help_text="What is special about it. At most 1,000 characters."
    )
    settings = models.JSONField(help_text="Every setting of the rule set (engine field names).")
    confirm_hands = models.BooleanField(
        default=False,
        help_text="A player of the other team confirms every saved hand (a day may say "
        "otherwise). Not a scoring rule: it never changes a score.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()
    objects = RuleSetQuerySet.as_manager()

    class Meta:
        ordering = ["-is_club_default", "-is_preset", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_club_default"],
                condition=Q(is_club_default=True),
                name="ruleset_one_club_default",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def as_engine(self) -> "engine.RuleSet":
        return rules_from_settings(self.settings)

    @property
    def summary(self) -> str:
        """One line for lists: players, target, canastas to go out."""
        try:
            rules = self.as_engine()
        except ValueError:
            return "These settings cannot be read."
        return rules_summary(rules)


def rules_summary(rules: "engine.RuleSet") -> str:
    """One line for lists and the start-game page: players, target, canastas to go out."""
    if rules.players_per_team == 1:
        sides = _("%(players)s players, each alone") % {"players": rules.players}
    else:
        sides = _("%(teams)s teams of %(size)s") % {
            "teams": rules.teams,
            "size": rules.players_per_team,
        }
    return ngettext(
        "%(sides)s; game to %(target)s; %(canastas)s canasta to go out",
        "%(sides)s; game to %(target)s; %(canastas)s canastas to go out",
        rules.canastas_to_go_out,
    ) % {
        "sides": sides,
        "target": number_format(rules.target_score, force_grouping=True),
        "canastas": rules.canastas_to_go_out,
    }


class DayRules(models.Model):
    """The rule set a club day plays (kept here so `members` knows nothing of scoring)."""

    day = models.OneToOneField(ClubDay, on_delete=models.CASCADE, related_name="rules")
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="days")
    confirm_hands = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="The other team confirms every hand: on or off for this day; empty "
        "means as the rule set says.",
    )

    class Meta:
        ordering = ["day"]
        verbose_name_plural = "day rules"

    def __str__(self) -> str:
        return f"{self.day}: {self.rule_set}"
