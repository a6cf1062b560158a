"""Rule sets as stored rows: the presets and the club's own, and the rules a club day
plays. A game keeps a frozen copy of its rule set (see :mod:`scoring.models.games`)."""

import json
from functools import lru_cache

from django.db import models
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.clubs.history import club_history
from members.clubs.scope import club_manager, shared_manager
from members.models import ClubDay, club_field
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
        """The active club's default rule set (``ClubSettings.default_rule_set``), or None."""
        return self.with_default().filter(is_club_default=True).first()

    def with_default(self):
        """Annotate ``is_club_default`` (the active club's default rule set), and list
        the default first."""
        from scoring.models.results import ClubSettings

        chosen = ClubSettings.objects.filter(default_rule_set=models.OuterRef("pk"))
        return self.annotate(is_club_default=models.Exists(chosen)).order_by(
            "-is_club_default", "-is_preset", "name"
        )


class RuleSet(models.Model):
    """A named rule set: a shipped preset (read-only, ``club`` empty, seen by every club)
    or a club's own copy of one.

    `settings` holds `engine.RuleSet.to_dict()`; a game copies it when it starts, so
    editing a rule set never rescores an old game.
    """

    club = club_field(null=True, blank=True, help_text="Empty for the shipped presets.")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80)
    based_on = models.CharField(
        max_length=20, blank=True, help_text="The preset this rule set was copied from."
    )
    is_preset = models.BooleanField(default=False, help_text="Shipped presets cannot be edited.")
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

    history = club_history(shared=True)
    objects = shared_manager(RuleSetQuerySet)

    class Meta:
        ordering = ["-is_preset", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="ruleset_unique_name"),
            models.UniqueConstraint(fields=["club", "slug"], name="ruleset_unique_slug"),
            models.UniqueConstraint(
                fields=["name"], condition=Q(club__isnull=True), name="preset_unique_name"
            ),
            models.UniqueConstraint(
                fields=["slug"], condition=Q(club__isnull=True), name="preset_unique_slug"
            ),
            models.CheckConstraint(
                condition=Q(is_preset=False) | Q(club__isnull=True), name="ruleset_preset_shared"
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
            return _("These settings cannot be read.")
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
    if rules.hands_in_game:
        game = _("%(hands)s hands, the highest total wins") % {"hands": rules.hands_in_game}
    else:
        game = _("game to %(target)s") % {
            "target": number_format(rules.target_score, force_grouping=True)
        }
    return ngettext(
        "%(sides)s; %(game)s; %(canastas)s canasta to go out",
        "%(sides)s; %(game)s; %(canastas)s canastas to go out",
        rules.canastas_to_go_out,
    ) % {
        "sides": sides,
        "game": game,
        "canastas": rules.canastas_to_go_out,
    }


class DayRules(models.Model):
    """The rule set a club day plays (kept here so `members` knows nothing of scoring)."""

    club = club_field()
    day = models.OneToOneField(ClubDay, on_delete=models.CASCADE, related_name="rules")
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="days")
    confirm_hands = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="The other team confirms every hand: on or off for this day; empty "
        "means as the rule set says.",
    )

    objects = club_manager()

    class Meta:
        ordering = ["day"]
        verbose_name_plural = "day rules"

    def __str__(self) -> str:
        return f"{self.day}: {self.rule_set}"
