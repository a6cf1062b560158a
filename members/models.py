"""People, club days, sign-ins at the door and seating at tables.

`members` knows nothing of scoring: the `scoring` app points at these rows (a game is
played at a `Table`), never the reverse.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from members.clubs.history import club_history
from members.clubs.models import (  # noqa: F401  (the migrations name the defaults here)
    OFFICERS_GROUP,
    RESERVED_SLUGS,
    Club,
    ClubQuerySet,
    ClubRole,
    ClubSlugRedirect,
    Paper,
    club_field,
    default_club_name,
    default_language,
    default_paper,
    default_time_zone,
    paper_for_language,
    validate_club_slug,
    validate_time_zone,
)
from members.clubs.scope import club_manager
from members.jobs.models import ClubJob  # noqa: F401  (its own module; the app's models)

# Room codes are typed on phones: no 0/O, 1/I/L, 5/S, 2/Z look-alikes.
ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
# Eight of 27 characters (27**8, about 2.8e11 codes) keep guessing hopeless under the
# limits in scoring/play/rooms.py; tables made before keep their six-character codes.
ROOM_CODE_LENGTH = 8


def new_room_code() -> str:
    """A fresh code for a new table, shown as two groups of four ("ABCD-EFGH")."""
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


def new_table_token() -> str:
    return secrets.token_urlsafe(24)


class PersonQuerySet(models.QuerySet):
    def members(self):
        return self.filter(kind=Person.Kind.MEMBER)

    def guests(self):
        return self.filter(kind=Person.Kind.GUEST)

    def active(self):
        return self.filter(merged_into__isnull=True).exclude(status=Person.Status.LAPSED)

    def current(self):
        """Records not merged away into another."""
        return self.filter(merged_into__isnull=True)

    def with_visits(self):
        """Annotate `visits`: the number of club days signed in (never a stored counter)."""
        return self.annotate(visits=models.Count("signins", distinct=True))

    def search(self, text: str):
        """People not merged away whose membership number starts with `text`, or whose
        names contain every word of `text` ("ann ad", "Adams, Ann"). Exact membership
        numbers come first, then by name."""
        text = " ".join((text or "").replace(",", " ").split())
        if not text:
            return self.none()
        number = text.lstrip("#").strip()
        query = Q(membership_number__istartswith=number)
        words = text.split()
        by_name = Q()
        for word in words:
            by_name &= (
                Q(first_name__icontains=word)
                | Q(last_name__icontains=word)
                | Q(membership_number__iexact=word.lstrip("#"))
            )
        query |= by_name
        exact = models.Case(
            models.When(membership_number__iexact=number, then=models.Value(0)),
            default=models.Value(1),
            output_field=models.IntegerField(),
        )
        return (
            self.current()
            .filter(query)
            .annotate(search_rank=exact)
            .order_by("search_rank", "last_name", "first_name", "pk")
        )


class Person(models.Model):
    """A member or a guest. A guest who joins becomes a member and keeps the same row,
    so every sign-in and game stays theirs."""

    class Kind(models.TextChoices):
        MEMBER = "member", gettext_lazy("Member")
        GUEST = "guest", gettext_lazy("Guest")

    class Status(models.TextChoices):
        ACTIVE = "active", gettext_lazy("Active")
        LAPSED = "lapsed", gettext_lazy("Lapsed")

    club = club_field()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MEMBER)
    membership_number = models.CharField(
        max_length=20,
        blank=True,
        null=True,
        help_text="The number on the membership card. Members only; unique in the club.",
    )
    first_name = models.CharField(max_length=80)
    last_name = models.CharField(max_length=80, blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    results_by_email = models.BooleanField(
        default=False, help_text="Send each closed club day's results by e-mail (chosen on /me/)."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    joined = models.DateField(null=True, blank=True, help_text="Date the member joined.")
    notes = models.TextField(
        blank=True,
        max_length=2000,
        help_text="Anything officers should know. At most 2,000 characters.",
    )
    brought_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="guests_brought",
        help_text="For a guest: the member who first brought them.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="people",
        help_text="The login this person uses to see their own page (one record per club).",
    )
    language = models.CharField(
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text="The language this member reads the site in (chosen on /me/); "
        "empty: the club's language.",
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
        help_text="Set when this record was merged into another; it is then kept only as a trace.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = club_history()
    objects = club_manager(PersonQuerySet)

    class Meta:
        ordering = ["last_name", "first_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "membership_number"],
                condition=Q(membership_number__isnull=False),
                name="person_unique_membership_number",
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="person_one_per_login",
            ),
            models.CheckConstraint(
                # A merged-away trace gives up its number (so the kept record can take it).
                condition=Q(kind="guest")
                | Q(membership_number__isnull=False)
                | Q(merged_into__isnull=False),
                name="person_member_has_number",
            ),
            models.CheckConstraint(
                condition=~Q(merged_into=F("id")), name="person_not_merged_into_self"
            ),
            models.CheckConstraint(condition=~Q(brought_by=F("id")), name="person_not_own_guest"),
            models.CheckConstraint(
                condition=Q(kind__in=["member", "guest"]), name="person_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["active", "lapsed"]), name="person_status_valid"
            ),
        ]
        indexes = [
            # Sign-in search at the door: "part of a name", case-insensitive.
            models.Index(
                "club", Lower("last_name"), Lower("first_name"), name="person_name_lower_idx"
            ),
            # The results pages' data fingerprint: the club's MAX(updated_at).
            models.Index(fields=["club", "updated_at"], name="person_updated_idx"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def display_name(self) -> str:
        if self.kind == self.Kind.GUEST:
            return _("%(name)s (guest)") % {"name": self.full_name}
        return self.full_name

    @property
    def is_guest(self) -> bool:
        return self.kind == self.Kind.GUEST

    @property
    def is_member(self) -> bool:
        return self.kind == self.Kind.MEMBER

    @property
    def is_lapsed(self) -> bool:
        return self.status == self.Status.LAPSED

    @property
    def is_merged(self) -> bool:
        return self.merged_into_id is not None


class MergeRecord(models.Model):
    """Two records of the same person made one: what was moved, by whom, when."""

    club = club_field()
    kept = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="merges_kept")
    removed = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="merges_removed")
    removed_snapshot = models.JSONField(
        help_text="The removed record's fields as they were before the merge."
    )
    moved = models.JSONField(default=dict, help_text="How many rows of each kind were moved.")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)

    objects = club_manager()

    class Meta:
        ordering = ["-merged_at"]

    def __str__(self) -> str:
        return f"{self.removed_snapshot.get('name', self.removed_id)} → {self.kept}"


class ClubDayQuerySet(models.QuerySet):
    def with_counts(self):
        """Annotate `signed_in`, `guests` and `rounds_count` (the club days list)."""
        return self.annotate(
            signed_in=models.Count("signins", distinct=True),
            guests=models.Count("signins", filter=Q(signins__person__kind="guest"), distinct=True),
            rounds_count=models.Count("rounds", distinct=True),
        )


class ClubDay(models.Model):
    """A day of play. The rule set it plays is chosen in `scoring` (`DayRules`)."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Open")
        CLOSED = "closed", gettext_lazy("Closed")

    club = club_field()
    date = models.DateField()
    title = models.CharField(max_length=120, blank=True, help_text="e.g. 'Thursday afternoon'.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    links_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Set when an officer keeps table links and room codes working past the "
        "end of the day's date; closing the day ends them anyway.",
    )
    board_code = models.CharField(
        max_length=ROOM_CODE_LENGTH,
        unique=True,
        default=new_room_code,
        help_text="Opens the day's room board (the results screen for the wall) while "
        "the day's table links work. Unique across the site.",
    )
    has_event = models.BooleanField(
        default=False,
        help_text="Whether the day is played as an event: the event's services set it "
        "when they make the event and clear it when they delete it. A table page looks "
        "for the event's clock only when it is set.",
    )

    objects = club_manager(ClubDayQuerySet)

    class Meta:
        ordering = ["-date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "closed"]), name="clubday_status_valid"
            ),
        ]
        indexes = [
            # Day results and standings by date range.
            models.Index(fields=["club", "date"], name="clubday_date_idx"),
        ]

    def __str__(self) -> str:
        label = date_format(self.date, "CLUB_DAY_FORMAT")
        return f"{label} — {self.title}" if self.title else label

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class SignIn(models.Model):
    """A person at the door on a club day."""

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="signins")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="signins")
    card_shown = models.BooleanField(default=False, help_text="Membership or guest card seen.")
    brought_by = models.ForeignKey(
        Person,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="guest_signins",
        help_text="For a guest: the member who brought them today.",
    )
    signed_in_at = models.DateTimeField(auto_now_add=True)
    signed_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    history = club_history()
    objects = club_manager()

    class Meta:
        ordering = ["-signed_in_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["day", "person"], name="signin_once_per_day"),
            models.CheckConstraint(
                condition=~Q(brought_by=F("person")), name="signin_not_brought_by_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} on {self.day}"


class Round(models.Model):
    """One seating of the day: everyone is seated at most once per round."""

    class Remainder(models.TextChoices):
        THREES = "threes", gettext_lazy("Three-player tables")
        SIT_OUT = "sit_out", gettext_lazy("Sit out")

    club = club_field()
    day = models.ForeignKey(ClubDay, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    started = models.BooleanField(
        default=False, help_text="Once play starts, seats can no longer be moved."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    remainder = models.CharField(
        max_length=10,
        choices=Remainder.choices,
        blank=True,
        help_text="What the draw did when the count was not a multiple of four.",
    )
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="Random seed of the last draw (to replay it exactly)."
    )
    drawn_at = models.DateTimeField(null=True, blank=True)

    objects = club_manager()

    class Meta:
        ordering = ["day", "number"]
        constraints = [
            models.UniqueConstraint(fields=["day", "number"], name="round_unique_number"),
            models.CheckConstraint(
                condition=Q(remainder__in=["", "threes", "sit_out"]), name="round_remainder_valid"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s, %(day)s") % {"number": self.number, "day": self.day}


class Table(models.Model):
    """A numbered physical table in a round. Its room code and secret token let one
    device score this table on this day only (checked in `scoring`)."""

    club = club_field()
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Unique across the site: a code or link always leads to its own club's table.
    room_code = models.CharField(max_length=ROOM_CODE_LENGTH, unique=True, default=new_room_code)
    token = models.CharField(max_length=64, unique=True, default=new_table_token)

    objects = club_manager()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """A person at a table. Positions 1–4 go round the table clockwise, so partners in
    a four-player game sit at 1 & 3 and 2 & 4."""

    club = club_field()
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    objects = club_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "person"], name="seat_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=6), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} at {self.table}, seat {self.position}"
