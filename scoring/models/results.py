"""What the results keep: seasons, the club's ranking settings, the results version
(the cached results pages' stamp) and each person's rating after every game."""

from django.db import models
from django.db.models import Q

from members.clubs.scope import club_manager
from members.models import Person, club_field
from scoring.models.games import Game


class Season(models.Model):
    """A named date range for standings; the current season is the one covering today."""

    club = club_field()
    name = models.CharField(max_length=80)
    start = models.DateField()
    end = models.DateField()

    objects = club_manager()

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name"),
            models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="season_dates"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubSettings(models.Model):
    """A club's game and results settings (one row per club, made when first read):
    who sees the standings, how they rank, the rule set a day plays unless it chooses
    another, and whether the other team confirms every hand. The club's own name, time
    zone and addresses are on ``members.Club``."""

    club = club_field(one=True)
    default_rule_set = models.ForeignKey(
        "scoring.RuleSet",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Played on a club day unless the day chooses another.",
    )
    confirm_hands = models.BooleanField(
        null=True,
        blank=True,
        default=None,
        help_text="The other team confirms every hand, on every day that does not say "
        "otherwise: on, off, or empty for as the day's rule set says.",
    )
    public_standings = models.BooleanField(
        default=False, help_text="Show the standings to visitors who are not logged in."
    )
    min_games_to_rank = models.PositiveSmallIntegerField(
        default=5, help_text="Fewer games than this: listed apart, not ranked."
    )
    ranking_measures = models.JSONField(
        default=list, help_text="Ordered measures that rank the standings (default: win %, +/-)."
    )

    objects = club_manager()

    class Meta:
        verbose_name = "club settings"
        verbose_name_plural = "club settings"

    def __str__(self) -> str:
        return "Club settings"

    @classmethod
    def load(cls) -> "ClubSettings":
        """The active club's settings (made if missing)."""
        obj, _ = cls.objects.get_or_create()
        return obj


class ResultsVersion(models.Model):
    """One row per club whose number goes up whenever what the results pages show may have
    changed: a game finished, a finished game corrected or re-opened, a person merged,
    seasons or club settings edited. ``scoring.results.cache.results_changed`` is the
    only caller of :meth:`bump`. The results pages cache their bodies under it
    (``scoring.results.cache.results_stamp``), so saving a hand of a game still in play leaves
    every cached standings page valid.

    ``every_person`` goes up only for the changes that reach every person's own page
    (seasons or settings edited, a merge); a person's page otherwise
    follows that person's own stored rows (``scoring.results.cache.person_stamp_of``),
    so a game finishing redraws the pages of its players, not everyone's."""

    club = club_field(one=True)
    number = models.BigIntegerField(default=0)
    every_person = models.BigIntegerField(default=0)

    objects = club_manager()

    def __str__(self) -> str:
        return f"Results version {self.number}"

    @classmethod
    def bump(cls, every_person: bool = False) -> None:
        """The number (and, with ``every_person``, that one too) goes up by one (the row
        is made if missing). Inside a transaction, other connections see the new
        numbers once it commits."""
        changes = {"number": models.F("number") + 1}
        if every_person:
            changes["every_person"] = models.F("every_person") + 1
        if not cls.objects.update(**changes):
            cls.objects.get_or_create(defaults={"number": 1, "every_person": int(every_person)})


class RatingPoint(models.Model):
    """A person's openskill rating after a finished game (for charts and standings)."""

    club = club_field()
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ratings")
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu − 3σ: the conservative rating shown.")

    objects = club_manager()

    class Meta:
        ordering = ["person", "played_on", "game"]
        constraints = [
            models.UniqueConstraint(fields=["person", "game"], name="rating_once_per_game"),
        ]
        indexes = [
            # The latest rating of each person.
            models.Index(fields=["person", "-played_on", "-id"], name="rating_latest_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.person}: {self.ordinal:.1f}"
