"""A bank statement's CSV matched to members and written as payments: a preview first
(nothing written), then every matched line at once, once per file (its hash)."""

from __future__ import annotations

import datetime
import re
from dataclasses import asdict, dataclass, field
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from members.models import Person
from members.money.bank import BankFileError, Mapping, file_hash, read_bank_csv
from members.money.models import BankImport, Entry, MoneyProfile, MoneySettings
from members.money.services.errors import MoneyRefused


@dataclass
class PreviewLine:
    line: int
    date: str
    amount: str
    reference: str
    person: int | None = None
    name: str = ""
    problem: str = ""
    warning: str = ""

    @property
    def day(self) -> datetime.date:
        """The line's date (kept as ISO text in the session), for the page to write
        in the language's own way."""
        return datetime.date.fromisoformat(self.date)


@dataclass
class Preview:
    file_hash: str
    filename: str
    lines: list[PreviewLine] = field(default_factory=list)
    done: bool = False  # this file was imported before

    @property
    def matched(self) -> list[PreviewLine]:
        return [line for line in self.lines if line.person]

    @property
    def unmatched(self) -> list[PreviewLine]:
        return [line for line in self.lines if not line.person]

    @property
    def total(self) -> Decimal:
        return sum((Decimal(line.amount) for line in self.matched), Decimal("0.00"))

    def to_json(self) -> dict:
        return {**asdict(self), "lines": [asdict(line) for line in self.lines]}

    @classmethod
    def from_json(cls, data: dict) -> Preview:
        return cls(
            file_hash=data["file_hash"],
            filename=data["filename"],
            lines=[PreviewLine(**line) for line in data["lines"]],
            done=data.get("done", False),
        )


def club_mapping(club: MoneySettings | None = None) -> Mapping:
    club = club or MoneySettings.current()
    if not club.bank_mapped:
        raise MoneyRefused(
            _(
                "Map the bank file's columns first (date, amount, reference) on the money "
                "settings page; it is done once."
            )
        )
    return Mapping(
        club.bank_date_column,
        club.bank_amount_column,
        club.bank_reference_column,
        club.bank_date_format,
    )


def _words(text: str) -> set[str]:
    return {word.casefold() for word in re.findall(r"[\w#-]+", text)}


#: A stored reference shorter than this names nobody (too easily inside other words).
MIN_REFERENCE = 4


def _as_word(reference: str):
    return re.compile(rf"(?<!\w){re.escape(reference)}(?!\w)")


class Matcher:
    """Finds the member a reference names: their stored reference or their membership
    number, each as whole words of the text. Two at once is nobody."""

    def __init__(self):
        people = Person.objects.current().members().exclude(membership_number__isnull=True)
        self.by_number = {
            person.membership_number.casefold(): person
            for person in people.only("pk", "first_name", "last_name", "membership_number")
        }
        self.by_reference = [
            (_as_word(profile.reference.casefold()), profile.person)
            for profile in MoneyProfile.objects.exclude(reference="").select_related("person")
            if not profile.person.is_merged and len(profile.reference) >= MIN_REFERENCE
        ]

    def find(self, reference: str) -> tuple[Person | None, str]:
        text = reference.casefold()
        found = {p.pk: p for ref, p in self.by_reference if ref.search(text)}
        if not found:
            for word in _words(reference):
                person = self.by_number.get(word.lstrip("#"))
                if person is not None:
                    found[person.pk] = person
        if len(found) == 1:
            return next(iter(found.values())), ""
        if not found:
            return None, _("No member's number or reference in it.")
        names = ", ".join(sorted(p.full_name for p in found.values()))
        return None, _("It names several members (%(names)s).") % {"names": names}


def preview_import(filename: str, data: bytes) -> Preview:
    """Read and match a bank file; nothing is written."""
    mapping = club_mapping()
    try:
        lines = read_bank_csv(data, mapping)
    except BankFileError as error:
        raise MoneyRefused(str(error)) from error
    digest = file_hash(data)
    preview = Preview(file_hash=digest, filename=(filename or "")[:200])
    preview.done = BankImport.objects.filter(file_hash=digest).exists()
    matcher = Matcher()
    earlier = _earlier_payments(lines)
    for line in lines:
        person, problem = matcher.find(line.reference)
        again = person is not None and (line.date, line.amount, person.pk) in earlier
        preview.lines.append(
            PreviewLine(
                line=line.line,
                date=line.date.isoformat(),
                amount=str(line.amount),
                reference=line.reference,
                person=person.pk if person else None,
                name=person.full_name if person else "",
                problem=problem,
                warning=_(
                    "A payment of this amount on this day is on this member's account "
                    "already: is this statement overlapping an earlier one? Untick the "
                    "line if so."
                )
                if again
                else "",
            )
        )
    return preview


def _earlier_payments(lines) -> set:
    """(date, amount, person) of the payments already recorded on the file's days."""
    days = {line.date for line in lines}
    found = Entry.objects.payments().filter(date__in=days, reversal__isnull=True)
    return set(found.values_list("date", "amount", "person_id"))


def confirm_import(preview: Preview, *, by=None, lines=None) -> tuple[BankImport, bool]:
    """Write every matched line (or those of ``lines``, the numbers the treasurer left
    ticked) as a payment, in one transaction. Returns the import and whether this call
    wrote it: the same file again writes nothing."""
    done = BankImport.objects.filter(file_hash=preview.file_hash).first()
    if done is not None:
        return done, False
    matched = preview.matched
    if not matched:
        raise MoneyRefused(_("No line of the file matched a member: nothing to import."))
    if lines is not None:
        ticked = {str(number) for number in lines}
        matched = [line for line in matched if str(line.line) in ticked]
        if not matched:
            raise MoneyRefused(_("No line is ticked: tick the payments to import."))
    people = Person.objects.current().in_bulk([line.person for line in matched])
    user = by if by is not None and by.is_authenticated else None
    try:
        with transaction.atomic():
            record = BankImport.objects.create(
                file_hash=preview.file_hash,
                filename=preview.filename,
                lines=len(matched),
                total=sum((Decimal(line.amount) for line in matched), Decimal("0.00")),
                created_by=user,
            )
            Entry.objects.bulk_create(
                Entry(
                    club_id=record.club_id,
                    person=people[line.person],
                    kind=Entry.Kind.PAYMENT,
                    source=Entry.Source.BANK,
                    amount=Decimal(line.amount),
                    date=datetime.date.fromisoformat(line.date),
                    note=line.reference,
                    bank_import=record,
                    recorded_by=user,
                )
                for line in matched
            )
    except KeyError:
        raise MoneyRefused(
            _("A member of this file was changed meanwhile; upload the file again.")
        ) from None
    except IntegrityError:
        done = BankImport.objects.filter(file_hash=preview.file_hash).first()
        if done is None:
            raise
        return done, False
    return record, True
