"""Merging two records of the same person into one, across every app.

Every row pointing at the removed record moves to the kept one in one transaction; the
removed record stays as a trace (``merged_into``) and a MergeRecord keeps a snapshot of
it. `person_merged` is sent once the merge is committed, for other apps to update what
they derive from people (members itself never listens).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalChanges

from members.models import MergeRecord, Person, Round, SignIn
from members.money.services.merging import merge_money, take_back_merged_sign_in
from members.services.errors import MergeRefused
from members.signals import person_merged


def _snapshot(person: Person) -> dict[str, Any]:
    return {
        "id": person.pk,
        "name": person.full_name,
        "kind": person.kind,
        "membership_number": person.membership_number,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "email": person.email,
        "phone": person.phone,
        "status": person.status,
        "joined": person.joined.isoformat() if person.joined else None,
        "notes": person.notes,
        "brought_by": person.brought_by_id,
        "user": person.user_id,
        "created_at": person.created_at.isoformat() if person.created_at else None,
    }


def _relations_to_person():
    """Every foreign key or one-to-one pointing at Person, from any app, except the
    history tables (they keep their traces), the merge records themselves, and derived
    rows whose model says ``rebuilt_after_merge`` (stored totals)."""
    for relation in Person._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete):
            continue
        if relation.many_to_many:
            through = relation.through
            if through is None or not through._meta.auto_created:
                continue  # a custom `through` model has its own foreign key, moved below
            for fk in through._meta.fields:
                if fk.is_relation and fk.related_model is Person:
                    yield through, fk
            continue
        model = relation.related_model
        if issubclass(model, HistoricalChanges) or model is MergeRecord:
            continue
        if getattr(model, "rebuilt_after_merge", False):
            continue  # derived rows its app adds up again on person_merged
        yield model, relation.field


_LABELS = {
    ("members.Person", "brought_by"): gettext_lazy("guests they brought"),
    ("members.Person", "merged_into"): gettext_lazy("records merged earlier"),
    ("members.SignIn", "person"): gettext_lazy("sign-ins"),
    ("members.SignIn", "brought_by"): gettext_lazy(
        "guests' sign-ins (as the member who brought them)"
    ),
    ("members.Seat", "person"): gettext_lazy("seats at tables"),
}


def _label(model, field) -> str:
    """'sign-ins', 'games (score keeper)': what a count of moved rows is about."""
    known = _LABELS.get((getattr(model._meta, "label", ""), field.name))
    if known:
        return str(known)
    name = str(model._meta.verbose_name_plural)
    return f"{name} ({field.verbose_name})" if field.name != "person" else name


def merge_people(kept: Person, removed: Person, *, by=None) -> MergeRecord:
    """Make two records of the same person one.

    Every row pointing at `removed` (sign-ins, seats, games, guests brought, from any
    app) moves to `kept`, in one transaction. Two sign-ins on the same day become one
    (card shown if either showed it). Refused, with nothing changed, when both were
    seated in the same round or another app's rule forbids the move. `removed` stays as
    a trace pointing at `kept`, without its membership number."""
    if kept.pk == removed.pk:
        raise MergeRefused(_("Choose two different records to merge."))
    if kept.is_merged or removed.is_merged:
        raise MergeRefused(_("One of these records was already merged; reload the page."))
    with transaction.atomic():
        kept = Person.objects.select_for_update().get(pk=kept.pk)
        removed = Person.objects.select_for_update().get(pk=removed.pk)
        snapshot = _snapshot(removed)
        moved: dict[str, int] = {}
        _check_not_seated_together(kept, removed)
        _merge_same_day_signins(kept, removed, moved, by=by)
        merge_money(kept, removed, moved, by=by)
        _forget_bringing_each_other(kept, removed)
        _move_relations(kept, removed, moved)
        _retire_removed_and_fill_kept(kept, removed, moved, by=by)
        record = MergeRecord.objects.create(
            kept=kept,
            removed=removed,
            removed_snapshot=snapshot,
            moved=moved,
            merged_by=by if by is not None and by.is_authenticated else None,
        )
        transaction.on_commit(
            lambda: person_merged.send(sender=Person, kept=kept, removed=removed, record=record)
        )
        return record


def _check_not_seated_together(kept: Person, removed: Person) -> None:
    both_seated = (
        Round.objects.filter(seats__person=kept)
        .filter(seats__person=removed)
        .select_related("day")
        .first()
    )
    if both_seated is not None:
        raise MergeRefused(
            _(
                "Both records are seated in round %(number)s of %(day)s. Take "
                "one of them off the tables first (seating page), then merge."
            )
            % {"number": both_seated.number, "day": both_seated.day}
        )


def _merge_same_day_signins(
    kept: Person, removed: Person, moved: dict[str, int], *, by=None
) -> None:
    """Same-day sign-ins: keep the kept record's, card shown if either showed it; the
    dropped one's table money is taken back (the day is charged once)."""
    kept_days = {s.day_id: s for s in SignIn.objects.filter(person=kept)}
    merged_signins = 0
    for signin in SignIn.objects.filter(person=removed, day_id__in=kept_days):
        keep = kept_days[signin.day_id]
        if signin.card_shown and not keep.card_shown:
            keep.card_shown = True
            keep.save(update_fields=["card_shown"])
        take_back_merged_sign_in(signin, by=by)
        signin.delete()
        merged_signins += 1
    if merged_signins:
        moved["sign-ins on the same day (made one)"] = merged_signins


def _forget_bringing_each_other(kept: Person, removed: Person) -> None:
    """A sign-in where one of them brought the other: the guest came alone."""
    SignIn.objects.filter(person=kept, brought_by=removed).update(brought_by=None)
    SignIn.objects.filter(person=removed, brought_by=kept).update(brought_by=None)
    if kept.brought_by_id == removed.pk:
        kept.brought_by = None


def _move_relations(kept: Person, removed: Person, moved: dict[str, int]) -> None:
    """Point every row of every app that points at `removed` at `kept` instead."""
    for model, field in _relations_to_person():
        if model is Person and field.name == "brought_by":
            queryset = model._base_manager.filter(brought_by=removed).exclude(pk=kept.pk)
        else:
            queryset = model._base_manager.filter(**{field.name: removed})
        if (
            field.one_to_one
            and model._base_manager.filter(**{field.name: kept}).exists()
            and queryset.exists()
        ):
            raise MergeRefused(
                _("Both records have a %(verbose_name)s; only one is allowed. Nothing was changed.")
                % {"verbose_name": model._meta.verbose_name}
            )
        try:
            with transaction.atomic():
                count = queryset.update(**{field.name: kept})
        except IntegrityError:
            raise MergeRefused(
                _(
                    "These two records cannot be merged: both appear in %(label)s "
                    "where the same person may appear only once (for example, as two "
                    "players of one game). Nothing was changed; correct that first."
                )
                % {"label": _label(model, field)}
            ) from None
        if count:
            moved[_label(model, field)] = moved.get(_label(model, field), 0) + count


def _retire_removed_and_fill_kept(
    kept: Person, removed: Person, moved: dict[str, int], *, by=None
) -> None:
    """The removed record gives up its number and login and points at the kept one,
    which fills in what it lacks from it."""
    number = removed.membership_number
    login = removed.user
    removed.membership_number = None
    removed.user = None
    removed.merged_into = kept
    if by is not None:
        removed._history_user = by
    removed.save()
    filled = _fill_in(kept, removed, number)
    if login is not None:
        if kept.user_id is None:
            kept.user = login
            filled.append("login")
        else:
            login.is_active = False
            login.save(update_fields=["is_active"])
            moved["logins switched off (the kept record has its own)"] = 1
    if by is not None:
        kept._history_user = by
    kept.save()
    if filled:
        moved["fields filled in"] = ", ".join(filled)  # type: ignore[assignment]


def _fill_in(kept: Person, removed: Person, number: str | None) -> list[str]:
    """Copy onto `kept` (not saved) what it lacks and `removed` has; the names of what
    was filled in."""
    filled = []
    if kept.membership_number is None and number:
        kept.membership_number = number
        kept.kind = Person.Kind.MEMBER
        filled.append("membership number")
    for name in ("email", "phone", "joined", "last_name"):
        if not getattr(kept, name) and getattr(removed, name):
            setattr(kept, name, getattr(removed, name))
            filled.append(name.replace("_", " "))
    if (
        kept.brought_by_id is None
        and removed.brought_by_id not in (None, kept.pk)
        and kept.is_guest
    ):
        kept.brought_by_id = removed.brought_by_id
        filled.append("brought by")
    if removed.notes.strip():
        kept.notes = (kept.notes + "\n" if kept.notes else "") + (
            f"From merged record #{removed.pk}: {removed.notes.strip()}"
        )
        filled.append("notes")
    return filled


def merge_preview(kept: Person, removed: Person) -> list[tuple[str, int]]:
    """How many rows of each kind would move (for the confirm page)."""
    counts = []
    for model, field in _relations_to_person():
        count = model._base_manager.filter(**{field.name: removed}).count()
        if count:
            counts.append((_label(model, field), count))
    return counts
