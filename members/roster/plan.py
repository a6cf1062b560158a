"""Planning and applying a roster import: what it would change, then saving it.

`plan_import(rows)` reads the database: which rows create a member, which update one
(matched by membership number, and which fields change), which change nothing.
`apply_import(roster)` plans again against the current database and saves, all in one
transaction, so nothing is saved before an officer has seen the preview and confirmed.

Blank cells never erase what we already have: a row's values hold only what the file says.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext, ngettext

from members.models import Person
from members.roster.clean import FIELD_WORDS, Duplicate, Refusal, Replaced, RosterRow
from members.roster.read import Roster


@dataclass
class Change:
    field: str
    old: Any
    new: Any

    @property
    def label(self) -> str:
        return str(FIELD_WORDS[self.field])


@dataclass
class PlannedRow:
    row: RosterRow
    person_id: int | None = None
    person_name: str = ""
    changes: list[Change] = field(default_factory=list)
    hint: str = ""


@dataclass
class ImportPlan:
    """What an import does (a preview) or did (after `apply_import`)."""

    create: list[PlannedRow] = field(default_factory=list)
    update: list[PlannedRow] = field(default_factory=list)
    unchanged: list[PlannedRow] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    duplicates: list[Duplicate] = field(default_factory=list)
    replaced: list[Replaced] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many rows of each kind: what :func:`summary_of` says in words."""
        return {
            "created": len(self.create),
            "updated": len(self.update),
            "unchanged": len(self.unchanged),
            "refused": len(self.refused),
            "duplicates": len(self.duplicates),
            "replaced": len(self.replaced),
        }

    def summary(self) -> str:
        return summary_of(self.counts())


def summary_of(counts: dict[str, int]) -> str:
    """An import's counts in words ("4 created, 0 updated, ..."), in the active
    language (a job keeps the counts and each reader sees them in their own)."""
    created, updated, unchanged = counts["created"], counts["updated"], counts["unchanged"]
    refused, duplicates, replaced = counts["refused"], counts["duplicates"], counts["replaced"]
    parts = [
        ngettext("%(n)s created", "%(n)s created", created) % {"n": created},
        ngettext("%(n)s updated", "%(n)s updated", updated) % {"n": updated},
        ngettext("%(n)s unchanged", "%(n)s unchanged", unchanged) % {"n": unchanged},
    ]
    if refused:
        parts.append(ngettext("%(n)s refused", "%(n)s refused", refused) % {"n": refused})
    if duplicates:
        parts.append(
            ngettext(
                "%(n)s duplicate row counted once",
                "%(n)s duplicate rows counted once",
                duplicates,
            )
            % {"n": duplicates}
        )
    if replaced:
        parts.append(
            ngettext(
                "%(n)s row replaced by a later row with the same membership number",
                "%(n)s rows replaced by a later row with the same membership number",
                replaced,
            )
            % {"n": replaced}
        )
    return ", ".join(parts)


def plan_import(rows: list[RosterRow], *, for_update: bool = False) -> ImportPlan:
    """Compare valid rows with the database (matched by membership number)."""
    plan = ImportPlan()
    numbers = [row.membership_number for row in rows]
    people = Person.objects.filter(membership_number__in=numbers)
    if for_update:
        people = people.select_for_update()
    existing = {p.membership_number: p for p in people}
    # Possible duplicates: the same name on file under another number (or a guest).
    names = {(row.first_name.casefold(), row.last_name.casefold()) for row in rows}
    same_name = defaultdict(list)
    if names:
        for person in Person.objects.current().only(
            "kind", "first_name", "last_name", "membership_number"
        ):
            key = (person.first_name.casefold(), person.last_name.casefold())
            if key in names:
                same_name[key].append(person)
    for row in rows:
        person = existing.get(row.membership_number)
        if person is None:
            planned = PlannedRow(row=row)
            for other in same_name.get((row.first_name.casefold(), row.last_name.casefold()), []):
                if other.is_guest:
                    planned.hint = gettext(
                        "A guest named %(name)s is already on file: if it is the same "
                        "person, merge the two records after the import."
                    ) % {"name": other.full_name}
                else:
                    planned.hint = gettext(
                        "A member named %(name)s already has number %(number)s."
                    ) % {"name": other.full_name, "number": other.membership_number}
            plan.create.append(planned)
            continue
        changes = [
            Change(name, getattr(person, name), value)
            for name, value in row.values().items()
            if getattr(person, name) != value
        ]
        planned = PlannedRow(
            row=row, person_id=person.pk, person_name=person.full_name, changes=changes
        )
        (plan.update if changes else plan.unchanged).append(planned)
    return plan


def apply_import(roster: Roster, *, dry_run: bool = False, by=None) -> ImportPlan:
    """Plan again against the current database and save, in one transaction."""
    with transaction.atomic():
        plan = plan_import(roster.rows, for_update=not dry_run)
        plan.refused = list(roster.refused)
        plan.duplicates = list(roster.duplicates)
        plan.replaced = list(roster.replaced)
        if dry_run:
            return plan
        for planned in plan.create:
            row = planned.row
            values = {"status": Person.Status.ACTIVE, **row.values()}
            person = Person(
                kind=Person.Kind.MEMBER, membership_number=row.membership_number, **values
            )
            if by is not None:
                person._history_user = by
            person.save()
            planned.person_id = person.pk
        if plan.update:
            people = Person.objects.in_bulk([p.person_id for p in plan.update])
            for planned in plan.update:
                person = people[planned.person_id]
                for change in planned.changes:
                    setattr(person, change.field, change.new)
                if by is not None:
                    person._history_user = by
                person.save(update_fields=[c.field for c in planned.changes] + ["updated_at"])
    return plan
