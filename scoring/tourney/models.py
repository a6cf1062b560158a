"""An event's rows: the event on a club day, its rounds with their clock, the clock's
actions (each once: a double tap is answered "already done") and the arrivals at the
tables.

Every row belongs to one club (``club_field()``, scoped managers). The games of an
event are ordinary games (``scoring.Game``) at the tables of the event's rounds, started
through the play services: standings, the day results and the workbook count them like
any other game.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.clubs.scope import club_manager
from members.models import ClubDay, Round, club_field
from scoring.events.ranking import BURRACO_3_HANDS
from scoring.models import RuleSet


def burraco_rows() -> list:
    """The burraco 0–20 victory point table for three deals, as stored rows."""
    return [list(row) for row in BURRACO_3_HANDS.rows]


class Event(models.Model):
    """A club day played as an event: rounds on a clock, a movement, a ranking."""

    class Movement(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell: North–South stay, East–West move up one table")
        SWISS = "swiss", _("Swiss: partnerships with the same number of wins meet")
        INDIVIDUAL = "individual", _("Individual: a new partner and new opponents each round")

    class TimeCalled(models.TextChoices):
        FINISH_HAND = "finish_hand", _("Finish the hand in play, then the game ends")
        AT_TIME = (
            "at_time",
            _("Score at time: the hand in play counts as it lies, with no going-out bonus"),
        )

    class Ranking(models.TextChoices):
        WINS = "wins", _("Wins, then points")
        VP = "vp", _("Victory points from the point difference")
        PCT = "pct", _("Percentage of the most victory points")

    class Sections(models.TextChoices):
        LINES = "lines", _("North–South and East–West ranked separately (two sets of winners)")
        ONE = "one", _("One ranking for everyone")

    class TieBreak(models.TextChoices):
        DIFF = "diff", _("Point difference (for less against)")
        POINTS_FOR = "points_for", _("Points scored")
        POINTS_AGAINST = "points_against", _("Fewest points against")

    club = club_field()
    day = models.OneToOneField(ClubDay, on_delete=models.CASCADE, related_name="event")
    name = models.CharField(max_length=120, blank=True, help_text="e.g. 'Spring pairs'.")
    movement = models.CharField(max_length=12, choices=Movement.choices, default="mitchell")
    rounds = models.PositiveSmallIntegerField(default=3)
    round_minutes = models.PositiveSmallIntegerField(default=50)
    move_minutes = models.PositiveSmallIntegerField(default=5)
    warning_minutes = models.PositiveSmallIntegerField(default=10)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="+")
    time_called = models.CharField(
        max_length=12, choices=TimeCalled.choices, default=TimeCalled.AT_TIME
    )
    ranking = models.CharField(max_length=8, choices=Ranking.choices, default=Ranking.VP)
    tie_break = models.CharField(max_length=16, choices=TieBreak.choices, default=TieBreak.DIFF)
    vp_table = models.JSONField(
        default=burraco_rows,
        help_text="Rows of [largest difference, winner's VP, loser's VP]; the last row's "
        "difference empty (any more).",
    )
    sections = models.CharField(
        max_length=8,
        choices=Sections.choices,
        default=Sections.LINES,
        help_text="A Mitchell's ranking: each line on its own (the prize list gives each "
        "line its places 1–3) or one list; other movements always rank one list.",
    )
    upper_bracket = models.PositiveSmallIntegerField(
        default=0,
        help_text="Places in the upper bracket for the last rounds (0: no brackets).",
    )
    bracket_rounds = models.PositiveSmallIntegerField(
        default=0,
        help_text="How many of the last rounds are played in brackets: the ranking before "
        "them makes the brackets, and the upper bracket ranks above the lower one.",
    )
    entrants = models.JSONField(
        default=list,
        blank=True,
        help_text="Set when round 1 starts: [{number, line, people: [person ids]}], a "
        "partnership (line 'ns'/'ew' in a Mitchell) or, individual, one person.",
    )
    seed = models.BigIntegerField(default=0, help_text="The movement's seed (to replay it).")
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped on every change: the room board's fingerprint reads it."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        # Found by its day: the one-to-one's unique index on ``day`` serves the pages
        # and the room board's fingerprint (``scoring.results.cache.DAY_STAMP_SQL``).
        constraints = [
            models.CheckConstraint(
                condition=Q(rounds__gte=1) & Q(rounds__lte=20), name="event_rounds_range"
            ),
            models.CheckConstraint(
                condition=Q(round_minutes__gte=1) & Q(round_minutes__lte=300),
                name="event_round_minutes_range",
            ),
            models.CheckConstraint(
                condition=Q(movement__in=["mitchell", "swiss", "individual"]),
                name="event_movement_valid",
            ),
            models.CheckConstraint(
                condition=Q(ranking__in=["wins", "vp", "pct"]), name="event_ranking_valid"
            ),
            models.CheckConstraint(
                condition=Q(upper_bracket=0, bracket_rounds=0)
                | (Q(upper_bracket__gte=1) & Q(bracket_rounds__gte=1)),
                name="event_brackets_both_or_none",
            ),
            models.CheckConstraint(
                condition=Q(sections__in=["lines", "one"]), name="event_sections_valid"
            ),
            models.CheckConstraint(
                condition=Q(time_called__in=["finish_hand", "at_time"]),
                name="event_time_called_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name or gettext("Event of %(day)s") % {"day": self.day}

    @property
    def is_individual(self) -> bool:
        return self.movement == self.Movement.INDIVIDUAL

    @property
    def ranks_lines(self) -> bool:
        """A Mitchell whose two lines are ranked separately (brackets rank one list)."""
        return (
            self.movement == self.Movement.MITCHELL
            and self.sections == self.Sections.LINES
            and not self.upper_bracket
        )

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None


class EventRound(models.Model):
    """One round of an event: its seating, and its clock as stored moments (the
    countdown is worked out from them with the time passed in, :mod:`.timing`)."""

    club = club_field()
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    round = models.OneToOneField(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="event_round"
    )
    seating = models.JSONField(
        default=list,
        help_text="[{table, sides: [[person ids], [person ids]], entrants: [numbers], "
        "came_from: [table numbers]}], the tables in order.",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    shift_seconds = models.IntegerField(
        default=0, help_text="Minutes the officer added (or took off), in seconds."
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["event", "number"]
        # An event's rounds: the unique (event, number) index; a table's round: the
        # one-to-one's unique index on ``round``.
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="eventround_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="eventround_number_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Round %(number)s of %(event)s") % {
            "number": self.number,
            "event": self.event,
        }


class ClockAction(models.Model):
    """What an officer did to an event (start, pause, a minute more …), once per key:
    the form's key makes a double tap, a reload or a retried POST count once."""

    class Action(models.TextChoices):
        START = "start", _("Start the round")
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        ADD = "add", _("Add a minute")
        REMOVE = "remove", _("Take off a minute")
        END = "end", _("End the round")

    club = club_field()
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveSmallIntegerField(help_text="The round it acted on.")
    action = models.CharField(max_length=8, choices=Action.choices)
    key = models.CharField(max_length=64)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()

    objects = club_manager()

    class Meta:
        ordering = ["event", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="clockaction_once_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.action} round {self.number} of {self.event}"


class Arrival(models.Model):
    """A side of a table that tapped "we are here" at the start of a round."""

    club = club_field()
    event_round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="arrivals")
    table = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField(help_text="0: North–South, 1: East–West.")
    at = models.DateTimeField()

    objects = club_manager()

    class Meta:
        ordering = ["event_round", "table", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["event_round", "table", "side"], name="arrival_once_per_side"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table}, side {self.side + 1}, {self.event_round}"


class Ladder(models.Model):
    """A season competition over chosen club days: each person's points on those days,
    ranked by total or by average per day played, for those who played at least
    ``min_days``; a fund fed by ``per_player`` for each player on each day (shown, not
    collected: the money itself is the club's ledger)."""

    class RankedBy(models.TextChoices):
        TOTAL = "total", _("Total points over the days")
        AVERAGE = "average", _("Average points per day played")

    club = club_field()
    name = models.CharField(max_length=120)
    days = models.ManyToManyField(ClubDay, through="LadderDay", related_name="ladders")
    min_days = models.PositiveSmallIntegerField(default=1)
    ranked_by = models.CharField(max_length=8, choices=RankedBy.choices, default="total")
    per_player = models.DecimalField(
        max_digits=8, decimal_places=2, default=0, help_text="Into the fund per player per day."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # A name is the club's once, whatever its capitals.
            models.UniqueConstraint("club", Lower("name"), name="ladder_unique_name_any_case"),
            models.CheckConstraint(condition=Q(min_days__gte=1), name="ladder_min_days"),
            models.CheckConstraint(condition=Q(per_player__gte=0), name="ladder_per_player"),
            models.CheckConstraint(
                condition=Q(ranked_by__in=["total", "average"]), name="ladder_ranked_by_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class LadderDay(models.Model):
    """A club day that counts for a ladder."""

    club = club_field()
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ladder_days")
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="+")

    objects = club_manager()

    class Meta:
        ordering = ["ladder", "day"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "day"], name="ladderday_once"),
        ]

    def __str__(self) -> str:
        return f"{self.day} in {self.ladder}"
