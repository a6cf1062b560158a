"""The other team's OK of a hand: waiting, confirmed, disputed or settled by an officer.

A hand gets a confirmation row when it is saved while its day (or its rule set) asks for
one (`DayRules.confirm_hands`, else `RuleSet.confirm_hands`); hands saved otherwise have
none and need nothing. Written only by :mod:`scoring.play.services.confirmations`;
django-simple-history keeps every change (who, when, from what to what).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from members.clubs.history import club_history
from members.clubs.scope import club_manager
from members.models import Person, club_field
from scoring.models.games import Game, Hand


class HandConfirmationQuerySet(models.QuerySet):
    def open(self):
        """Hands still waiting for the other team, or disputed: not yet final."""
        return self.filter(status__in=HandConfirmation.OPEN)


class HandConfirmation(models.Model):
    """Whether the other team has OK'd a hand (the version of it they saw)."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the other team")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        SETTLED = "settled", _("Settled by an officer")

    OPEN = (Status.WAITING, Status.DISPUTED)

    club = club_field()
    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="confirmation")
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="+", help_text="Copy of hand.game."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    hand_version = models.PositiveIntegerField(
        help_text="The version of the hand this status is about (a correction sets it again)."
    )
    keeper_team = models.ForeignKey(
        "scoring.GameTeam",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The side that entered the hand (its score keeper's); another side "
        "confirms. Empty when nobody in particular keeps the score.",
    )
    person = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player of the other team who confirmed or disputed the hand.",
    )
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The officer who settled the hand.",
    )
    reason = models.CharField(
        max_length=300, blank=True, help_text="Why the hand was disputed (optional)."
    )
    via = models.CharField(max_length=120, blank=True, help_text="The device, when not logged in.")
    updated_at = models.DateTimeField()

    history = club_history()
    objects = club_manager(HandConfirmationQuerySet)

    class Meta:
        ordering = ["game", "hand__number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "confirmed", "disputed", "settled"]),
                name="handconfirmation_status_valid",
            ),
        ]
        indexes = [
            # The day page and the results notes: the club's open confirmations (of
            # some games).
            models.Index(
                fields=["club", "game"],
                condition=Q(status__in=["waiting", "disputed"]),
                name="handconfirmation_open_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand}: {self.get_status_display()}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    @property
    def who(self) -> str:
        """Who decided it, in words: the player, or the officer who settled it."""
        if self.status == self.Status.SETTLED and self.officer_id:
            return self.officer.get_full_name() or self.officer.get_username()
        return self.person.full_name if self.person_id else ""


class KeeperChange(models.Model):
    """Who was named a game's score keeper, when and by whom: the history of
    ``Game.score_keeper`` after the game started (the table asks once when nobody was
    named and hands need the other team's OK). Written only by
    :func:`scoring.play.services.confirmations.name_score_keeper`."""

    club = club_field()
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="keeper_changes")
    person = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player named score keeper.",
    )
    named_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who named them, when logged in.",
    )
    via = models.CharField(max_length=120, blank=True, help_text="The device, when not logged in.")
    at = models.DateTimeField()

    objects = club_manager()

    class Meta:
        ordering = ["game", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.person} keeps the score of {self.game}"
