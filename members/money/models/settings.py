"""A club's money settings (currency, table-money rates, the bank file's columns, dues'
grace) and a day's own rates (a free day, or other rates)."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from members.clubs.models import club_field
from members.clubs.scope import club_manager

ZERO = Decimal("0.00")


def default_currency() -> str:
    return (getattr(settings, "CLUB_CURRENCY", "") or "USD").upper()


def money_field(**kwargs) -> models.DecimalField:
    """An exact amount: 12 digits, 2 places."""
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class RateKind(models.TextChoices):
    MEMBER = "member", gettext_lazy("Member")
    VISITOR = "visitor", gettext_lazy("Visitor")
    REDUCED = "reduced", gettext_lazy("Reduced")


class DateFormat(models.TextChoices):
    """How the bank's file writes a date."""

    ISO = "%Y-%m-%d", "2026-12-31"
    DMY = "%d/%m/%Y", "31/12/2026"
    MDY = "%m/%d/%Y", "12/31/2026"
    DMY_DOTS = "%d.%m.%Y", "31.12.2026"
    DMY_DASHES = "%d-%m-%Y", "31-12-2026"


class MoneySettings(models.Model):
    """One row per club (made on first use): its currency, table-money rates, the bank
    file's column names (mapped once), and what a lapsed member pays at the door."""

    club = club_field(one=True)
    currency = models.CharField(
        max_length=3,
        default=default_currency,
        validators=[RegexValidator(r"^[A-Z]{3}$", gettext_lazy("Use a three-letter code: USD."))],
        help_text="The ISO code of the club's money (USD, EUR, BRL ...).",
    )
    member_rate = money_field(default=ZERO, validators=[MinValueValidator(ZERO)])
    visitor_rate = money_field(default=ZERO, validators=[MinValueValidator(ZERO)])
    reduced_rate = money_field(default=ZERO, validators=[MinValueValidator(ZERO)])
    lapsed_pay_visitor_rate = models.BooleanField(
        default=False, help_text="A member whose dues have lapsed pays the visitor rate."
    )
    grace_days = models.PositiveSmallIntegerField(
        default=30, help_text="Days after paid-until before the door shows a member as lapsed."
    )
    bank_date_column = models.CharField(max_length=80, blank=True)
    bank_amount_column = models.CharField(max_length=80, blank=True)
    bank_reference_column = models.CharField(max_length=80, blank=True)
    bank_date_format = models.CharField(
        max_length=12, choices=DateFormat.choices, default=DateFormat.ISO
    )

    objects = club_manager()

    class Meta:
        ordering = ["club"]
        verbose_name_plural = "money settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(member_rate__gte=0) & Q(visitor_rate__gte=0) & Q(reduced_rate__gte=0),
                name="moneysettings_rates_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Money settings of club {self.club_id}"

    @classmethod
    def load(cls) -> MoneySettings:
        """The active club's settings (made with the defaults the first time)."""
        found, _ = cls.objects.get_or_create()
        return found

    @classmethod
    def current(cls) -> MoneySettings:
        """The active club's settings for reading: the stored row, or the defaults
        (unsaved) when there is none yet, so a page that only reads writes nothing."""
        return cls.objects.first() or cls()

    @property
    def bank_mapped(self) -> bool:
        return bool(
            self.bank_date_column and self.bank_amount_column and self.bank_reference_column
        )

    def rate(self, kind: str) -> Decimal:
        return {
            RateKind.MEMBER: self.member_rate,
            RateKind.VISITOR: self.visitor_rate,
            RateKind.REDUCED: self.reduced_rate,
        }[kind]


class DayRate(models.Model):
    """A club day's own table money: free, or rates other than the club's."""

    club = club_field()
    day = models.OneToOneField("members.ClubDay", on_delete=models.CASCADE, related_name="rate")
    free = models.BooleanField(default=False, help_text="Nobody pays table money this day.")
    member_rate = money_field(null=True, blank=True, validators=[MinValueValidator(ZERO)])
    visitor_rate = money_field(null=True, blank=True, validators=[MinValueValidator(ZERO)])
    reduced_rate = money_field(null=True, blank=True, validators=[MinValueValidator(ZERO)])

    objects = club_manager()

    class Meta:
        ordering = ["day"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(member_rate__isnull=True) | Q(member_rate__gte=0))
                & (Q(visitor_rate__isnull=True) | Q(visitor_rate__gte=0))
                & (Q(reduced_rate__isnull=True) | Q(reduced_rate__gte=0)),
                name="dayrate_rates_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Rates of {self.day}"

    def rate(self, kind: str, club_settings: MoneySettings) -> Decimal:
        if self.free:
            return ZERO
        own = {
            RateKind.MEMBER: self.member_rate,
            RateKind.VISITOR: self.visitor_rate,
            RateKind.REDUCED: self.reduced_rate,
        }[kind]
        return club_settings.rate(kind) if own is None else own
