"""A club's booking settings (one row per club, made on demand) and the bookings of
its club days, with the waiting list in order."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from members.clubs.history import club_history
from members.clubs.models import club_field
from members.clubs.scope import club_manager
from members.models import ClubDay, Person

#: Places at a table: the cap counts people, four to a table.
TABLE_PLACES = 4


class BookingSettings(models.Model):
    """How a club takes bookings. One row per club, made the first time it is read
    (:func:`members.bookings.services.rules.booking_settings`)."""

    class Cutoff(models.TextChoices):
        NONE = "none", _("No cut-off: members may cancel until play starts")
        WEEKDAY = "weekday", _("A weekday before play (e.g. the Friday before)")
        HOURS = "hours", _("A number of hours before play")

    club = club_field(one=True)
    table_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        # What the form says of 0, before the database's check would refuse it.
        validators=[
            MinValueValidator(
                1, message=_("A day takes at least one table; leave it empty for no limit.")
            )
        ],
        help_text="Most tables a day takes bookings for (four people a table); empty: no cap.",
    )
    play_time = models.TimeField(
        default=datetime.time(14, 0), help_text="When play starts on a club day."
    )
    cutoff = models.CharField(max_length=10, choices=Cutoff.choices, default=Cutoff.NONE)
    cutoff_weekday = models.PositiveSmallIntegerField(
        default=4, help_text="The weekday of the cut-off (0 Monday … 6 Sunday), to its end."
    )
    cutoff_hours = models.PositiveSmallIntegerField(default=24)
    guests_allowed = models.BooleanField(default=True)
    cutoff_message = models.CharField(
        max_length=300,
        blank=True,
        help_text="What a member who cancels too late is told (the site's words when empty).",
    )
    seat_partners_together = models.BooleanField(
        default=True, help_text="The draw seats booked partners together, as partners."
    )
    updated_at = models.DateTimeField(auto_now=True)

    history = club_history()
    objects = club_manager()

    class Meta:
        ordering = ["club"]
        verbose_name_plural = "booking settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(cutoff__in=["none", "weekday", "hours"]),
                name="bookingsettings_cutoff_valid",
            ),
            models.CheckConstraint(
                condition=Q(cutoff_weekday__lte=6), name="bookingsettings_weekday_range"
            ),
            models.CheckConstraint(
                condition=Q(table_cap__isnull=True) | Q(table_cap__gte=1),
                name="bookingsettings_cap_positive",
            ),
            models.CheckConstraint(
                condition=Q(cutoff_hours__lte=336), name="bookingsettings_hours_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Booking settings of {self.club_id}"

    @property
    def places(self) -> int | None:
        return None if self.table_cap is None else self.table_cap * TABLE_PLACES


class BookingQuerySet(models.QuerySet):
    def active(self):
        """Booked or waiting: what holds a person on the day."""
        return self.filter(status__in=Booking.ACTIVE)

    def booked(self):
        return self.filter(status=Booking.Status.BOOKED)

    def waiting(self):
        return self.filter(status=Booking.Status.WAITING).order_by("queued_at", "pk")


class Booking(models.Model):
    """A member's booking of a club day: alone, with a member as partner, or with a
    guest named by the member. Past the day's cap it waits, in the order it came
    (``queued_at``). A booking is never deleted: cancelled, it stays on the day's list."""

    class Status(models.TextChoices):
        BOOKED = "booked", _("Booked")
        WAITING = "waiting", _("Waiting list")
        CANCELLED = "cancelled", _("Cancelled")

    ACTIVE = (Status.BOOKED, Status.WAITING)

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="bookings")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="bookings")
    partner = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="partner_bookings",
        help_text="A member booked with this one, as their partner.",
    )
    guest_name = models.CharField(
        max_length=160, blank=True, help_text="A guest booked by the member (a name only)."
    )
    guest = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="guest_bookings",
        help_text="The guest's record, once signed in at the door.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.BOOKED)
    places = models.PositiveSmallIntegerField(default=1)
    queued_at = models.DateTimeField(
        default=timezone.now, help_text="The waiting list's order: first come, first served."
    )
    looking_for_partner = models.BooleanField(default=False)
    no_show = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    history = club_history()
    objects = club_manager(BookingQuerySet)

    class Meta:
        ordering = ["day", "queued_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "person"],
                condition=Q(status__in=["booked", "waiting"]),
                name="booking_once_per_day",
            ),
            models.UniqueConstraint(
                fields=["day", "partner"],
                condition=Q(status__in=["booked", "waiting"]) & Q(partner__isnull=False),
                name="booking_partner_once_per_day",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["booked", "waiting", "cancelled"]),
                name="booking_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(places__gte=1) & Q(places__lte=2), name="booking_places_range"
            ),
            models.CheckConstraint(
                condition=~Q(partner=F("person")), name="booking_not_own_partner"
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | Q(guest_name=""),
                name="booking_partner_or_guest",
            ),
        ]
        indexes = [
            # A day's list and its waiting list in order (status, then queued_at).
            models.Index(fields=["day", "status", "queued_at"], name="booking_day_status_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.person} on {self.day} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def with_whom(self) -> str:
        if self.partner_id:
            return self.partner.full_name
        return self.guest_name
