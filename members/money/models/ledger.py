"""The ledger: one row per charge, payment or reversal on a person's account, never
edited in place (a mistake is reversed by a new row that says who and why), and each
person's money profile (their rate, who pays for them, their bank reference, dues)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy

from members.clubs.history import club_history
from members.clubs.models import club_field
from members.clubs.scope import club_manager
from members.money.models.settings import RateKind, money_field


class BankImport(models.Model):
    """One bank statement file whose matched lines were written as payments. The file's
    hash is unique per club: the same file confirmed twice writes once."""

    club = club_field()
    file_hash = models.CharField(max_length=64, help_text="SHA-256 of the file's bytes.")
    filename = models.CharField(max_length=200, blank=True)
    lines = models.PositiveIntegerField(default=0, help_text="Payments written.")
    total = money_field(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "file_hash"], name="bankimport_once"),
        ]

    def __str__(self) -> str:
        return f"{self.filename or self.file_hash[:12]} ({self.lines})"


class EntryQuerySet(models.QuerySet):
    def charges(self):
        return self.filter(kind=Entry.Kind.CHARGE)

    def payments(self):
        return self.filter(kind=Entry.Kind.PAYMENT)


class Entry(models.Model):
    """A line of a person's account. ``amount`` is always positive: a charge adds to
    what they owe, a payment to what they paid, a reversal takes back the entry it
    points at (once, with a reason)."""

    class Kind(models.TextChoices):
        CHARGE = "charge", gettext_lazy("Charge")
        PAYMENT = "payment", gettext_lazy("Payment")
        REVERSAL = "reversal", gettext_lazy("Reversal")

    class Source(models.TextChoices):
        TABLE = "table", gettext_lazy("Table money")
        DUES = "dues", gettext_lazy("Dues")
        OTHER = "other", gettext_lazy("Other")
        CASH = "cash", gettext_lazy("Cash")
        CHEQUE = "cheque", gettext_lazy("Cheque")
        TRANSFER = "transfer", gettext_lazy("Transfer")
        BANK = "bank", gettext_lazy("Bank import")

    CHARGE_SOURCES = ("table", "dues", "other")
    PAYMENT_SOURCES = ("cash", "cheque", "transfer", "bank")

    club = club_field()
    person = models.ForeignKey(
        "members.Person",
        on_delete=models.PROTECT,
        related_name="money_entries",
        help_text="Whose account the line is on.",
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    source = models.CharField(max_length=10, choices=Source.choices, blank=True)
    amount = money_field()
    date = models.DateField(help_text="The day the money is for (a club day, a payment's day).")
    attendee = models.ForeignKey(
        "members.Person",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="money_charged_elsewhere",
        help_text="Who the charge is for, when it is on another person's account.",
    )
    day = models.ForeignKey(
        "members.ClubDay", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signin = models.ForeignKey(
        "members.SignIn",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="money_entries",
        help_text="The sign-in whose table money this is (one charge per sign-in).",
    )
    for_sign_in = models.ForeignKey(
        "members.SignIn",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The sign-in a table charge is for, also on a changed charge replacing it.",
    )
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversal",
        help_text="The entry this one takes back.",
    )
    period = models.ForeignKey(
        "money.RenewalPeriod",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        help_text="The renewal a dues charge or dues payment is for.",
    )
    moved_paid_until = models.BooleanField(
        default=False, help_text="This dues payment moved the member's paid-until forward."
    )
    paid_until_before = models.DateField(
        null=True, blank=True, help_text="Paid-until before this dues payment moved it."
    )
    reason = models.CharField(max_length=300, blank=True)
    note = models.CharField(max_length=200, blank=True)
    key = models.CharField(
        max_length=64, null=True, blank=True, help_text="The form's key: a double tap writes once."
    )
    bank_import = models.ForeignKey(
        BankImport, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager(EntryQuerySet)

    class Meta:
        ordering = ["date", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="entry_amount_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=["charge", "payment", "reversal"]), name="entry_kind_valid"
            ),
            # A reversal, and only a reversal, points at the entry it takes back, and says why.
            models.CheckConstraint(
                condition=(Q(kind="reversal") & Q(reverses__isnull=False) & ~Q(reason=""))
                | (~Q(kind="reversal") & Q(reverses__isnull=True)),
                name="entry_reversal_points_back",
            ),
            models.CheckConstraint(
                condition=(Q(kind="charge") & Q(source__in=["table", "dues", "other"]))
                | (Q(kind="payment") & Q(source__in=["cash", "cheque", "transfer", "bank"]))
                | Q(kind="reversal", source=""),
                name="entry_source_fits_kind",
            ),
            models.CheckConstraint(
                condition=~Q(attendee=F("person")), name="entry_attendee_not_account"
            ),
            models.UniqueConstraint(
                fields=["signin"], condition=Q(signin__isnull=False), name="entry_one_per_signin"
            ),
            models.UniqueConstraint(
                fields=["club", "key"], condition=Q(key__isnull=False), name="entry_key_once"
            ),
        ]
        indexes = [
            # A person's account, in date order (their page, their statement).
            models.Index(fields=["club", "person", "date"], name="entry_person_date_idx"),
            # The balances of the club up to a date (the treasurer's list, club_statement).
            models.Index(fields=["club", "date"], name="entry_club_date_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount} on {self.date} ({self.person_id})"

    @property
    def is_reversed(self) -> bool:
        try:
            return self.reversal is not None
        except Entry.DoesNotExist:
            return False


class MoneyProfile(models.Model):
    """A person's money settings: the rate they pay, who pays for them, the reference
    their bank transfers carry, their membership type and how long their dues run."""

    club = club_field()
    person = models.OneToOneField(
        "members.Person", on_delete=models.PROTECT, related_name="money_profile"
    )
    rate = models.CharField(
        max_length=10,
        choices=RateKind.choices,
        blank=True,
        help_text="Empty: the member rate for members, the visitor rate for guests.",
    )
    payer = models.ForeignKey(
        "members.Person",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pays_for",
        help_text="Whose account this person's table money goes on (a partner, a host).",
    )
    reference = models.CharField(
        max_length=40,
        blank=True,
        help_text="What this person's bank transfers carry as reference (besides the number).",
    )
    membership_type = models.ForeignKey(
        "money.MembershipType", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    paid_until = models.DateField(null=True, blank=True, help_text="Dues paid up to this date.")

    history = club_history()
    objects = club_manager()

    class Meta:
        ordering = ["person"]
        constraints = [
            models.CheckConstraint(condition=~Q(payer=F("person")), name="profile_not_own_payer"),
            models.UniqueConstraint(
                fields=["club", "reference"],
                condition=~Q(reference=""),
                name="profile_reference_once",
            ),
            models.CheckConstraint(
                condition=Q(rate__in=["", "member", "visitor", "reduced"]),
                name="profile_rate_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Money profile of {self.person_id}"
