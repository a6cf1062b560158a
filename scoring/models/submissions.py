"""Writes sent from a table device, remembered by the key its form was drawn with.

A hand form carries a key made when the page was drawn (a hidden field). The play
services store the key with what it wrote, in the same transaction, and answer a repeat
of the key with the first result: a retry, a double tap, a reload or a form sent again
when the connection comes back never writes twice (Stripe's idempotency keys are the
model).
"""

from django.db import models

from members.clubs.scope import club_manager
from members.models import club_field
from scoring.models.games import Game, Hand


class Submission(models.Model):
    """One write a table device sent: its key, what kind of write, which hand."""

    class Kind(models.TextChoices):
        HAND = "hand", "Hand saved"
        REPLACE = "replace", "Hand replaced after a conflict"
        FAILED_MELD = "failed", "Failed initial meld counted"
        UNFAILED_MELD = "unfailed", "Failed initial meld taken back"

    club = club_field()
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="submissions")
    key = models.CharField(
        max_length=80, help_text="Made when the device's form was drawn; one write per key."
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    number = models.PositiveSmallIntegerField(help_text="The hand it was for.")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()

    objects = club_manager()

    class Meta:
        ordering = ["game", "-pk"]
        constraints = [
            # The lookup of a repeat (game, key) is served by this constraint's index.
            models.UniqueConstraint(fields=["game", "key"], name="submission_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: hand {self.number} of {self.game}"
