"""Rule sets, games, teams and hands as stored rows.

Raw inputs are always stored (`Hand.inputs`, one contract-shaped dict per team), so any
hand can be corrected and rescored; the derived numbers (`TeamHand`, the running totals
on `GameTeam`) are written only by `scoring.play.services`, in the same transaction as the
hand, and can be rebuilt from the inputs (`manage.py rebuild_totals`).
"""

import json
from functools import lru_cache

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from members.models import ClubDay, Person, Table
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
    description = models.TextField(blank=True)
    settings = models.JSONField(help_text="Every setting of the rule set (engine field names).")
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
        if rules.players_per_team == 1:
            sides = f"{rules.players} players, each alone"
        else:
            sides = f"{rules.teams} teams of {rules.players_per_team}"
        canastas = "canasta" if rules.canastas_to_go_out == 1 else "canastas"
        return (
            f"{sides}; game to {rules.target_score:,}; "
            f"{rules.canastas_to_go_out} {canastas} to go out"
        )


class DayRules(models.Model):
    """The rule set a club day plays (kept here so `members` knows nothing of scoring)."""

    day = models.OneToOneField(ClubDay, on_delete=models.CASCADE, related_name="rules")
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="days")

    class Meta:
        ordering = ["day"]
        verbose_name_plural = "day rules"

    def __str__(self) -> str:
        return f"{self.day}: {self.rule_set}"


class GameQuerySet(models.QuerySet):
    def finished(self):
        return self.filter(status=Game.Status.FINISHED)

    def between(self, start=None, end=None):
        qs = self
        if start:
            qs = qs.filter(day_date__gte=start)
        if end:
            qs = qs.filter(day_date__lte=end)
        return qs


class Game(models.Model):
    """A game at a table of a club day, played under a frozen copy of a rule set."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games")
    day = models.ForeignKey(ClubDay, on_delete=models.PROTECT, related_name="games")
    day_date = models.DateField(help_text="Copy of the club day's date, for date-range queries.")
    number = models.PositiveSmallIntegerField(help_text="1 for the table's first game, …")
    rule_set = models.ForeignKey(
        RuleSet, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    rules = models.JSONField(help_text="Frozen copy of the rule set's settings at the start.")
    rules_name = models.CharField(max_length=80)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    score_keeper = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="games_kept"
    )
    first_dealer = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hand_count = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        "GameTeam", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Bumped on every saved change.")
    failed_melds = models.JSONField(
        default=dict,
        blank=True,
        help_text="Failed initial melds per team in the hand being played, for every device "
        'at the table: {"hand": next hand number, "counts": [per team]}.',
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-day_date", "table__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_unique_number"),
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished"]), name="game_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="playing") | Q(finished_at__isnull=False),
                name="game_finished_has_time",
            ),
        ]
        indexes = [
            # Standings and exports: finished games in a date range.
            models.Index(fields=["status", "day_date"], name="game_status_date_idx"),
            # Day results: the games of one day.
            models.Index(fields=["day", "status"], name="game_day_status_idx"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} at {self.table}, {self.day}"

    def engine_rules(self) -> "engine.RuleSet":
        """The game's frozen rule set as an engine rule set."""
        return rules_from_settings(self.rules)

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def next_hand_number(self) -> int:
        return self.hand_count + 1


class GameTeam(models.Model):
    """One side of a game (a partnership, or a single player in two-player games) with
    its running totals, written by `scoring.play.services` with every hand."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="teams")
    index = models.PositiveSmallIntegerField(help_text="0-based position in the game's teams.")
    players = models.ManyToManyField(Person, through="TeamPlayer", related_name="game_teams")
    total = models.IntegerField(default=0)
    minimum = models.PositiveSmallIntegerField(
        default=50, help_text="Initial-meld requirement for the next hand."
    )
    points_against = models.IntegerField(
        default=0, help_text="Sum of the other teams' totals (for standings)."
    )
    hands = models.PositiveSmallIntegerField(default=0)
    natural_canastas = models.PositiveIntegerField(default=0)
    mixed_canastas = models.PositiveIntegerField(default=0)
    red_threes = models.PositiveIntegerField(default=0)
    times_out = models.PositiveIntegerField(default=0)
    concealed_outs = models.PositiveIntegerField(default=0)
    perfect_cuts = models.PositiveIntegerField(default=0)
    best_hand = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="gameteam_unique_index"),
        ]
        indexes = [
            # Club records: highest game.
            models.Index(fields=["-total"], name="gameteam_total_idx"),
        ]

    def __str__(self) -> str:
        return f"Team {self.index + 1} of {self.game}"

    @property
    def player_names(self) -> str:
        """ "Ann Able & Cat Cole": the players in seat order (prefetch `memberships`)."""
        names = [m.person.full_name for m in self.memberships.all()]
        return " & ".join(names)


class TeamPlayer(models.Model):
    team = models.ForeignKey(GameTeam, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="team_memberships")
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="players", help_text="Copy of team.game."
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["team", "seat", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "person"], name="teamplayer_once_per_game"),
        ]
        indexes = [
            # A member's page and individual standings: a person's games.
            models.Index(fields=["person", "game"], name="teamplayer_person_game_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.person} in {self.team}"


class Hand(models.Model):
    """One hand of a game: the raw inputs of every team, as entered.

    Every change is kept by django-simple-history (who, when, from what to what);
    `version` rises with each change, so a stale edit can never overwrite a newer one.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hand_set")
    number = models.PositiveSmallIntegerField()
    inputs = models.JSONField(help_text="One contract-shaped dict per team: the raw entry.")
    dealer = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_via = models.CharField(
        max_length=120, blank=True, help_text="Who entered it when not logged in (table link)."
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of {self.game}"

    @property
    def entered_by_label(self) -> str:
        """Who entered the hand, in words: a user's name or the device's table link."""
        if self.entered_by_id:
            user = self.entered_by
            return user.get_full_name() or user.get_username()
        return self.entered_via or "another device"


class TeamHand(models.Model):
    """A team's derived result for one hand (rebuilt from `Hand.inputs`)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="team_hands")
    team = models.ForeignKey(GameTeam, on_delete=models.CASCADE, related_name="team_hands")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    melded_points = models.IntegerField(default=0)
    natural_canastas = models.PositiveSmallIntegerField(default=0)
    mixed_canastas = models.PositiveSmallIntegerField(default=0)
    red_threes = models.PositiveSmallIntegerField(default=0)
    went_out = models.CharField(max_length=10, default="none")
    hand_points = models.IntegerField(default=0)
    perfect_cut = models.BooleanField(default=False)
    penalty_points = models.IntegerField(default=0)
    breakdown = models.JSONField(default=dict)
    hand_score = models.IntegerField()
    score_before = models.IntegerField()
    score_after = models.IntegerField()
    minimum_before = models.PositiveSmallIntegerField()
    minimum_next = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["hand", "team__index"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "team"], name="teamhand_unique"),
            models.CheckConstraint(
                condition=Q(went_out__in=["none", "out", "concealed"]),
                name="teamhand_went_out_valid",
            ),
        ]
        indexes = [
            # Club records: highest hand.
            models.Index(fields=["-hand_score"], name="teamhand_score_idx"),
            # Club records: hands with four (or more) red threes, a rare few rows.
            models.Index(
                fields=["red_threes"],
                condition=Q(red_threes__gte=4),
                name="teamhand_four_red_threes_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.hand}: {self.hand_score}"


class Season(models.Model):
    """A named date range for standings; the current season is the one covering today."""

    name = models.CharField(max_length=80, unique=True)
    start = models.DateField()
    end = models.DateField()

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="season_dates"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubSettings(models.Model):
    """Club-wide switches (a single row)."""

    public_standings = models.BooleanField(
        default=False, help_text="Show the standings to visitors who are not logged in."
    )
    min_games_to_rank = models.PositiveSmallIntegerField(
        default=5, help_text="Fewer games than this: listed apart, not ranked."
    )
    ranking_measures = models.JSONField(
        default=list, help_text="Ordered measures that rank the standings (default: win %, +/-)."
    )

    class Meta:
        verbose_name = "club settings"
        verbose_name_plural = "club settings"

    def __str__(self) -> str:
        return "Club settings"

    @classmethod
    def load(cls) -> "ClubSettings":
        obj, _ = cls.objects.get_or_create(pk=1)
        return obj


class ResultsVersion(models.Model):
    """One row whose number goes up whenever what the results pages show may have
    changed: a game finished, a finished game corrected or re-opened, a person merged,
    seasons or club settings edited. ``scoring.results.cache.results_changed`` is the
    only caller of :meth:`bump`. The results pages cache their bodies under it
    (``standings.results_stamp``), so saving a hand of a game still in play leaves
    every cached standings page valid."""

    number = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Results version {self.number}"

    @classmethod
    def bump(cls) -> None:
        """The number goes up by one (the row is made if missing). Inside a
        transaction, other connections see the new number once it commits."""
        if not cls.objects.filter(pk=1).update(number=models.F("number") + 1):
            cls.objects.get_or_create(pk=1, defaults={"number": 1})


class RatingPoint(models.Model):
    """A person's openskill rating after a finished game (for charts and standings)."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ratings")
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text="mu − 3σ: the conservative rating shown.")

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
