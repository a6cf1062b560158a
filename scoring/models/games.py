"""Games, their teams and players, hands and each team's part of a hand, as stored rows.

A hand keeps its raw inputs (so it can be corrected and scored again); the team rows
keep what the engine computed, written only by the play services."""

import re

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.clubs.history import club_history
from members.clubs.scope import club_manager
from members.models import ClubDay, Person, Table, club_field
from scoring import engine
from scoring.models.rulesets import RuleSet, rules_from_settings


class GameQuerySet(models.QuerySet):
    def locked(self, pk) -> "Game":
        """The game's row, locked until the transaction ends (call inside ``atomic``):
        every writer of a game takes it first (the next hand, a correction, an undo, a
        confirmation, ending a game as it stands), so two devices saving at once queue up.

        The lock is PostgreSQL's FOR NO KEY UPDATE (what an update of its fields takes):
        writers of the game queue up, and rows that merely point at it (a person's best
        game in the stored totals) can still be written. With FOR UPDATE a rebuild of the
        totals, or another game ending, waited for a correction that waited for them:
        "deadlock detected". On SQLite the IMMEDIATE transaction mode serialises writers."""
        return self.select_for_update(of=("self",), no_key=True).select_related("table").get(pk=pk)

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
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    club = club_field()
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
    ended_early = models.BooleanField(
        default=False,
        help_text="Ended as it stood when its club day closed (an officer's choice): the "
        "side ahead won. It stays so when a hand is corrected, while one side leads.",
    )
    version = models.PositiveIntegerField(default=0, help_text="Bumped on every saved change.")
    failed_melds = models.JSONField(
        default=dict,
        blank=True,
        help_text="Failed initial melds per team in the hand being played, for every device "
        'at the table: {"hand": next hand number, "counts": [per team]}.',
    )

    objects = club_manager(GameQuerySet)

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
            # Standings and exports: the club's finished games in a date range.
            models.Index(fields=["club", "status", "day_date"], name="game_status_date_idx"),
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

    def dealer_for(self, number: int, order: list[int]) -> int | None:
        """The person id who deals hand ``number``: the deal passes clockwise (to the
        left) from the game's first dealer. ``order``: the players' person ids clockwise
        from game seat 1 (:func:`scoring.play.partnerships.seat_order`)."""
        if not order:
            return None
        start = order.index(self.first_dealer_id) if self.first_dealer_id in order else 0
        return order[(start + number - 1) % len(order)]


class GameTeam(models.Model):
    """One side of a game (a partnership, or a single player in two-player games) with
    its running totals, written by `scoring.play.services` with every hand."""

    club = club_field()
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="teams")
    index = models.PositiveSmallIntegerField(help_text="0-based position in the game's teams.")
    players = models.ManyToManyField(Person, through="TeamPlayer", related_name="game_teams")
    total = models.IntegerField(default=0)
    minimum = models.PositiveSmallIntegerField(
        default=50, help_text="Initial-meld requirement for the next hand."
    )
    points_against = models.IntegerField(
        default=0,
        help_text="The other sides' average total (the opponent's total when there are two).",
    )
    hands = models.PositiveSmallIntegerField(default=0)
    natural_canastas = models.PositiveIntegerField(
        default=0,
        help_text="Canastas without a wild card (natural ones, and sevens, aces and "
        "sequences in the games that have them).",
    )
    mixed_canastas = models.PositiveIntegerField(
        default=0, help_text="Canastas with wild cards (mixed ones, and wild canastas)."
    )
    canastas_by_kind = models.JSONField(
        default=dict,
        blank=True,
        help_text="Canastas of each kind of the game's rules, by kind (natural, mixed, "
        "sevens, sequence ...).",
    )
    red_threes = models.PositiveIntegerField(default=0)
    times_out = models.PositiveIntegerField(default=0)
    concealed_outs = models.PositiveIntegerField(default=0)
    perfect_cuts = models.PositiveIntegerField(default=0)
    best_hand = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)

    objects = club_manager()

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="gameteam_unique_index"),
        ]
        indexes = [
            # Club records: the club's highest game.
            models.Index(fields=["club", "-total"], name="gameteam_total_idx"),
        ]

    def __str__(self) -> str:
        return f"Team {self.index + 1} of {self.game}"

    @property
    def player_names(self) -> str:
        """ "Ann Able & Cat Cole": the players in seat order (prefetch `memberships`)."""
        names = [m.person.full_name for m in self.memberships.all()]
        return " & ".join(names)


class TeamPlayer(models.Model):
    club = club_field()
    team = models.ForeignKey(GameTeam, on_delete=models.CASCADE, related_name="memberships")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="team_memberships")
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="players", help_text="Copy of team.game."
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = club_manager()

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

    club = club_field()
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

    history = club_history()
    objects = club_manager()

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
        return via_words(self.entered_via) or _("another device")


_TABLE_LINK = re.compile(r"^Table (\d+) link$")
_NAMED_PHONE = re.compile(r"^(.+) \(Table (\d+) link\)$")
_REPLACED = re.compile(r"^replaced by (.+) \(two phones entered hand (\d+)\)$")
#: Stored when neither a person nor a table link is known (a script).
SOME_TABLE_LINK = "a table link"
#: The longest reason django-simple-history keeps (its ``history_change_reason``).
REASON_MAX = 100


def via_words(via: str) -> str:
    """A stored "Table 3 link" or "Betty (Table 3 link)" (how a device without a login
    entered a hand, kept in English; the name is the one the phone was given) in the
    reader's language: "Table 3 link", "Betty's phone (Table 3 link)". A stored
    :func:`replaced_reason` gives who replaced the hand, in the same words (the fact
    that it was replaced: :func:`replaced_words`)."""
    match = _REPLACED.match(via or "")
    if match:
        return via_words(match.group(1))
    match = _TABLE_LINK.match(via or "")
    if match:
        return gettext("Table %(number)s link") % {"number": match.group(1)}
    match = _NAMED_PHONE.match(via or "")
    if match:
        return gettext("%(name)s's phone (Table %(number)s link)") % {
            "name": match.group(1),
            "number": match.group(2),
        }
    if via == SOME_TABLE_LINK:
        return gettext("a table link")
    return via or ""


def replaced_reason(who: str, number: int) -> str:
    """What the history keeps (in English, like ``via``) when a second phone replaced
    hand ``number`` with its own: "replaced by Betty (Table 3 link) (two phones entered
    hand 3)". A long ``who`` (a person's full name, a phone's name) is shortened, keeping
    its table link, so the whole fits the history's column (:data:`REASON_MAX`)."""
    who = who or SOME_TABLE_LINK

    def reason(who: str) -> str:
        return f"replaced by {who} (two phones entered hand {number})"

    over = len(reason(who)) - REASON_MAX
    if over <= 0:
        return reason(who)
    named = _NAMED_PHONE.match(who)
    name, rest = (named.group(1), who[named.end(1) :]) if named else (who, "")
    keep = len(name) - over - 1  # room for "…"
    if keep >= 1:
        return reason(f"{name[:keep].rstrip()}…{rest}")
    return reason(who)[:REASON_MAX]  # a hand number no game reaches


def replaced_words(reason: str | None) -> str:
    """A stored :func:`replaced_reason` as the fact, in the reader's language ("" for any
    other reason): "Replaced what another phone saved first (two phones entered hand
    3)." Who did it is said by :func:`via_words` (or by the person's name)."""
    match = _REPLACED.match(reason or "")
    if not match:
        return ""
    return gettext(
        "Replaced what another phone saved first (two phones entered hand %(number)s)."
    ) % {"number": match.group(2)}


class TeamHand(models.Model):
    """A team's derived result for one hand (rebuilt from `Hand.inputs`)."""

    club = club_field()
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="team_hands")
    team = models.ForeignKey(GameTeam, on_delete=models.CASCADE, related_name="team_hands")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    melded_points = models.IntegerField(default=0)
    natural_canastas = models.PositiveSmallIntegerField(
        default=0, help_text="Canastas without a wild card, of any kind."
    )
    mixed_canastas = models.PositiveSmallIntegerField(
        default=0, help_text="Canastas with wild cards, of any kind."
    )
    canastas_by_kind = models.JSONField(
        default=dict, blank=True, help_text="Canastas of each kind in this hand, by kind."
    )
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

    objects = club_manager()

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
            # A game's hands' team rows (the table page, the preview), read within the
            # club: without it SQLite reads them through teamhand_score_idx, every team
            # hand of the club (the table page took 95 ms of CPU instead of 17 on a
            # 32,000-hand league).
            models.Index(fields=["club", "hand"], name="teamhand_club_hand_idx"),
            # Club records: the club's highest hand.
            models.Index(fields=["club", "-hand_score"], name="teamhand_score_idx"),
            # Club records: hands with four (or more) red threes, a rare few rows.
            models.Index(
                fields=["club", "red_threes"],
                condition=Q(red_threes__gte=4),
                name="teamhand_four_red_threes_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.hand}: {self.hand_score}"
