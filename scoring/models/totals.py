"""Stored totals: each person's finished games of a season added up, and each
partnership's (two people who played on the same side), kept up to date by the play
services in the transaction that finishes, corrects or re-opens a game
(:mod:`scoring.play.services.totals`) and rebuilt by ``manage.py rebuild_totals``.
The season standings read them, so the first view after a game finishes is a small
read (Tabbycat's stored team scores are the model).

:func:`team_aggregates` is the one definition of how a team's per-game statistics
(stored on ``GameTeam``) add up: the writers here and the standings of any other period
(:mod:`scoring.results.standings.individual`) both use it.
"""

from django.db import models
from django.db.models import Count, F, Max, Q, Sum

from members.clubs.scope import club_manager
from members.models import Person, club_field
from scoring.models.results import Season

#: Row key → ``GameTeam`` field, summed over a person's (or pair's) finished games.
TEAM_SUMS: dict[str, str] = {
    "points_for": "total",
    "points_against": "points_against",
    "hands": "hands",
    "natural_canastas": "natural_canastas",
    "mixed_canastas": "mixed_canastas",
    "red_threes": "red_threes",
    "times_out": "times_out",
    "concealed_outs": "concealed_outs",
    "perfect_cuts": "perfect_cuts",
}
#: Every stored statistic, in the order of :func:`team_aggregates`.
STAT_FIELDS = ("games", "wins", *TEAM_SUMS, "best_game", "best_hand")


def team_aggregates(prefix: str = "team__") -> dict:
    """The aggregates of a TeamPlayer queryset grouped by person (or pair): games,
    wins, the sums of :data:`TEAM_SUMS`, the best game and the best hand."""
    sums = {key: Sum(f"{prefix}{name}") for key, name in TEAM_SUMS.items()}
    return {
        "games": Count("pk"),
        "wins": Count("pk", filter=Q(**{f"{prefix}won": True})),
        **sums,
        "best_game": Max(f"{prefix}total"),
        "best_hand": Max(f"{prefix}best_hand"),
    }


class Stats(models.Model):
    """The statistics of finished games, added up (see :func:`team_aggregates`)."""

    club = club_field()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points_for = models.BigIntegerField(default=0)
    points_against = models.BigIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    natural_canastas = models.PositiveIntegerField(default=0)
    mixed_canastas = models.PositiveIntegerField(default=0)
    red_threes = models.PositiveIntegerField(default=0)
    times_out = models.PositiveIntegerField(default=0)
    concealed_outs = models.PositiveIntegerField(default=0)
    perfect_cuts = models.PositiveIntegerField(default=0)
    best_game = models.IntegerField(null=True, blank=True)
    best_hand = models.IntegerField(null=True, blank=True)

    #: A merge of two people leaves these rows alone: they are added up again once it
    #: commits (``scoring.results.receivers.ratings_after_merge``).
    rebuilt_after_merge = True

    objects = club_manager()

    class Meta:
        abstract = True

    def stats(self) -> dict:
        return {name: getattr(self, name) for name in STAT_FIELDS}


class Totals(Stats):
    """:class:`Stats` of one season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")

    class Meta:
        abstract = True


def _game() -> models.ForeignKey:
    """The game a personal best happened in."""
    return models.ForeignKey(
        "scoring.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )


class PersonTotal(Stats):
    """All of one person's finished games added up, with their personal bests and
    longest winning streak (what their page shows): one row per person who finished a
    game, written with the season totals (:mod:`scoring.play.services.totals`).

    A best is the first game (or hand) reaching it, in the order the games were
    played; ``best_game`` and ``best_hand`` (the values) are among :data:`STAT_FIELDS`.
    """

    person = models.OneToOneField(Person, on_delete=models.CASCADE, related_name="+")
    best_game_in = _game()
    best_hand_in = _game()
    best_hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    most_canastas = models.PositiveIntegerField(default=0)
    most_canastas_in = _game()
    most_red_threes = models.PositiveIntegerField(default=0)
    most_red_threes_in = _game()
    most_red_threes_number = models.PositiveSmallIntegerField(null=True, blank=True)
    streak = models.PositiveIntegerField(default=0)
    streak_start = models.DateField(null=True, blank=True)
    streak_end = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.person}: {self.games} games"


class SeasonTotal(Totals):
    """One person's finished games of one season, added up (teams of one count too)."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["season", "person"]
        constraints = [
            models.UniqueConstraint(fields=["season", "person"], name="season_total_once"),
        ]

    def __str__(self) -> str:
        return f"{self.person} in {self.season}: {self.games} games"


class PartnershipTotal(Totals):
    """Two partners' finished games together in one season, added up (the team's
    numbers, once per game). ``person`` has the lower id."""

    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["season", "person", "partner"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "person", "partner"], name="partnership_total_once"
            ),
            models.CheckConstraint(
                condition=Q(person__lt=F("partner")), name="partnership_total_pair_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} & {self.partner} in {self.season}: {self.games} games"
